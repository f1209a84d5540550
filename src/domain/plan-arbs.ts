import { freeShowsArb } from './plans.ts';

// The arbs a paid plan gets (decision 210), on /v1/arbs and in /v1/stream's snapshot: every arb the free tier shows
// now (edge at or below the free cap, near-arbs included), as it is now, and, from the set `delay` seconds old, the
// arbs above the cap whose key the free part does not hold. A real-time plan's two sets are the same.

export interface KeyedArbs<A> {
  arbs: readonly A[];
  /** `keys[i]` identifies `arbs[i]` (the engine's key: event, market, sides). */
  keys: readonly string[];
}

/** The plan's arbs, best edge first: `current`'s free part and `delayed`'s part above the cap. */
export function planArbs<A extends { edge_pct: number }>(
  current: KeyedArbs<A>,
  delayed: KeyedArbs<A> | undefined,
): A[] {
  const free: A[] = [];
  const freeKeys = new Set<string>();
  current.arbs.forEach((arb, index) => {
    if (!freeShowsArb(arb.edge_pct)) return;
    free.push(arb);
    freeKeys.add(current.keys[index]!);
  });
  if (delayed === undefined) return free;
  const above: A[] = [];
  delayed.arbs.forEach((arb, index) => {
    if (!freeShowsArb(arb.edge_pct) && !freeKeys.has(delayed.keys[index]!)) above.push(arb);
  });
  // Both lists are best first; every arb above the cap is better than every free one.
  return [...above, ...free];
}
