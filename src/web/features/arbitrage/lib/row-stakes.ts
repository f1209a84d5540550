import type { Cents } from '#domain/odds.ts';
import { defaultSplit, payout } from '#domain/wagers.ts';
import { roundedSplit } from './bettor-extras.ts';
import type { RoundTo } from './tool-settings.ts';

// The figures a row shows under its stakes (issue 14, "Total stake" and "Round stakes to"): each side's stake and
// payout, the total staked, the guaranteed (worst-case) profit and the outcomes that would lose money. The default
// split is the domain's cent split, or `splitStakes` when rounded; stakes a visitor typed are priced with the same rounded-down `payout`.

/** An outcome whose payout is below the total staked, and what the bettor is down if it comes in. */
export interface OutcomeLoss {
  index: number;
  cents: Cents;
}

export interface RowStakes {
  stakes: readonly Cents[];
  payouts: readonly Cents[];
  total: Cents;
  /** Smallest payout minus the total staked: negative when some outcome loses. */
  guaranteedProfit: Cents;
  losses: readonly OutcomeLoss[];
}

const NO_LOSSES: readonly OutcomeLoss[] = [];

/** `splitStakes`' step: 0 (SPEC's equal-payout split to the cent), or whole $1, $5 or $10 in cents. */
export function stepCents(roundTo: RoundTo): number {
  return roundTo * 100;
}

function lossesOf(
  payouts: readonly Cents[],
  total: number,
  losing: readonly number[],
): readonly OutcomeLoss[] {
  if (losing.length === 0) return NO_LOSSES;
  return losing.map((index) => ({ index, cents: (total - (payouts[index] ?? 0)) as Cents }));
}

/**
 * The default split of `totalCents` over the sides, rounded to `roundTo` dollars: `splitStakes`' own figures (a rounded
 * total may differ from the one asked for). Decimals are the feed's `decimal_odds` (floored to 4 places), as SPEC's
 * page has always priced payouts: never more than the book pays.
 */
export function defaultRowStakes(
  decimals: readonly number[],
  totalCents: number,
  roundTo: RoundTo,
): RowStakes {
  const total = (Number.isFinite(totalCents) ? Math.max(0, Math.round(totalCents)) : 0) as Cents;
  // The cent split (SPEC) needs only wagers.ts; a rounded one comes from the bettor-extras chunk, which the screen
  // loads before it shows rows with rounding on.
  const split = roundTo === 0 ? null : roundedSplit(decimals, total, stepCents(roundTo));
  if (!split) return typedRowStakes(decimals.length ? defaultSplit(decimals, total) : [], decimals);
  return {
    stakes: split.stakes,
    payouts: split.payouts,
    total: split.total,
    guaranteedProfit: split.guaranteedProfit,
    losses: lossesOf(split.payouts, split.total, split.losesIn),
  };
}

/** Stakes a visitor typed, priced the same way (payouts rounded down to the cent). */
export function typedRowStakes(stakes: readonly Cents[], decimals: readonly number[]): RowStakes {
  const payouts = stakes.map((stake, i) => payout(stake, decimals[i] ?? 1));
  const total = stakes.reduce((a, b) => a + b, 0) as Cents;
  const guaranteedProfit = ((payouts.length ? Math.min(...payouts) : 0) - total) as Cents;
  const losing: number[] = [];
  payouts.forEach((paid, index) => {
    if (paid < total) losing.push(index);
  });
  return { stakes, payouts, total, guaranteedProfit, losses: lossesOf(payouts, total, losing) };
}
