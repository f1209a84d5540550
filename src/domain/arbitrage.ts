import type { DecimalOdds } from './odds.ts';

// Arbitrage maths of docs/product.md §10. For outcomes that together cover every result, with decimal odds
// dᵢ: S = Σ 1/dᵢ, edge_pct = (1/S − 1) × 100. Stakes for equal payouts, sᵢ = T·(1/dᵢ)/S, in whole cents: wagers.ts.

/** Default near-arb floor (docs/product.md §10): combinations down to −1.0 % are published so the UI can colour them. */
export const DEFAULT_FLOOR_PCT = -1;

/** Decimal odds are kept to 4 places, always rounded down so no derived figure overstates a payout. */
export const DECIMAL_PLACES = 4;
/** edge_pct is published to 3 places, rounded down (toward −∞): a published edge never exceeds the true one. */
export const EDGE_PLACES = 3;
/** implied_prob is published to 6 places. */
export const PROB_PLACES = 6;

export function floorTo(value: number, places: number): number {
  const factor = 10 ** places;
  // The 1e-9 guard keeps exact values (2.5 × 10⁴) from flooring one step down through binary representation error.
  return Math.floor(value * factor + 1e-9) / factor;
}

const DECIMAL_FACTOR = 10 ** DECIMAL_PLACES;

/**
 * Decimal odds as the engine stores them: floored to DECIMAL_PLACES. Exactly `floorTo(decimal, DECIMAL_PLACES)`, with
 * the factor computed once: this runs for every price the engine takes in (issue 37).
 */
export function canonicalDecimal(decimal: number): DecimalOdds {
  return (Math.floor(decimal * DECIMAL_FACTOR + 1e-9) / DECIMAL_FACTOR) as DecimalOdds;
}

/** S = Σ 1/dᵢ, the book sum of a covering set of outcomes. */
export function bookSum(decimals: readonly number[]): number {
  let sum = 0;
  for (const decimal of decimals) sum += 1 / decimal;
  return sum;
}

/** edge_pct = (1/S − 1) × 100: the guaranteed return on the total stake (negative for near-arbs). */
export function edgePct(decimals: readonly number[]): number {
  return (1 / bookSum(decimals) - 1) * 100;
}

/** The edge as the feed publishes it (floored to EDGE_PLACES; −0 normalised to 0). */
export function publishedEdge(decimals: readonly number[]): number {
  return floorTo(edgePct(decimals), EDGE_PLACES) + 0;
}

/** How the combinations of a market's best prices are chosen (the engine's scan options extend these). */
export interface CombinationOptions {
  /**
   * The near-arb floor, applied to the book sum: a covering combination is published when S < 1 − floorPct/100 (for
   * the default −1 %: S < 1.01, i.e. edge > −0.990 %), so a market whose S ≥ 1 − floorPct/100 never yields an entry.
   */
  floorPct: number;
  /** How many entries one market may publish (one per distinct set of books, best first). */
  maxPerMarket: number;
  /** How many best prices per outcome are combined (bounds the work to topPerOutcome^ways). */
  topPerOutcome: number;
}

export const DEFAULT_COMBINATION_OPTIONS: CombinationOptions = {
  floorPct: DEFAULT_FLOOR_PCT,
  maxPerMarket: 3,
  topPerOutcome: 6,
};
