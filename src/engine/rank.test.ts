import { describe, expect, it } from 'vitest';
import { seededRandom } from '#domain/random.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import { rankResults, type HeldArb, type MarketResult } from './scanner.ts';

// The feed's ranking picks the best `limit` arbs with a bounded heap before sorting only them: it must give exactly
// what a stable sort of every arb by (edge descending, key) gives, cut to `limit`, including among equal edges and
// equal keys (the results' order decides), whatever floor the caller guesses (the engine passes its last ranking's
// worst edge: only arbs at or above it are gathered when they are enough).

function results(random: () => number): MarketResult[] {
  const out: MarketResult[] = [];
  for (let market = 0; market < 1 + Math.floor(random() * 60); market += 1) {
    const held: HeldArb[] = [];
    for (let i = 0; i < Math.floor(random() * 4); i += 1) {
      // Few distinct edges and keys: ties at both levels are common.
      const edge = [-0.5, 0, 0.25, 1.5, 3][Math.floor(random() * 5)]!;
      // The Arb as if already built (the ranking returns it as it is).
      held.push({
        edge,
        key: `k${Math.floor(random() * 8)}`,
        arb: { edge_pct: edge, market: `m${market}-${i}` } as Arb,
      } as HeldArb);
    }
    out.push({ held, event: null, validUntil: Infinity });
  }
  return out;
}

describe('rankResults', () => {
  it.each([1, 2, 3, 4, 5, 6])(
    'ranks as a stable sort by edge then key, cut to the limit (seed %i)',
    (seed) => {
      const random = seededRandom(seed);
      for (let round = 0; round < 300; round += 1) {
        const held = results(random);
        const all = held.flatMap((result) =>
          result.held.map((entry) => ({ arb: entry.arb!, key: entry.key })),
        );
        const sorted = [...all].sort(
          (a, b) => b.arb.edge_pct - a.arb.edge_pct || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
        );
        const limit = [0, 1, 3, 10, 50, Infinity][Math.floor(random() * 6)]!;
        const expected = sorted.slice(0, Math.min(limit, sorted.length));
        // Without a floor, and with any floor (a guess of the limit-th edge, right or wrong): the same answer.
        const floor = [undefined, -1, -0.5, 0, 0.25, 1.5, 3, 4][Math.floor(random() * 8)];
        for (const ranked of [rankResults(held, limit), rankResults(held, limit, floor)]) {
          expect(ranked.arbs.every((arb, i) => arb === expected[i]!.arb)).toBe(true);
          expect(ranked.arbs).toHaveLength(expected.length);
          expect(ranked.keys).toEqual(expected.map((entry) => entry.key));
        }
      }
    },
  );
});
