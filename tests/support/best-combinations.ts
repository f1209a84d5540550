import { DEFAULT_COMBINATION_OPTIONS, type CombinationOptions } from '#domain/arbitrage.ts';

// The combination search as it was before the engine's `combineBest` (src/engine/combinations.ts, decision 132): plain
// arrays, a sort with the books' names as text. The engine's tests check `scanMarket` finds exactly what this finds
// (src/engine/scan-model.test.ts); the domain's tests check its rules, and the prop pairing model
// (tests/support/prop-pairing.ts) builds on it.

/**
 * Whether a covering combination is published: the floor is applied to the book sum, S < 1 − floor/100 (for the
 * default −1 %: S < 1.01, i.e. edge > −0.990 %). So a market whose S ≥ 1 − floor/100 never yields an entry.
 */
export function passesFloor(sum: number, floorPct: number): boolean {
  return sum < 1 - floorPct / 100;
}

/** A candidate price for one outcome: which book, at what decimal odds. */
export interface Candidate {
  book: string;
  decimal: number;
}

export interface Combination<C extends Candidate> {
  /** One candidate per outcome, in the outcomes' order. */
  picks: C[];
  sum: number;
  edgePct: number;
}

function topByDecimal<C extends Candidate>(list: readonly C[], count: number): C[] {
  return [...list]
    .sort((a, b) => b.decimal - a.decimal || (a.book < b.book ? -1 : a.book > b.book ? 1 : 0))
    .slice(0, count);
}

/**
 * The best combination for each distinct set of books across the outcomes of one market (each outcome from a
 * different book), keeping those that pass the floor, best first, at most `maxPerMarket`. `byOutcome` must hold only
 * usable prices (fresh, not suspended); an outcome with no price means no combination at all.
 *
 * Work is bounded: the `topPerOutcome` best prices per outcome are combined (6² or 6³ sums, numbers only), sorted by
 * S, and walked best first until `maxPerMarket` distinct sets of books are found. Any combination outside the top
 * prices is beaten, for its own set of books or a better one, by a combination inside them.
 */
export function bestCombinations<C extends Candidate>(
  byOutcome: readonly (readonly C[])[],
  options: CombinationOptions = DEFAULT_COMBINATION_OPTIONS,
): Combination<C>[] {
  const ways = byOutcome.length;
  if (ways < 2 || ways > 3 || byOutcome.some((list) => list.length === 0)) return [];
  const tops = byOutcome.map((list) => topByDecimal(list, options.topPerOutcome));
  const limit = 1 - options.floorPct / 100;
  const sums: number[] = [];
  const picks: number[] = []; // `ways` indices per combination
  const [first, second, third] = tops as [C[], C[], C[] | undefined];
  for (let i = 0; i < first.length; i += 1) {
    const a = first[i]!;
    const sa = 1 / a.decimal;
    if (sa >= limit) break; // sorted by decimal: later ones are worse
    for (let j = 0; j < second.length; j += 1) {
      const b = second[j]!;
      if (b.book === a.book) continue;
      const sb = sa + 1 / b.decimal;
      if (sb >= limit) break;
      if (!third) {
        sums.push(sb);
        picks.push(i, j);
        continue;
      }
      for (let k = 0; k < third.length; k += 1) {
        const c = third[k]!;
        if (c.book === a.book || c.book === b.book) continue;
        const sc = sb + 1 / c.decimal;
        if (sc >= limit) break;
        sums.push(sc);
        picks.push(i, j, k);
      }
    }
  }
  if (sums.length === 0) return [];
  const order = sums.map((_, index) => index);
  const books = (index: number) => tops.map((top, way) => top[picks[index * ways + way]!]!.book);
  const setKey = (index: number) => books(index).sort().join('+');
  order.sort((x, y) => sums[x]! - sums[y]! || (setKey(x) < setKey(y) ? -1 : setKey(x) > setKey(y) ? 1 : 0));
  const out: Combination<C>[] = [];
  const seen = new Set<string>();
  for (const index of order) {
    const key = setKey(index);
    if (seen.has(key)) continue;
    seen.add(key);
    const sum = sums[index]!;
    out.push({
      picks: tops.map((top, way) => top[picks[index * ways + way]!]!),
      sum,
      edgePct: (1 / sum - 1) * 100,
    });
    if (out.length >= options.maxPerMarket) break;
  }
  return out;
}
