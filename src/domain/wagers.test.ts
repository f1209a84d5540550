import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edgePct } from './arbitrage.ts';
import type { Cents } from './odds.ts';
import {
  centsToInput,
  changeWager,
  defaultSplit,
  DEFAULT_TOTAL_CENTS,
  formatUsd,
  inputsToStakes,
  otherStake,
  parseStake,
  payout,
  priceStakes,
  resetsOnBlur,
  type WagerInputs,
} from './wagers.ts';
import { splitStakes } from './stake-split.ts';

const c = (n: number) => n as Cents;
const guaranteedProfit = (stakes: readonly Cents[], decimals: readonly number[]) =>
  priceStakes(stakes, decimals).guaranteedProfit;
/** The two inputs of a two-way arb as the page first shows them: the default split, in dollars. */
const defaultInputs = (decimals: readonly [number, number]): WagerInputs => {
  const [a, b] = defaultSplit(decimals);
  return [centsToInput(a!), centsToInput(b!)];
};
// +155 and -140: decimals 2.55 and 1.714285…, which the stake formula rounds to 1.71.
const ML: [number, number] = [2.55, 1.7142857142857142];

/** Decimal odds as the feed carries them, 4 places (1.0100 to 50.0000), as ten-thousandths. */
const odds4 = fc.integer({ min: 10_100, max: 500_000 });
/** What `stake` cents pay at `tenThousandths` / 10,000 decimal odds, rounded down, in exact integer arithmetic. */
const exactPayout = (stake: number, tenThousandths: number) => {
  const product = stake * tenThousandths;
  return (product - (product % 10_000)) / 10_000;
};

describe('defaultSplit', () => {
  it('splits $200 so both payouts are equal, with the exact decimal odds', () => {
    const [a, b] = defaultSplit(ML);
    expect(DEFAULT_TOTAL_CENTS).toBe(20_000);
    expect(a! + b!).toBe(20_000);
    expect(a).toBe(8040); // 200 × (1/2.55) / (1/2.55 + 1/1.714…)
    expect(b).toBe(11_960);
    expect(Math.abs(payout(a!, ML[0]) - payout(b!, ML[1]))).toBeLessThanOrEqual(1);
  });

  it('gives the edge as profit: 2.51 % of $200 is $5.02', () => {
    expect(guaranteedProfit(defaultSplit(ML), ML)).toBe(502);
  });

  it('always sums to the total and keeps payouts equal within the rounding of one cent (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1.01, max: 20, noNaN: true }),
        fc.double({ min: 1.01, max: 20, noNaN: true }),
        (d1, d2) => {
          const [a, b] = defaultSplit([d1, d2]);
          expect(a! + b!).toBe(20_000);
          expect(Math.abs(a! * d1 - b! * d2)).toBeLessThanOrEqual(d1 + d2);
        },
      ),
    );
  });
});

describe('the equal-payout stake rule (properties)', () => {
  it('shows payouts the split stakes reproduce to the cent, rounded down', () => {
    fc.assert(
      fc.property(
        fc.array(odds4, { minLength: 2, maxLength: 3 }),
        fc.integer({ min: 100, max: 10_000_000 }),
        (ticks, total) => {
          const decimals = ticks.map((t) => t / 10_000);
          const stakes = defaultSplit(decimals, c(total));
          expect(stakes.reduce((a, b) => a + b, 0)).toBe(total);
          stakes.forEach((stake, i) => {
            expect(Number.isInteger(stake)).toBe(true);
            expect(payout(stake, decimals[i]!)).toBe(exactPayout(stake, ticks[i]!));
          });
        },
      ),
    );
  });

  it('shows the worst case over outcomes as the profit, never more than any outcome pays', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(odds4, fc.integer({ min: 0, max: 10_000_000 })), { minLength: 2, maxLength: 3 }),
        (bets) => {
          const decimals = bets.map(([t]) => t / 10_000);
          const stakes = bets.map(([, stake]) => c(stake));
          const staked = stakes.reduce((a, b) => a + b, 0);
          const profit = guaranteedProfit(stakes, decimals);
          const net = bets.map(([t, stake]) => exactPayout(stake, t) - staked);
          for (const outcome of net) expect(profit).toBeLessThanOrEqual(outcome);
          expect(net).toContain(profit);
        },
      ),
    );
  });

  it('never shows the default split a profit above the edge, and loses at most the rounding of its stakes', () => {
    fc.assert(
      fc.property(
        fc.array(odds4, { minLength: 2, maxLength: 3 }),
        fc.integer({ min: 100, max: 10_000_000 }),
        (ticks, total) => {
          const decimals = ticks.map((t) => t / 10_000);
          const profit = guaranteedProfit(defaultSplit(decimals, c(total)), decimals);
          const edge = (total * edgePct(decimals)) / 100;
          expect(profit).toBeLessThanOrEqual(edge + 1e-6);
          // Each stake is off its exact share by at most half a cent, the last by the others' remainders.
          const rounding = ((decimals.length - 1) / 2) * Math.max(...decimals) + 1;
          expect(profit).toBeGreaterThanOrEqual(edge - rounding);
        },
      ),
    );
  });
});

