/** The × that closes a form's status message (trial form, "Lost your key?"). */
export function DismissButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label="Dismiss message"
      className="-m-1 rounded p-1 leading-none hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="h-4 w-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="m4 4 8 8M12 4l-8 8" />
      </svg>
    </button>
  );
}
