/**
 * The forms' honeypot ("website"): invisible to people and assistive technology; bots that fill it are discarded
 * server-side (trial form, "Lost your key?", "Manage your subscription"). Uncontrolled: sent with the form's data.
 */
export function HoneypotField({
  id,
}: {
  /** The form's id prefix: the field is `<id>-website`. */
  id: string;
}) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={`${id}-website`}>Website</label>
      <input id={`${id}-website`} name="website" tabIndex={-1} autoComplete="off" />
    </div>
  );
}