describe('otherStake', () => {
  it('is this wager × this decimal ÷ the other decimal, decimals rounded to 2 places', () => {
    // 100.00 × 2.55 ÷ 1.71 = 149.12
    expect(otherStake(c(10_000), 2.55, 1.7142857)).toBe(14_912);
    // rounding the decimals matters: 2.546 → 2.55, 1.714 → 1.71
    expect(otherStake(c(10_000), 2.546, 1.714)).toBe(14_912);
  });
});

describe('payout and guaranteedProfit', () => {
  it('rounds a payout down to the cent, keeping a cent the stake pays exactly', () => {
    expect(payout(c(10_001), 2.55)).toBe(25_502); // 25,502.55
    expect(payout(c(1000), 1.017)).toBe(1017); // 1000 × 1.017 is 1016.999… in binary
  });

  it('reports the smallest payout minus the total staked, in cents', () => {
    const stakes = [c(8028), c(11_972)];
    expect(payout(stakes[0]!, 2.55)).toBe(20_471);
    expect(payout(stakes[1]!, ML[1])).toBe(20_523);
    expect(guaranteedProfit(stakes, ML)).toBe(20_471 - 20_000);
  });

  it('is negative when the payouts do not cover the stakes', () => {
    expect(guaranteedProfit([c(10_000), c(10_000)], [1.9, 1.9])).toBe(-1000);
  });

  it('formats cents as dollars', () => {
    expect(formatUsd(c(20_471))).toBe('$204.71');
    expect(formatUsd(c(-1000))).toBe('-$10.00');
  });
});

describe('parseStake', () => {
  it('reads dollars into cents and refuses empty, negative or non-numeric text', () => {
    expect(parseStake('87.5')).toBe(8750);
    expect(parseStake('0')).toBe(0);
    expect(parseStake('')).toBeNull();
    expect(parseStake('  ')).toBeNull();
    expect(parseStake('-3')).toBeNull();
    expect(parseStake('abc')).toBeNull();
  });
});

describe('changeWager', () => {
  const start = defaultInputs(ML);

  it('computes the other side when one side is typed', () => {
    expect(changeWager(start, 0, '100', ML)).toEqual(['100', '149.12']);
    expect(changeWager(start, 1, '171', ML)).toEqual(['114.67', '171']);
  });

  it('sets the other side to 0.00 when a zero is typed', () => {
    expect(changeWager(start, 0, '0', ML)).toEqual(['0', '0.00']);
  });

  it('leaves the other side alone while the field is empty', () => {
    expect(changeWager(start, 0, '', ML)).toEqual(['', start[1]]);
  });

  it('keeps payouts equal for any typed stake (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (cents) => {
        const text = (cents / 100).toFixed(2);
        const next = changeWager(start, 0, text, ML);
        const [a, b] = inputsToStakes(next);
        expect(Math.abs(a! * 2.55 - b! * 1.71)).toBeLessThanOrEqual(1.71);
      }),
    );
  });
});

