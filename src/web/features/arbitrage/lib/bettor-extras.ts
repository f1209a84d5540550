import { americanDisplay, type Cents } from '#domain/odds.ts';
import type { Side } from '#domain/schemas/feed.ts';
import type { StakeSplit } from '#domain/wagers.ts';
import { isDefaultFilters, type FeedArb } from './arb-filters.ts';
import type * as Chunk from './bettor-extras-chunk.ts';
import type { ArbFilters, OddsFormat, RoundTo } from './tool-settings.ts';

type Extras = typeof Chunk;

// The bettor's settings that need code docs/product.md's page does not: prices in decimal, fractional or probability
// (src/domain/odds-format.ts), stakes rounded to whole dollars (src/domain/stake-split.ts) and the toolbar's filters
// (arb-predicate.ts: what they keep, market types). They come in one chunk (bettor-extras-chunk.ts) loaded when a
// bettor picks one, or when the saved settings or the URL name one; the screen shows no row until it is there, so
// nothing is ever shown in a format, a split or a filter not asked for. American prices, the cent split and no filter
// need nothing from it: the page's first load stays within its JavaScript budget.

let extras: Extras | null = null;
let loading: Promise<void> | null = null;

export function loadBettorExtras(): Promise<void> {
  loading ??= import('./bettor-extras-chunk.ts').then((module) => {
    extras = module;
  });
  return loading;
}

/** Whether rows can be drawn with these settings now. */
export function bettorExtrasReady(oddsFormat: OddsFormat, roundTo: RoundTo, filters: ArbFilters): boolean {
  return (oddsFormat === 'american' && roundTo === 0 && isDefaultFilters(filters)) || extras !== null;
}

/** The filters' predicate (arb-predicate.ts), or null when none is set or before the chunk is loaded (not ready). */
export function arbFilter(filters: ArbFilters, now: number): ((arb: FeedArb) => boolean) | null {
  return extras ? extras.arbFilter(filters, now) : null;
}

export function priceText(side: Pick<Side, 'price' | 'decimal_odds'>, oddsFormat: OddsFormat): string {
  if (oddsFormat === 'american' || !extras) return americanDisplay(side.price);
  return extras.formatOdds({ decimal: side.decimal_odds, american: side.price }, oddsFormat);
}

/** The rounded split of `totalCents` (whole multiples of `stepCents`); null until the chunk is loaded. */
export function roundedSplit(
  decimals: readonly number[],
  totalCents: Cents,
  stepCents: number,
): StakeSplit | null {
  return extras ? extras.splitStakes(decimals, totalCents, stepCents) : null;
}
