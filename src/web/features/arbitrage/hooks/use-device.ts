import { useSyncExternalStore } from 'react';
import { detectDevice, type DeviceKind } from '#domain/device.ts';

// Reads SPEC §9's device inputs from the browser and follows resizes and pointer changes.

const COARSE = '(pointer: coarse)';

function snapshot(): DeviceKind {
  return detectDevice({
    userAgent: navigator.userAgent,
    coarsePointer: typeof window.matchMedia === 'function' && window.matchMedia(COARSE).matches,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
    platform: navigator.platform ?? '',
    width: window.innerWidth,
  });
}

function subscribe(onChange: () => void) {
  window.addEventListener('resize', onChange);
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(COARSE) : null;
  media?.addEventListener?.('change', onChange);
  return () => {
    window.removeEventListener('resize', onChange);
    media?.removeEventListener?.('change', onChange);
  };
}

export function useDevice(): DeviceKind {
  return useSyncExternalStore(subscribe, snapshot, () => 'desktop');
}
