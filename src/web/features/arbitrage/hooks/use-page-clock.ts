import { useSyncExternalStore } from 'react';

// The page clock of the toolbar's settings (`RowSettings.now`, the arbs' age, the "Starts within" filter): one
// interval of 5 s while anything listens and the page is visible; a return to the page reads the time at once.

const TICK_MS = 5_000;
const listeners = new Set<() => void>();
const loadedAt = Date.now();
let now = loadedAt;
let timer: ReturnType<typeof setInterval> | undefined;

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
}

function schedule() {
  const run = listeners.size > 0 && document.visibilityState !== 'hidden';
  if (run && !timer) {
    timer = setInterval(tick, TICK_MS);
    tick();
  } else if (!run && timer) {
    clearInterval(timer);
    timer = undefined;
  }
}

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  if (listeners.size === 1) document.addEventListener('visibilitychange', schedule);
  schedule();
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0) document.removeEventListener('visibilitychange', schedule);
    schedule();
  };
}

export function usePageClock(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => loadedAt,
  );
}
