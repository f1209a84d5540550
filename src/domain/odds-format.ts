import { floorTo } from './arbitrage.ts';
import { exactDecimal, integerAmerican, type PricedSide } from './exact-odds.ts';
import { americanDisplay } from './odds.ts';

export { exactDecimal, type PricedSide } from './exact-odds.ts';

// The odds formats a bettor can read prices in (issue 14, docs/decisions/115). Every conversion rounds so that the
// price shown is never better than the one the feed carries: decimal odds and fractions are rounded down, implied
// probability up (a higher probability is a worse price). Stakes and payouts do not depend on the format.

/** How a price is written. The same union as the arbitrage page's settings (src/web imports nothing into domain). */
export type OddsFormat = 'american' | 'decimal' | 'fractional' | 'probability';

/** A fraction p/q in lowest terms (the UK "p/q": win p for every q staked). */
export interface Fraction {
  numerator: number;
  denominator: number;
}

function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

function reduced(numerator: number, denominator: number): Fraction {
  const divisor = gcd(numerator, denominator) || 1;
  return { numerator: numerator / divisor, denominator: denominator / divisor };
}

/** Largest denominator of an approximated fraction (prices without an integer American text). */
export const MAX_APPROX_DENOMINATOR = 100;

/**
 * The best fraction p/q ≤ x with q ≤ `maxDenominator` (the largest such value; the smallest q among equal values).
 * Below 1/maxDenominator it is the largest unit fraction 1/n ≤ x, so a long odds-on price is still a fraction.
 */
export function fractionAtMost(x: number, maxDenominator = MAX_APPROX_DENOMINATOR): Fraction {
  let best: Fraction = { numerator: 0, denominator: 1 };
  for (let q = 1; q <= maxDenominator; q += 1) {
    // The guard keeps an exact value (0.909 × 1000) from flooring one step down through binary representation error.
    const p = Math.floor(x * q + 1e-9);
    if (p * best.denominator > best.numerator * q) best = { numerator: p, denominator: q };
  }
  if (best.numerator === 0 && x > 0) return { numerator: 1, denominator: Math.ceil(1 / x - 1e-9) };
  return reduced(best.numerator, best.denominator);
}

/**
 * The side's fractional odds (winnings per stake): exact from an integer American price (+A → A/100, −A → 100/A, in
 * lowest terms: +150 → 3/2, −110 → 10/11, +100 → 1/1), else `fractionAtMost(decimal − 1)`.
 */
export function toFraction(side: PricedSide): Fraction {
  const american = integerAmerican(side);
  if (american !== null) return american > 0 ? reduced(american, 100) : reduced(100, -american);
  return fractionAtMost(side.decimal - 1);
}

/**
 * A price in the bettor's format:
 * - american: the feed's text in `americanDisplay`'s spelling ("+150", "-110"; even money "+100", never "-100");
 * - decimal: 2 places rounded down ("2.50"; −110 is 1.9090… → "1.90": never more than the book pays);
 * - fractional: `toFraction` as "p/q" ("3/2", "10/11"; even money is "1/1", not "evens");
 * - probability: 1 / exact decimal as a percentage, one decimal, rounded up ("40.0%", −110 → "52.4%").
 */
export function formatOdds(side: PricedSide, format: OddsFormat): string {
  switch (format) {
    case 'american':
      return americanDisplay(side.american);
    case 'decimal':
      return floorTo(exactDecimal(side), 2).toFixed(2);
    case 'fractional': {
      const { numerator, denominator } = toFraction(side);
      return `${numerator}/${denominator}`;
    }
    case 'probability': {
      const tenths = Math.ceil(1000 / exactDecimal(side) - 1e-9) / 10;
      return `${tenths.toFixed(1)}%`;
    }
  }
}