describe('resetsOnBlur', () => {
  it('resets both sides to the default split when the value is empty, zero or unreadable', () => {
    expect(defaultInputs(ML)).toEqual(['80.40', '119.60']);
    expect(resetsOnBlur('')).toBe(true);
    expect(resetsOnBlur('0')).toBe(true);
    expect(resetsOnBlur('0.00')).toBe(true);
    expect(resetsOnBlur('abc')).toBe(true);
  });

  it('keeps a positive value as typed', () => {
    expect(resetsOnBlur('100')).toBe(false);
    expect(resetsOnBlur('0.01')).toBe(false);
  });
});

describe('splitStakes', () => {
  it('with no rounding is the default split, to the cent, with its payouts', () => {
    const split = splitStakes(ML, 20_000, 0);
    expect(split.stakes).toEqual(defaultSplit(ML));
    expect(split.payouts).toEqual([payout(c(8040), ML[0]), payout(c(11_960), ML[1])]);
    expect(split).toMatchObject({ total: 20_000, guaranteedProfit: 502, losesIn: [] });
  });

  // Hand-checked: +155/−140 ($200 exact split 80.39/119.61): $80/$120 pay 204.00 and 205.71; $90/$110 pay 229.50 and
  // 188.57 (a loss). To $10: $80/$120, +$4.00 (the cent split gives +$5.02).
  it('rounds to $10 keeping the best worst case', () => {
    expect(splitStakes(ML, 20_000, 1000)).toEqual({
      stakes: [8000, 12_000],
      payouts: [20_400, 20_571],
      total: 20_000,
      guaranteedProfit: 400,
      losesIn: [],
    });
  });

  // 3.10/1.50 (edge 1.09 %), $100 to $10: $30/$70 pay 93 and 105 (−$7), $40/$60 pay 124 and 90 (−$10): the best
  // rounded split loses $7 if the first outcome wins, and says so.
  it('says which outcome a rounded split loses in', () => {
    expect(splitStakes([3.1, 1.5], 10_000, 1000)).toEqual({
      stakes: [3000, 7000],
      payouts: [9300, 10_500],
      total: 10_000,
      guaranteedProfit: -700,
      losesIn: [0],
    });
  });

  // $203 to $5: totals $200 ($80/$120: +$4.00) or $205 (best $85/$120: 216.75 and 205.71, +$0.71). $200 wins on profit.
  it('stakes the requested total rounded to the step, below or above, whichever guarantees more', () => {
    const split = splitStakes(ML, 20_300, 500);
    expect(split.total).toBe(20_000);
    expect(split.stakes).toEqual([8000, 12_000]);
    expect(split.guaranteedProfit).toBe(400);
    // 2.50/1.60 (no arb) to $1: $6/$10 pays 15 and 16 (of 16), $7/$10 pays 17.50 and 16 (of 17): both lose $1. Equal worst cases: the
    // total closer to the request wins, then the lower one.
    const close = [2.5, 1.6];
    expect(splitStakes(close, 1620, 100)).toMatchObject({
      stakes: [600, 1000],
      guaranteedProfit: -100,
      losesIn: [0],
    });
    expect(splitStakes(close, 1680, 100)).toMatchObject({
      stakes: [700, 1000],
      guaranteedProfit: -100,
      losesIn: [1],
    });
    expect(splitStakes(close, 1650, 100).total).toBe(1600);
  });

  // 1X2 at 2.50/3.60/3.40 (edge 2.89 %), $300: exact 123.47/85.75/90.78. To $10: $120/$90/$90 pays 300, 324, 306:
  // break-even, which is not a loss. To $1: $123/$86/$91 pays 307.50, 309.60, 309.40: +$7.50.
  it('splits three-way arbs', () => {
    const x12 = [2.5, 3.6, 3.4];
    expect(splitStakes(x12, 30_000, 1000)).toEqual({
      stakes: [12_000, 9000, 9000],
      payouts: [30_000, 32_400, 30_600],
      total: 30_000,
      guaranteedProfit: 0,
      losesIn: [],
    });
    expect(splitStakes(x12, 30_000, 100)).toMatchObject({
      stakes: [12_300, 8600, 9100],
      guaranteedProfit: 750,
    });
    expect(splitStakes(x12, 30_000, 0)).toMatchObject({
      stakes: [12_347, 8574, 9079],
      guaranteedProfit: 866,
    });
  });

  /** Decimal odds of an arb or near-arb (book sum 0.95 to 1.01) with every price in 1.2–8, 4 places or exact. */
  const arbDecimals = (ways: 2 | 3) =>
    fc
      .record({
        weights: fc.array(fc.double({ min: 0.125, max: 0.84, noNaN: true }), {
          minLength: ways,
          maxLength: ways,
        }),
        sum: fc.double({ min: 0.95, max: 1.01, noNaN: true }),
        floored: fc.boolean(),
      })
      .map(({ weights, sum, floored }) => {
        const total = weights.reduce((a, b) => a + b, 0);
        return weights.map((w) => {
          const decimal = total / (w * sum);
          return floored ? Math.floor(decimal * 10_000) / 10_000 : decimal;
        });
      })
      .filter((decimals) => decimals.every((d) => d >= 1.2 && d <= 8));

  /** The best guaranteed profit over every split into multiples of `step` with each stake within ±$20 of the exact
   *  split of `total`, staking the total rounded to the step (below or above). */
  function bruteForce(decimals: readonly number[], total: number, step: number): number {
    const weights = decimals.map((d) => 1 / d);
    const sum = weights.reduce((a, b) => a + b, 0);
    const exact = weights.map((w) => (total * w) / sum);
    const box = exact.map(
      (e) => [Math.max(0, Math.ceil((e - 2000) / step)), Math.floor((e + 2000) / step)] as const,
    );
    const inBox = (i: number, steps: number) => steps >= box[i]![0] && steps <= box[i]![1];
    const below = Math.floor(total / step);
    const totals = below * step === total ? [below] : below === 0 ? [below + 1] : [below, below + 1];
    let best = -Infinity;
    for (const steps of totals) {
      for (let a = box[0]![0]; a <= box[0]![1]; a += 1) {
        if (decimals.length === 2) {
          if (!inBox(1, steps - a)) continue;
          best = Math.max(best, guaranteedProfit([c(a * step), c((steps - a) * step)], decimals));
          continue;
        }
        for (let b = box[1]![0]; b <= box[1]![1]; b += 1) {
          if (!inBox(2, steps - a - b)) continue;
          const stakes = [c(a * step), c(b * step), c((steps - a - b) * step)];
          best = Math.max(best, guaranteedProfit(stakes, decimals));
        }
      }
    }
    return best;
  }

  it('guarantees the brute-force best profit over every rounded split within ±$20 of the exact one (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(arbDecimals(2), arbDecimals(3)),
        fc.integer({ min: 2000, max: 500_000 }),
        fc.constantFrom(100, 500, 1000),
        (decimals, total, step) => {
          const split = splitStakes(decimals, total, step);
          expect(split.guaranteedProfit).toBe(bruteForce(decimals, total, step));
          // What it reports is what its stakes pay.
          expect(split.stakes.every((s) => s % step === 0)).toBe(true);
          expect(split.total).toBe(split.stakes.reduce((a, b) => a + b, 0));
          expect(split.guaranteedProfit).toBe(guaranteedProfit(split.stakes, decimals));
          expect(split.payouts).toEqual(split.stakes.map((s, i) => payout(s, decimals[i]!)));
          expect(split.losesIn).toEqual(split.payouts.flatMap((p, i) => (p < split.total ? [i] : [])));
          expect(Math.abs(split.total - total)).toBeLessThan(step);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('with no rounding is exactly the default split (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(arbDecimals(2), arbDecimals(3)),
        fc.integer({ min: 0, max: 500_000 }),
        (decimals, total) => {
          const split = splitStakes(decimals, total, 0);
          expect(split.stakes).toEqual(defaultSplit(decimals, c(total)));
          expect(split.total).toBe(total);
          expect(split.guaranteedProfit).toBe(guaranteedProfit(split.stakes, decimals));
        },
      ),
    );
  });
});
