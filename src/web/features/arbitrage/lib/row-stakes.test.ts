import { beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '#domain/odds.ts';
import { splitStakes } from '#domain/stake-split.ts';
import { defaultSplit } from '#domain/wagers.ts';
import { loadBettorExtras } from './bettor-extras.ts';
import {
  defaultRowStakes,
  formatReturnPct,
  paidDecimals,
  splitReturn,
  stepCents,
  typedRowStakes,
} from './row-stakes.ts';

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

  it('rounds to 0 (docs/product.md’s cent split) or whole $1, $5, $10 steps', () => {
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

  it('pays at the exact price of an integer American text, and at the feed’s decimal when the two disagree', () => {
    expect(
      paidDecimals([
        { price: '-140', decimal_odds: 1.7142 },
        { price: '-110', decimal_odds: 1.909 },
        { price: '+150', decimal_odds: 2.5 },
        // Not −110 floored to 4 places: the decimal is the price, the text cannot make it better.
        { price: '-110', decimal_odds: 1.9 },
        { price: '+150', decimal_odds: 2.45 },
      ]),
    ).toEqual([1 + 100 / 140, 1 + 100 / 110, 2.5, 1.9, 2.45]);
    // $1,500 on −140: the book pays 1,500 × 12/7 = $2,571.42; the 4-place 1.7142 paid $2,571.30, 12¢ less.
    expect(
      typedRowStakes(c(150_000), paidDecimals([{ price: '-140', decimal_odds: 1.7142 }])).payouts,
    ).toEqual([257_142]);
  });

  it('the return beside the badge: worst payout minus total, and hundredths of a percent rounded toward −∞', () => {
    expect(splitReturn({ guaranteedProfit: 1_782 as Cents, total: 20_000 as Cents })).toEqual({
      cents: 1_782,
      hundredthsPct: 891,
    });
    // −80 / 20,000 = −0.40 % exactly; −1 / 20,000 = −0.005 % → −0.01 % (a loss never reads 0.00 %).
    expect(splitReturn({ guaranteedProfit: -80 as Cents, total: 20_000 as Cents }).hundredthsPct).toBe(-40);
    expect(splitReturn({ guaranteedProfit: -1 as Cents, total: 20_000 as Cents }).hundredthsPct).toBe(-1);
    // 38 / 2,462 = 1.5434… % → 1.54 %; 1 / 3 of a percent → 0.33 %.
    expect(splitReturn({ guaranteedProfit: 38 as Cents, total: 2_462 as Cents }).hundredthsPct).toBe(154);
    expect(splitReturn({ guaranteedProfit: 1 as Cents, total: 300 as Cents }).hundredthsPct).toBe(33);
    expect(splitReturn({ guaranteedProfit: 0 as Cents, total: 0 as Cents })).toEqual({
      cents: 0,
      hundredthsPct: 0,
    });
    expect([891, -40, -1, 0, 5, -1_234].map(formatReturnPct)).toEqual([
      '8.91%',
      '-0.40%',
      '-0.01%',
      '0.00%',
      '0.05%',
      '-12.34%',
    ]);
  });
});
