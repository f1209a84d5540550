// Wager maths of docs/product.md §5 "Wager inputs" and §9 "Wagers", and the domain's one equal-payout stake rule
// (docs/decisions/089). Money is integer cents; the inputs hold the text a visitor typed. Decimal odds are rounded to
// 2 places for the typed-stake formula, as the specification says; the default split and payouts use the side's exact
// decimal odds, because that is what the sportsbook pays. A payout is rounded down to the cent, so no payout or profit
// shown is more than the bets really pay.
import { roundTo, type Cents } from './odds.ts';

/** $200, split between the sides so that payouts are equal. */
export const DEFAULT_TOTAL_CENTS = 20_000 as Cents;

export type WagerInputs = readonly [string, string];

export function stakeOdds(decimal: number): number {
  return roundTo(decimal, 2);
}

/**
 * Equal-payout stakes summing exactly to `total`: sᵢ = T·(1/dᵢ)/Σ(1/d) with the exact decimal odds, each rounded to
 * the cent and the remainder on the last side, so the default split's profit is the edge badge's to within cents (the
 * 2-place rounding of docs/product.md §5 applies to typed stakes).
 */
export function defaultSplit(decimals: readonly number[], total: Cents = DEFAULT_TOTAL_CENTS): Cents[] {
  const weights = decimals.map((d) => 1 / d);
  const sum = weights.reduce((a, b) => a + b, 0);
  const stakes = weights.map((w) => Math.round((total * w) / sum));
  const assigned = stakes.slice(0, -1).reduce((a, b) => a + b, 0);
  if (stakes.length > 0) stakes[stakes.length - 1] = total - assigned;
  return stakes as Cents[];
}

/** other = this wager × this side's decimal odds ÷ the other side's decimal odds (both rounded to 2 places). */
export function otherStake(thisStake: Cents, thisDecimal: number, otherDecimal: number): Cents {
  return Math.round((thisStake * stakeOdds(thisDecimal)) / stakeOdds(otherDecimal)) as Cents;
}

/**
 * Binary floating point can put stake × decimal a hair under a whole cent it equals (1000 × 1.017 = 1016.999…): a
 * millionth of a cent keeps that cent. It is above the product's error for any payout under $40M and below any
 * fraction of a cent that odds of 4 decimal places (the feed's) can pay, so such a payout is never rounded up.
 */
const PAYOUT_GUARD = 1e-6;

/** What `stake` pays at `decimal` odds, rounded down to the cent: never more than the sportsbook pays. */
export function payout(stake: Cents, decimal: number): Cents {
  return Math.floor(stake * decimal + PAYOUT_GUARD) as Cents;
}

/** Stakes on an arb's outcomes with what they pay (docs/product.md §5 rules: payouts floored to the cent). */
export interface StakeSplit {
  /** One stake per outcome, in the outcomes' order. */
  stakes: Cents[];
  /** What each stake pays, rounded down to the cent. */
  payouts: Cents[];
  /** The sum of the stakes (a rounded split may differ from the requested total). */
  total: Cents;
  /** Smallest payout minus the total: what the bettor wins whichever outcome comes in (negative: loses). */
  guaranteedProfit: Cents;
  /** Indexes of the outcomes whose payout is below the total staked: the bettor loses money if one of them wins. */
  losesIn: number[];
}

/** What these stakes pay at these decimal odds: payouts, total, guaranteed (worst-case) profit, losing outcomes. */
export function priceStakes(stakes: readonly Cents[], decimals: readonly number[]): StakeSplit {
  const payouts = stakes.map((stake, i) => payout(stake, decimals[i] ?? 1));
  const total = stakes.reduce((a, b) => a + b, 0) as Cents;
  const losesIn: number[] = [];
  payouts.forEach((paid, i) => {
    if (paid < total) losesIn.push(i);
  });
  const worst = payouts.length ? Math.min(...payouts) : 0;
  return { stakes: [...stakes], payouts, total, guaranteedProfit: (worst - total) as Cents, losesIn };
}

/** Text of a wager input → cents; null when empty, not a number or negative. */
export function parseStake(text: string): Cents | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || value < 0) return null;
  return Math.round(value * 100) as Cents;
}

/** Cents → input text with two decimals ("87.50"). */
export function centsToInput(cents: Cents): string {
  return (cents / 100).toFixed(2);
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Cents → "$1,234.56" / "-$1.20". */
export function formatUsd(cents: Cents): string {
  return usd.format(cents / 100);
}

/**
 * A visitor typed `text` into side `index`: the other side follows so payouts stay equal; a zero sets the other to
 * 0.00; while the value is empty or not a number the other side keeps its value (blur resets it).
 */
export function changeWager(
  inputs: WagerInputs,
  index: 0 | 1,
  text: string,
  decimals: readonly [number, number],
): WagerInputs {
  const other = index === 0 ? 1 : 0;
  const stake = parseStake(text);
  let otherText = inputs[other];
  if (stake === 0) otherText = '0.00';
  else if (stake !== null) otherText = centsToInput(otherStake(stake, decimals[index], decimals[other]));
  return index === 0 ? [text, otherText] : [otherText, text];
}

/**
 * Whether leaving a wager input holding `text` resets both sides to the default split (docs/product.md §5): an empty,
 * zero or unreadable value does.
 */
export function resetsOnBlur(text: string): boolean {
  const stake = parseStake(text);
  return stake === null || stake === 0;
}

/** Stakes the inputs stand for (unreadable → 0), for payouts and profit. */
export function inputsToStakes(inputs: readonly string[]): Cents[] {
  return inputs.map((text) => parseStake(text) ?? (0 as Cents));
}
