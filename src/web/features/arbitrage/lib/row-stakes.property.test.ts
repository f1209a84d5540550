import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalDecimal } from '#domain/arbitrage.ts';
import { americanToDecimal, formatAmerican, type AmericanOdds, type Cents } from '#domain/odds.ts';
import { loadBettorExtras } from './bettor-extras.ts';
import {
  defaultRowStakes,
  formatReturnPct,
  paidDecimals,
  splitReturn,
  typedRowStakes,
  type RowStakes,
} from './row-stakes.ts';

// docs/decisions/160: every payout the arbitrage page shows is the book's own at the exact price, floored to the cent
// (never more, never a cent or more less), and the return shown beside the edge badge is the worst case of the stakes
// shown. Exact payouts are computed here in integers: +A pays stake × (100 + A) / 100, −A pays stake × (A + 100) / A.

beforeAll(() => loadBettorExtras());

/** An integer American price as a fraction num/den of decimal odds. */
const americanPrice = fc
  .tuple(fc.boolean(), fc.integer({ min: 100, max: 5_000 }))
  .map(([plus, magnitude]) => (plus ? magnitude : -magnitude));

const exactFraction = (american: number): [bigint, bigint] =>
  american > 0 ? [BigInt(100 + american), 100n] : [BigInt(-american + 100), BigInt(-american)];

/** The feed's side: the American text and the exact decimal floored to 4 places, as the engine publishes them. */
const feedSide = (american: number) => ({
  price: formatAmerican(american as AmericanOdds),
  decimal_odds: canonicalDecimal(americanToDecimal(american as AmericanOdds)),
});

function expectBooksPayouts(figures: RowStakes, prices: readonly number[]) {
  figures.payouts.forEach((shown, index) => {
    const [num, den] = exactFraction(prices[index]!);
    const exactTimesDen = BigInt(figures.stakes[index]!) * num; // the exact payout × den, in cents
    const shownTimesDen = BigInt(shown) * den;
    // Never more than the book pays, and less by under a cent: the exact payout floored to the cent.
    expect(shownTimesDen <= exactTimesDen).toBe(true);
    expect(exactTimesDen - shownTimesDen < den).toBe(true);
  });
}

function expectReturnIsWorstCase(figures: RowStakes) {
  const worst = Math.min(...figures.payouts) - figures.total;
  const shown = splitReturn(figures);
  expect(shown.cents).toBe(worst);
  expect(figures.total).toBe(figures.stakes.reduce((a, b) => a + b, 0));
  if (figures.total > 0) {
    // ⌊worst × 10,000 / total⌋ in integers: hundredths of a percent, rounded toward −∞.
    const scaled = BigInt(worst) * 10_000n;
    const total = BigInt(figures.total);
    let floor = scaled / total; // BigInt division truncates toward 0
    if (floor * total > scaled) floor -= 1n;
    expect(shown.hundredthsPct).toBe(Number(floor));
    expect(formatReturnPct(shown.hundredthsPct)).toBe(
      `${worst < 0 && floor !== 0n ? '-' : ''}${(Math.abs(Number(floor)) / 100).toFixed(2)}%`,
    );
  }
}

describe('the page’s money, whatever the prices, total and rounding', () => {
  it('default and rounded splits: payouts are the exact price’s to the cent; the return shown is the worst case', () => {
    fc.assert(
      fc.property(
        fc.array(americanPrice, { minLength: 2, maxLength: 3 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom(0 as const, 1 as const, 5 as const, 10 as const),
        (prices, totalCents, roundTo) => {
          const decimals = paidDecimals(prices.map(feedSide));
          const figures = defaultRowStakes(decimals, totalCents, roundTo);
          expectBooksPayouts(figures, prices);
          expectReturnIsWorstCase(figures);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('typed stakes: the same', () => {
    fc.assert(
      fc.property(
        fc.tuple(americanPrice, americanPrice),
        fc.tuple(fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 2_000_000 })),
        (prices, stakes) => {
          const figures = typedRowStakes(
            stakes.map((cents) => cents as Cents),
            paidDecimals(prices.map(feedSide)),
          );
          expectBooksPayouts(figures, prices);
          expectReturnIsWorstCase(figures);
        },
      ),
      { numRuns: 400 },
    );
  });
});
