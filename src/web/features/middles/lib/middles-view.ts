import { exactDecimal } from '#domain/exact-odds.ts';
import type { Cents } from '#domain/odds.ts';
import type { OddsFormat } from '#domain/odds-format.ts';
import type { MiddleFeedRow, MiddlesFeed } from '#domain/schemas/middles-feed.ts';
import { defaultSplit, priceStakes } from '#domain/wagers.ts';
import { emptyFeedText, numberParam, oneOf, signedDollars, tokenParam } from '#web/lib/finder-view.ts';

// The middles page's view (docs/product.md §2, decision 169): the filters it keeps in the URL, the rows they leave,
// and each row's stakes and outcomes for the visitor's total stake, recomputed in the browser from the row's two
// prices with the arbitrage page's equal-payout split (src/domain/wagers.ts). Pure functions, tested on their own.

export const MIDDLE_MARKETS = ['spread', 'total', 'prop'] as const;
export type MiddleMarket = (typeof MIDDLE_MARKETS)[number];
export const ODDS_FORMATS: readonly OddsFormat[] = ['american', 'decimal', 'fractional', 'probability'];

/** The arbitrage page's default total ($200). */
export const DEFAULT_TOTAL_DOLLARS = 200;
export const MAX_TOTAL_DOLLARS = 1_000_000;

export interface MiddlesView {
  league: string | null;
  market: MiddleMarket | null;
  /** Pairs with this book on either side. */
  book: string | null;
  /** Minimum chance of the middle, in percent (0: every middle). */
  minProbabilityPct: number;
  /** Minimum EV in percent (null: every middle, most are negative). */
  minEv: number | null;
  totalDollars: number;
  /** The odds format the URL names (null: the visitor's stored choice). */
  format: OddsFormat | null;
}

/** The view from the URL's query (unknown or out-of-range values fall back to the defaults). */
export function readView(params: URLSearchParams): MiddlesView {
  return {
    league: tokenParam(params.get('league')),
    market: oneOf(params.get('market'), MIDDLE_MARKETS),
    book: tokenParam(params.get('book')),
    minProbabilityPct: numberParam(params.get('min_prob'), 0, 100) ?? 0,
    minEv: numberParam(params.get('min_ev'), -100, 100),
    totalDollars: numberParam(params.get('stake'), 0, MAX_TOTAL_DOLLARS) ?? DEFAULT_TOTAL_DOLLARS,
    format: oneOf(params.get('format'), ODDS_FORMATS),
  };
}

/** The query of a view: only what differs from the defaults, so the plain page has a plain URL. */
export function writeView(view: MiddlesView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.league) params.set('league', view.league);
  if (view.market) params.set('market', view.market);
  if (view.book) params.set('book', view.book);
  if (view.minProbabilityPct > 0) params.set('min_prob', String(view.minProbabilityPct));
  if (view.minEv !== null) params.set('min_ev', String(view.minEv));
  if (view.totalDollars !== DEFAULT_TOTAL_DOLLARS) params.set('stake', String(view.totalDollars));
  if (view.format) params.set('format', view.format);
  return params;
}

/** The rows the view leaves whose two books are both the visitor's, in the feed's order (best EV first). */
export function visibleRows(
  rows: readonly MiddleFeedRow[],
  view: MiddlesView,
  books: ReadonlySet<string>,
): MiddleFeedRow[] {
  return rows.filter(
    (row) =>
      books.has(row.high.book) &&
      books.has(row.low.book) &&
      (view.league === null || row.event.league === view.league) &&
      (view.market === null || row.market_type === view.market) &&
      (view.book === null || row.high.book === view.book || row.low.book === view.book) &&
      row.probability * 100 >= view.minProbabilityPct - 1e-9 &&
      (view.minEv === null || row.ev_pct >= view.minEv),
  );
}

/** What a row's stakes do for a total, in cents. */
export interface MiddleFigures {
  /** [high side, low side]: the equal-payout split of the total, summing to it. */
  stakes: readonly [Cents, Cents];
  /** What each side pays if it wins, rounded down to the cent. */
  payouts: readonly [Cents, Cents];
  total: Cents;
  /** Both sides win (the final value lands in the gap): both payouts minus the total. */
  ifMiddle: Cents;
  /** Exactly one side wins, the other loses: the smaller payout minus the total. The worst case, a loss unless the pair is also an arb. */
  ifMiss: Cents;
}

/**
 * The row's stakes for `totalCents` and what each landing pays, from its two prices: the split the arbitrage page
 * uses (equal payouts at each side's exact price, decision 160), payouts rounded down to the cent. A push (a
 * whole-number line landed on) returns that side's stake with the other's payout: between a miss and a middle.
 */
export function middleFigures(row: Pick<MiddleFeedRow, 'high' | 'low'>, totalCents: number): MiddleFigures {
  const total = (Number.isFinite(totalCents) ? Math.max(0, Math.round(totalCents)) : 0) as Cents;
  const decimals = [exactDecimal(row.high), exactDecimal(row.low)];
  const split = priceStakes(defaultSplit(decimals, total), decimals);
  const [high, low] = split.stakes as [Cents, Cents];
  const [paidHigh, paidLow] = split.payouts as [Cents, Cents];
  return {
    stakes: [high, low],
    payouts: [paidHigh, paidLow],
    total,
    ifMiddle: (paidHigh + paidLow - total) as Cents,
    ifMiss: split.guaranteedProfit,
  };
}

/**
 * "Kansas City Chiefs win by 3", "Buffalo Bills win by 1 to 2", "a total of 45 to 47", "LeBron James Points: 25 to 26":
 * where both sides win.
 */
export function gapText(row: Pick<MiddleFeedRow, 'market_type' | 'market_label' | 'gap' | 'event'>): string {
  const { from, to } = row.gap;
  const range = (a: number, b: number) => (a === b ? `${a}` : `${a} to ${b}`);
  if (row.market_type === 'prop') return `${row.market_label}: ${range(from, to)}`;
  if (row.market_type === 'total') return `a total of ${range(from, to)}`;
  if (from > 0) return `${row.event.home} win by ${range(from, to)}`;
  if (to < 0) return `${row.event.away} win by ${range(-to, -from)}`;
  return `a margin of ${range(from, to)} (home − away)`;
}

/** What the page says when no row is left (src/web/lib/finder-view.ts). */
export function emptyRowsText(feed: Pick<MiddlesFeed, 'total' | 'delay_seconds'>): string {
  return emptyFeedText(
    feed,
    'No middle matches these filters and sportsbooks right now.',
    'No middle in this view yet.',
    'middles',
  );
}

/** "+$12.34", "−$4.56", "$0.00": a signed amount of money (shared with the bet tracker). */
export { signedDollars };
