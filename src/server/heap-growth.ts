import { setFlagsFromString } from 'node:v8';
import type { Config } from './config.ts';

// V8's heap growth allowance (docs/decisions/008, 294): HEAP_GROWTH_PCT at start and while the public feed is quiet,
// HEAP_GROWTH_FEED_PCT while it is in demand. V8 reads `--heap-growing-percent` each time it sets the next full
// collection's limit, so a change applies from the next full collection on; 0 is V8's own heuristics.
// With HEAP_FOR_SIZE (decision 301), V8's `--optimize-for-size` while the feed is quiet: V8 reads it at each
// collection (whether the memory reducer may compact and shrink the heap, how much fragmentation a page may keep,
// how large the young generation grows), and `--no-optimize-for-size` while the feed is in demand.
// Without HEAP_PRETENURING (the default; decision 313), `--no-allocation-site-pretenuring` at start: V8 reads it at
// each collection (no site's objects are then allocated in the old space because earlier ones survived).

type HeapGrowthConfig = Pick<
  Config,
  'HEAP_GROWTH_PCT' | 'HEAP_GROWTH_FEED_PCT' | 'HEAP_FOR_SIZE' | 'HEAP_PRETENURING'
>;

/**
 * Sets the start's flags, and returns what to tell of the feed's demand (undefined when nothing differs between the
 * two: nothing to switch).
 */
export function heapGrowth(
  config: HeapGrowthConfig,
  setFlags: (flags: string) => void = setFlagsFromString,
): ((feedWanted: boolean) => void) | undefined {
  const set = (pct: number) => setFlags(`--heap-growing-percent=${pct}`);
  const forSize = (on: boolean) => setFlags(on ? '--optimize-for-size' : '--no-optimize-for-size');
  if (!config.HEAP_PRETENURING) setFlags('--no-allocation-site-pretenuring');
  if (config.HEAP_GROWTH_PCT > 0) set(config.HEAP_GROWTH_PCT);
  if (config.HEAP_FOR_SIZE) forSize(true);
  if (config.HEAP_GROWTH_FEED_PCT === config.HEAP_GROWTH_PCT && !config.HEAP_FOR_SIZE) return undefined;
  return (feedWanted) => {
    if (config.HEAP_GROWTH_FEED_PCT !== config.HEAP_GROWTH_PCT)
      set(feedWanted ? config.HEAP_GROWTH_FEED_PCT : config.HEAP_GROWTH_PCT);
    if (config.HEAP_FOR_SIZE) forSize(!feedWanted);
  };
}
