// Lets the browser run input, rendering and other tasks before the caller goes on: `scheduler.yield()` where the
// browser has it (the continuation keeps its place ahead of other tasks), else a new task (`setTimeout(0)`).
// Long work split by it is several short tasks rather than one long one (docs/decisions/175).

interface SchedulerWithYield {
  yield?: () => Promise<void>;
}

export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: SchedulerWithYield }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The longest slice of work between two yields. Lighthouse's mobile audit counts a task over 50 ms as blocking after
 * multiplying the observed CPU time by 4, so slices are kept well under 12 ms on the machine that runs it.
 */
export const SLICE_MS = 6;
