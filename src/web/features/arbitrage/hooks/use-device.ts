import { useSyncExternalStore } from 'react';
import type { DeviceKind } from '#domain/sportsbook-links.ts';
import { detectDevice } from '../lib/device.ts';

// Reads docs/product.md §9's device inputs from the browser and follows resizes and pointer changes. The answer is kept until
// one of those events, because React asks for it on every render of the page (matchMedia is not free).

const COARSE = '(pointer: coarse)';
let current: DeviceKind | undefined;

function read(): DeviceKind {
  return detectDevice({
    userAgent: navigator.userAgent,
    coarsePointer: typeof window.matchMedia === 'function' && window.matchMedia(COARSE).matches,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
    platform: navigator.platform ?? '',
    width: window.innerWidth,
  });
}

function snapshot(): DeviceKind {
  current ??= read();
  return current;
}

function subscribe(onChange: () => void) {
  const update = () => {
    current = read();
    onChange();
  };
  // What changed while nobody listened (a resize between two mounts) is read again now.
  current = read();
  window.addEventListener('resize', update);
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(COARSE) : null;
  media?.addEventListener?.('change', update);
  return () => {
    window.removeEventListener('resize', update);
    media?.removeEventListener?.('change', update);
  };
}

export function useDevice(): DeviceKind {
  return useSyncExternalStore(subscribe, snapshot, () => 'desktop');
}
