import { canonicalDecimal } from './arbitrage.ts';
import { americanToDecimal, parseAmerican, type AmericanOdds } from './odds.ts';

// The price a sportsbook really pays for a side the feed carries (docs/decisions/115, 160): the feed's `decimal_odds`
// is the exact price floored to 4 places, so a payout from it can be up to a cent per $100 staked short of the book's
// (−140 is 1.714285…, the feed says 1.7142: $1,500 pays $15 × 0.0000857… = 13¢ less). Its own small module because
// the arbitrage page's first load needs it (every payout), while the odds formats of odds-format.ts load on demand.

/** A side's price as the feed carries it: `decimal` is `decimal_odds` (4 places, floored), `american` is `price`. */
export interface PricedSide {
  decimal: number;
  american: string;
}

/** The side's integer American price, when its text is one and it is the price its decimal was derived from. */
export function integerAmerican(side: PricedSide): AmericanOdds | null {
  const american = parseAmerican(side.american);
  if (american === null || !Number.isInteger(american)) return null;
  // The feed's decimal is the exact one floored to 4 places. A decimal that is not (a source that sent both, or an
  // American text rounded from a decimal) is the price: the American text must not make it look better.
  return canonicalDecimal(americanToDecimal(american)) === side.decimal ? american : null;
}

/**
 * The side's decimal odds at full precision: 1 + A/100 or 1 + 100/|A| when the American text is an integer price and
 * the feed's decimal is that price floored to 4 places (−110 → 1.909090…, where the feed says 1.909); otherwise the
 * feed's decimal as is. Payouts computed from it are the sportsbook's to the cent.
 */
export function exactDecimal(side: PricedSide): number {
  const american = integerAmerican(side);
  return american === null ? side.decimal : americanToDecimal(american);
}
