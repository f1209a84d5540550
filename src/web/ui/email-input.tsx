/** The forms' text inputs (trial form, "Lost your key?"): dark, with a rose border while `aria-invalid`. */
export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-600 bg-slate-950 px-3 py-2.5 text-base text-white placeholder:text-slate-400 focus:border-emerald-300 focus:outline-2 focus:outline-emerald-300 aria-[invalid=true]:border-rose-400';

/**
 * The forms' email address (trial form, "Lost your key?", "Manage your subscription"): `<id>-email`, named `email`,
 * required, at most 254 characters (the longest address), described by `<id>-email-error` while invalid. Each form
 * renders its own label and error text.
 *
 * Uncontrolled (decision 208): the page's script never writes the value, so what a visitor types before the script has
 * run stays in the box when it arrives; a form reads it from the form's data when it is sent.
 */
export function EmailInput({
  id,
  invalid,
  onInput,
}: {
  /** The form's id prefix. */
  id: string;
  invalid: boolean;
  /** The visitor changed the address (a form clears its error). */
  onInput?: () => void;
}) {
  return (
    <input
      id={`${id}-email`}
      name="email"
      type="email"
      required
      autoComplete="email"
      maxLength={254}
      onInput={onInput}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={invalid ? `${id}-email-error` : undefined}
      className={inputClass}
    />
  );
}
