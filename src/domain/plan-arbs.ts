import { freeShowsArb } from './plans.ts';

// The arbs a paid plan gets (decision 210), on /v1/arbs and on /v1/stream (its snapshot and its arb events, decision
// 223): every arb the free tier shows now (edge at or below the free cap, near-arbs included), as it is now, and, from
// the set `delay` seconds old, the arbs above the cap whose key the free part does not hold. A real-time plan's two
// sets are the same.

export interface KeyedArbs<A> {
  arbs: readonly A[];
  /** `keys[i]` identifies `arbs[i]` (the engine's key: event, market, sides). */
  keys: readonly string[];
}

/** The plan's arbs and their keys, best edge first: `current`'s free part and `delayed`'s part above the cap. */
export function planArbsKeyed<A extends { edge_pct: number }>(
  current: KeyedArbs<A>,
  delayed: KeyedArbs<A> | undefined,
): KeyedArbs<A> {
  const free: A[] = [];
  const freeKeys: string[] = [];
  const freeSet = new Set<string>();
  current.arbs.forEach((arb, index) => {
    if (!freeShowsArb(arb.edge_pct)) return;
    const key = current.keys[index]!;
    free.push(arb);
    freeKeys.push(key);
    freeSet.add(key);
  });
  if (delayed === undefined) return { arbs: free, keys: freeKeys };
  const above: A[] = [];
  const aboveKeys: string[] = [];
  delayed.arbs.forEach((arb, index) => {
    const key = delayed.keys[index]!;
    if (freeShowsArb(arb.edge_pct) || freeSet.has(key)) return;
    above.push(arb);
    aboveKeys.push(key);
  });
  // Both lists are best first; every arb above the cap is better than every free one.
  return { arbs: [...above, ...free], keys: [...aboveKeys, ...freeKeys] };
}

/** The plan's arbs, best edge first: `current`'s free part and `delayed`'s part above the cap. */
export function planArbs<A extends { edge_pct: number }>(
  current: KeyedArbs<A>,
  delayed: KeyedArbs<A> | undefined,
): A[] {
  return [...planArbsKeyed(current, delayed).arbs];
}
