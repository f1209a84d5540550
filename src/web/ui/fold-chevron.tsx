import { cn } from '#web/lib/cn.ts';

/** The small chevron of a button that folds a panel open and shut: it turns over while the panel is open. */
export function FoldChevron({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 12 12"
      className={cn('h-3 w-3 motion-safe:transition-transform', open && 'rotate-180')}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
    >
      <path d="m3 4.5 3 3 3-3" />
    </svg>
  );
}
