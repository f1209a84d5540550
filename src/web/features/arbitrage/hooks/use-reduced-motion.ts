import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';
let media: MediaQueryList | null | undefined;

/** One MediaQueryList for the page; reading `matches` from it is cheap, creating one per render is not. */
function query(): MediaQueryList | null {
  media ??= typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null;
  return media;
}

function subscribe(onChange: () => void) {
  const list = query();
  list?.addEventListener?.('change', onChange);
  return () => list?.removeEventListener?.('change', onChange);
}

/** True when the visitor asked for reduced motion (then no stars fly; the highlight stays as a colour). */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => query()?.matches ?? false,
    () => true,
  );
}
