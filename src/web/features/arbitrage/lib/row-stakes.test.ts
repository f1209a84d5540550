import { beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '#domain/odds.ts';
import { splitStakes } from '#domain/stake-split.ts';
import { defaultSplit } from '#domain/wagers.ts';
import { loadBettorExtras } from './bettor-extras.ts';
import { defaultRowStakes, stepCents, typedRowStakes } from './row-stakes.ts';

const c = (...values: number[]) => values as Cents[];

describe('row stakes', () => {
  it('the cent split (no rounding) needs no extra chunk: it is splitStakes’ step-0 split, from wagers.ts alone', () => {
    const exact = splitStakes([2.5, 1.7142], 20_000, 0);
    expect(defaultSplit([2.5, 1.7142], 20_000 as Cents)).toEqual(exact.stakes);
    expect(defaultRowStakes([2.5, 1.7142], 20_000, 0)).toEqual({
      stakes: exact.stakes,
      payouts: exact.payouts,
      total: exact.total,
      guaranteedProfit: exact.guaranteedProfit,
      losses: [],
    });
  });

  // Rounded splits come from the bettor-extras chunk, which the screen loads before it draws rows with rounding.
  beforeAll(() => loadBettorExtras());

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
