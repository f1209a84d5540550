import { setFlagsFromString } from 'node:v8';
import type { Config } from './config.ts';

// V8's heap growth allowance (docs/decisions/008, 294): HEAP_GROWTH_PCT at start and while the public feed is quiet,
// HEAP_GROWTH_FEED_PCT while it is in demand. V8 reads `--heap-growing-percent` each time it sets the next full
// collection's limit, so a change applies from the next full collection on; 0 is V8's own heuristics.

type HeapGrowthConfig = Pick<Config, 'HEAP_GROWTH_PCT' | 'HEAP_GROWTH_FEED_PCT'>;

/**
 * Sets the start's allowance, and returns what to tell of the feed's demand (undefined when both settings are the
 * same: nothing to switch).
 */
export function heapGrowth(
  config: HeapGrowthConfig,
  setFlags: (flags: string) => void = setFlagsFromString,
): ((feedWanted: boolean) => void) | undefined {
  const set = (pct: number) => setFlags(`--heap-growing-percent=${pct}`);
  if (config.HEAP_GROWTH_PCT > 0) set(config.HEAP_GROWTH_PCT);
  if (config.HEAP_GROWTH_FEED_PCT === config.HEAP_GROWTH_PCT) return undefined;
  return (feedWanted) => set(feedWanted ? config.HEAP_GROWTH_FEED_PCT : config.HEAP_GROWTH_PCT);
}
