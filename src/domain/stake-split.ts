import { type Cents } from './odds.ts';
import { defaultSplit, payout, priceStakes, type StakeSplit } from './wagers.ts';

// Rounded stakes (issue 14, decision 115): the split of a total over an arb's outcomes in whole multiples of a step,
// chosen to keep the guaranteed (worst-case) profit as high as possible. Its own module so that the arbitrage page
// loads it only when a bettor rounds stakes (the cent split of docs/product.md needs only wagers.ts).

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
 * Decimals are the sides' odds as paid: `exactDecimal` of src/domain/exact-odds.ts when the page has the American
 * text. `losesIn` names the outcomes that pay less than the total staked.
 */
export function splitStakes(decimals: readonly number[], totalCents: number, stepCents: number): StakeSplit {
  if (!Number.isInteger(stepCents) || stepCents < 0)
    throw new RangeError(`step must be whole cents ≥ 0, got ${stepCents}`);
  const total = Number.isFinite(totalCents) ? Math.max(0, Math.round(totalCents)) : 0;
  if (decimals.length === 0) return priceStakes([], decimals);
  if (stepCents === 0) return priceStakes(defaultSplit(decimals, total as Cents), decimals);
  const below = Math.floor(total / stepCents) * stepCents;
  const totals = below === total ? [total] : below === 0 ? [below + stepCents] : [below, below + stepCents];
  let best: StakeSplit | null = null;
  for (const candidate of totals) {
    const split = priceStakes(bestSplitOfTotal(decimals, candidate, stepCents), decimals);
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
