// Wager maths of SPEC §5 "Wager inputs" and §9 "Wagers", and the domain's one equal-payout stake rule
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
 * 2-place rounding of SPEC §5 applies to typed stakes).
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

/** Smallest payout minus the total staked: what the visitor wins whichever side comes in (the worst case). */
export function guaranteedProfit(stakes: readonly Cents[], decimals: readonly number[]): Cents {
  const payouts = stakes.map((stake, i) => payout(stake, decimals[i] ?? 1));
  const staked = stakes.reduce((a, b) => a + b, 0);
  return ((payouts.length ? Math.min(...payouts) : 0) - staked) as Cents;
}

/** A split of a total between the outcomes of an arb, with what it pays (SPEC §5 rules: payouts floored to the cent). */
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

function describeSplit(stakes: readonly Cents[], decimals: readonly number[]): StakeSplit {
  const payouts = stakes.map((stake, i) => payout(stake, decimals[i] ?? 1));
  const total = stakes.reduce((a, b) => a + b, 0) as Cents;
  const losesIn: number[] = [];
  payouts.forEach((paid, i) => {
    if (paid < total) losesIn.push(i);
  });
  const worst = payouts.length ? Math.min(...payouts) : 0;
  return { stakes: [...stakes], payouts, total, guaranteedProfit: (worst - total) as Cents, losesIn };
}

/** The smallest whole number of steps whose stake pays at least `target` cents at `decimal` odds (floored payout). */
function stepsToPay(target: number, decimal: number, step: number): number {
  if (target <= 0) return 0;
  let k = Math.max(0, Math.ceil(target / (decimal * step)) - 1);
  while (k > 0 && payout((k * step) as Cents, decimal) >= target) k -= 1;
  while (payout((k * step) as Cents, decimal) < target) k += 1;
  return k;
}

/**
 * The split of exactly `total` cents (a multiple of `step`) into multiples of `step` with the highest smallest payout,
 * hence the highest guaranteed profit among all such splits (not only those near the equal-payout split).
 *
 * Why it is the optimum: a smallest payout of at least P is reachable iff Σ mᵢ(P) ≤ total, where mᵢ(P) is the
 * smallest stake on the step grid paying at least P on outcome i (stakes beyond mᵢ only raise payouts). That test is
 * monotone in P, so a binary search finds the largest P; the steps left over go one at a time to the outcome whose
 * stake is furthest below its equal-payout stake total·(1/dᵢ)/Σ(1/d) (first index on ties), keeping the split close to
 * the equal-payout one without lowering any payout.
 */
function bestSplitOfTotal(decimals: readonly number[], total: number, step: number): Cents[] {
  const steps = total / step;
  const feasible = (target: number) => {
    let used = 0;
    for (const decimal of decimals) {
      used += stepsToPay(target, decimal, step);
      if (used > steps) return false;
    }
    return true;
  };
  let lo = 0; // always reachable (all stakes zero)
  let hi = Math.floor(total * Math.max(...decimals)) + 1; // more than any stake of the total pays
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (feasible(mid)) lo = mid;
    else hi = mid;
  }
  const counts = decimals.map((decimal) => stepsToPay(lo, decimal, step));
  const weights = decimals.map((d) => 1 / d);
  const sum = weights.reduce((a, b) => a + b, 0);
  const ideal = weights.map((w) => (steps * w) / sum);
  for (let left = steps - counts.reduce((a, b) => a + b, 0); left > 0; left -= 1) {
    let pick = 0;
    for (let i = 1; i < counts.length; i += 1) {
      if (ideal[i]! - counts[i]! > ideal[pick]! - counts[pick]!) pick = i;
    }
    counts[pick]! += 1;
  }
  return counts.map((count) => (count * step) as Cents);
}

/**
 * The bettor's total split between the outcomes (2 or 3; any count works), docs/decisions/115.
 *
 * - `stepCents` 0: `defaultSplit` (equal payouts, to the cent, summing exactly to the total), with its payouts.
 * - `stepCents` > 0: stakes are whole multiples of the step. The total staked is the requested total rounded to the
 *   step: the multiple below or the one above (only the total itself when it is a multiple; never 0 for a positive
 *   total). For each, the split with the highest guaranteed profit (`bestSplitOfTotal`); between the two, the higher
 *   guaranteed profit wins, then the total closer to the requested one, then the lower total. The total is not free:
 *   a larger total earns more on a positive edge, so maximising profit over every total would only stake more.
 *
 * Decimals are the sides' odds as paid: `exactDecimal` of src/domain/odds-format.ts when the page has the American
 * text. `losesIn` names the outcomes that pay less than the total staked.
 */
export function splitStakes(decimals: readonly number[], totalCents: number, stepCents: number): StakeSplit {
  if (!Number.isInteger(stepCents) || stepCents < 0)
    throw new RangeError(`step must be whole cents ≥ 0, got ${stepCents}`);
  const total = Number.isFinite(totalCents) ? Math.max(0, Math.round(totalCents)) : 0;
  if (decimals.length === 0) return describeSplit([], decimals);
  if (stepCents === 0) return describeSplit(defaultSplit(decimals, total as Cents), decimals);
  const below = Math.floor(total / stepCents) * stepCents;
  const totals = below === total ? [total] : below === 0 ? [below + stepCents] : [below, below + stepCents];
  let best: StakeSplit | null = null;
  for (const candidate of totals) {
    const split = describeSplit(bestSplitOfTotal(decimals, candidate, stepCents), decimals);
    if (
      best === null ||
      split.guaranteedProfit > best.guaranteedProfit ||
      (split.guaranteedProfit === best.guaranteedProfit &&
        Math.abs(split.total - total) < Math.abs(best.total - total))
    ) {
      best = split;
    }
  }
  return best!;
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

export function defaultInputs(decimals: readonly [number, number]): WagerInputs {
  const [a, b] = defaultSplit(decimals);
  return [centsToInput(a ?? (0 as Cents)), centsToInput(b ?? (0 as Cents))];
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

/** Leaving a wager input: an empty or zero (or unreadable) value resets both sides to the default split. */
export function blurWager(
  inputs: WagerInputs,
  index: 0 | 1,
  decimals: readonly [number, number],
): WagerInputs {
  const stake = parseStake(inputs[index]);
  return stake === null || stake === 0 ? defaultInputs(decimals) : inputs;
}

/** Stakes the inputs stand for (unreadable → 0), for payouts and profit. */
export function inputsToStakes(inputs: readonly string[]): Cents[] {
  return inputs.map((text) => parseStake(text) ?? (0 as Cents));
}
