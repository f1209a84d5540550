/**
 * The dimmed backdrop behind a modal Radix dialog, in place of Radix's `Dialog.Overlay`: that overlay locks the
 * page's scroll by inserting a `<style>` element, which the pages' CSP blocks (inline styles only by hash, decision
 * 171). app.css locks the scroll while this backdrop is in the page; Radix's `Dialog.Content` still traps the focus,
 * hides the rest of the page from assistive technology and closes the dialog on Escape or a press outside it.
 */
export function DialogBackdrop() {
  return <div data-scroll-lock="" aria-hidden="true" className="fixed inset-0 z-50 bg-slate-950/80" />;
}
