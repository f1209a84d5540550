import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edgePct } from './arbitrage.ts';
import type { Cents } from './odds.ts';
import {
  blurWager,
  changeWager,
  defaultInputs,
  defaultSplit,
  DEFAULT_TOTAL_CENTS,
  formatUsd,
  guaranteedProfit,
  inputsToStakes,
  otherStake,
  parseStake,
  payout,
} from './wagers.ts';

const c = (n: number) => n as Cents;
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

describe('blurWager', () => {
  it('resets both sides to the default split when the value is empty or zero', () => {
    const split = defaultInputs(ML);
    expect(split).toEqual(['80.40', '119.60']);
    expect(blurWager(['', '149.12'], 0, ML)).toEqual(split);
    expect(blurWager(['0', '0.00'], 0, ML)).toEqual(split);
    expect(blurWager(['100', '0'], 1, ML)).toEqual(split);
  });

  it('keeps a positive value as typed', () => {
    expect(blurWager(['100', '149.12'], 0, ML)).toEqual(['100', '149.12']);
  });
});
