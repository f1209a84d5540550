import { useEffect, useRef } from 'react';

// The page's single-key shortcuts (issue 14: `r`, `a`, `/`). None fires while the bettor types (inputs, selects,
// text areas, editable content), inside a dialog, with Ctrl, Alt or Meta held, or during IME composition.

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, select, textarea, [contenteditable=""], [contenteditable="true"]')) return true;
  return target.closest('[role="dialog"]') !== null;
}

export function useShortcuts(handlers: Readonly<Record<string, () => void>>) {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey || event.altKey)
        return;
      const handler = current.current[event.key];
      if (!handler || isTypingTarget(event.target)) return;
      event.preventDefault();
      handler();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
