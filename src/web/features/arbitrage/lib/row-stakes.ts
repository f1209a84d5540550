import { exactDecimal } from '#domain/exact-odds.ts';
import type { Cents } from '#domain/odds.ts';
import type { Side } from '#domain/schemas/feed.ts';
import { defaultSplit, priceStakes, type StakeSplit } from '#domain/wagers.ts';
import { roundedSplit } from './bettor-extras.ts';
import type { RoundTo } from './tool-settings.ts';

// The figures a row shows under its stakes (issue 14, "Total stake" and "Round stakes to"): each side's stake and
// payout, the total staked, the guaranteed (worst-case) profit and the outcomes that would lose money. The default
// split is the domain's cent split, or `splitStakes` when rounded; either, and stakes a visitor typed, are priced by the
// domain's `priceStakes` (payouts rounded down to the cent), at the price the book pays (`paidDecimals`).

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

/** `splitStakes`' step: 0 (docs/product.md's equal-payout split to the cent), or whole $1, $5 or $10 in cents. */
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
 * The decimal odds stakes are split and paid at: each side's exact price (`exactDecimal`: −140 is 12/7 = 1.714285…,
 * not the feed's 4-place 1.7142, which paid up to 15¢ less than the book on a large stake and could pick a rounded
 * split 3¢ worse than the best; docs/decisions/160). A side whose decimal is not its American text's is paid at
 * the decimal, never more.
 */
export function paidDecimals(sides: readonly Pick<Side, 'price' | 'decimal_odds'>[]): number[] {
  return sides.map((side) => exactDecimal({ decimal: side.decimal_odds, american: side.price }));
}

/**
 * The default split of `totalCents` over the sides, rounded to `roundTo` dollars: `splitStakes`' own figures (a rounded
 * total may differ from the one asked for). Decimals are `paidDecimals`: payouts are the book's, floored to the cent.
 */
export function defaultRowStakes(
  decimals: readonly number[],
  totalCents: number,
  roundTo: RoundTo,
): RowStakes {
  const total = (Number.isFinite(totalCents) ? Math.max(0, Math.round(totalCents)) : 0) as Cents;
  // The cent split (docs/product.md) needs only wagers.ts; a rounded one comes from the bettor-extras chunk, which the screen
  // loads before it shows rows with rounding on.
  const split = roundTo === 0 ? null : roundedSplit(decimals, total, stepCents(roundTo));
  if (!split) return typedRowStakes(decimals.length ? defaultSplit(decimals, total) : [], decimals);
  return rowStakesOf(split);
}

/** Stakes a visitor typed, priced the same way (payouts rounded down to the cent). */
export function typedRowStakes(stakes: readonly Cents[], decimals: readonly number[]): RowStakes {
  return rowStakesOf(priceStakes(stakes, decimals));
}

function rowStakesOf(split: StakeSplit): RowStakes {
  return {
    stakes: split.stakes,
    payouts: split.payouts,
    total: split.total,
    guaranteedProfit: split.guaranteedProfit,
    losses: lossesOf(split.payouts, split.total, split.losesIn),
  };
}

/**
 * What the shown stakes are guaranteed to return, whichever outcome wins (docs/decisions/160): the smallest payout
 * minus the total staked, in cents and as a percentage of the total, in hundredths of a percent rounded down (toward
 * −∞), so a split that loses a cent never reads 0.00 %. The edge badge is the equal-payout split's return; a rounded
 * or typed split can return less, or lose.
 */
export interface SplitReturn {
  cents: Cents;
  /** Hundredths of a percent: ⌊profit × 10,000 / total⌋ (0 when nothing is staked). */
  hundredthsPct: number;
}

export function splitReturn(figures: Pick<RowStakes, 'guaranteedProfit' | 'total'>): SplitReturn {
  const { guaranteedProfit, total } = figures;
  if (!(total > 0)) return { cents: guaranteedProfit, hundredthsPct: 0 };
  // Integer floor division of whole cents: the products are exact integers, so the correction steps fix any rounding
  // of the float quotient onto a whole number it does not reach.
  const scaled = guaranteedProfit * 10_000;
  let hundredthsPct = Math.floor(scaled / total);
  if (hundredthsPct * total > scaled) hundredthsPct -= 1;
  else if ((hundredthsPct + 1) * total <= scaled) hundredthsPct += 1;
  return { cents: guaranteedProfit, hundredthsPct: hundredthsPct === 0 ? 0 : hundredthsPct };
}

/** "1.94%", "-0.60%", "0.00%": a `SplitReturn`'s percentage as the row shows it. */
export function formatReturnPct(hundredthsPct: number): string {
  const sign = hundredthsPct < 0 ? '-' : '';
  const magnitude = Math.abs(hundredthsPct);
  return `${sign}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}%`;
}
