import { describe, expect, it } from 'vitest';
import type { Cents } from '#domain/odds.ts';
import { splitStakes } from '#domain/wagers.ts';
import { defaultRowStakes, stepCents, typedRowStakes } from './row-stakes.ts';

const c = (...values: number[]) => values as Cents[];

describe('row stakes', () => {
  it('rounds to 0 (SPEC’s cent split) or whole $1, $5, $10 steps', () => {
    expect([0, 1, 5, 10].map((r) => stepCents(r as 0 | 1 | 5 | 10))).toEqual([0, 100, 500, 1000]);
  });

  it('the default split is splitStakes’ own, with what each losing outcome costs', () => {
    const split = splitStakes([2.05, 1.97], 10_000, 1000);
    expect(defaultRowStakes([2.05, 1.97], 10_000, 10)).toEqual({
      stakes: split.stakes,
      payouts: split.payouts,
      total: split.total,
      guaranteedProfit: split.guaranteedProfit,
      losses: [{ index: 1, cents: 150 }],
    });
  });

  it('typed stakes are priced the same way: payouts rounded down, worst case, losing outcomes', () => {
    // 100 × 2.55 = 255.00, 149.12 × 1.7142857 = 255.634… → 255.63; staked 249.12.
    expect(typedRowStakes(c(10_000, 14_912), [2.55, 1.7142857])).toEqual({
      stakes: [10_000, 14_912],
      payouts: [25_500, 25_563],
      total: 24_912,
      guaranteedProfit: 588,
      losses: [],
    });
    expect(typedRowStakes(c(10_000, 5_000), [2.5, 1.9]).losses).toEqual([{ index: 1, cents: 5_500 }]);
  });
});
