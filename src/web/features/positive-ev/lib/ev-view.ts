import { DEFAULT_KELLY_FRACTION, kellyStakeCents } from '#domain/ev.ts';
import type { EvFeed, EvFeedRow } from '#domain/schemas/ev-feed.ts';
import { emptyFeedText, numberParam, tokenParam } from '#web/lib/finder-view.ts';

// The positive-EV page's view (docs/product.md §2): the filters it keeps in the URL, the rows they leave, and each
// row's Kelly stake for the visitor's bankroll. Pure functions, tested on their own.

export const KELLY_FRACTIONS = [
  { value: 0.125, label: '⅛ Kelly' },
  { value: 0.25, label: '¼ Kelly' },
  { value: 0.5, label: '½ Kelly' },
  { value: 1, label: 'Full Kelly' },
] as const;

export const DEFAULT_BANKROLL_DOLLARS = 1000;
export const MAX_BANKROLL_DOLLARS = 10_000_000;

export interface EvView {
  league: string | null;
  market: string | null;
  book: string | null;
  /** Minimum EV in percent (0: every positive price). */
  minEv: number;
  bankrollDollars: number;
  kelly: number;
}

/** The view from the URL's query (unknown or out-of-range values fall back to the defaults). */
export function readView(params: URLSearchParams): EvView {
  const kelly = numberParam(params.get('kelly'), 0, 1);
  return {
    league: tokenParam(params.get('league')),
    market: tokenParam(params.get('market')),
    book: tokenParam(params.get('book')),
    minEv: numberParam(params.get('min_ev'), 0, 100) ?? 0,
    bankrollDollars: numberParam(params.get('bankroll'), 0, MAX_BANKROLL_DOLLARS) ?? DEFAULT_BANKROLL_DOLLARS,
    kelly: KELLY_FRACTIONS.find((fraction) => fraction.value === kelly)?.value ?? DEFAULT_KELLY_FRACTION,
  };
}

/** The query of a view: only what differs from the defaults, so the plain page has a plain URL. */
export function writeView(view: EvView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.league) params.set('league', view.league);
  if (view.market) params.set('market', view.market);
  if (view.book) params.set('book', view.book);
  if (view.minEv > 0) params.set('min_ev', String(view.minEv));
  if (view.bankrollDollars !== DEFAULT_BANKROLL_DOLLARS) params.set('bankroll', String(view.bankrollDollars));
  if (view.kelly !== DEFAULT_KELLY_FRACTION) params.set('kelly', String(view.kelly));
  return params;
}

/** The rows the view and the visitor's books leave, in the feed's order (best EV first). */
export function visibleRows(
  rows: readonly EvFeedRow[],
  view: EvView,
  books: ReadonlySet<string>,
): EvFeedRow[] {
  return rows.filter(
    (row) =>
      books.has(row.book) &&
      (view.league === null || row.event.league === view.league) &&
      (view.market === null || row.market_type === view.market) &&
      (view.book === null || row.book === view.book) &&
      row.ev_pct >= view.minEv,
  );
}

/** The Kelly stake of a row in cents for the view's bankroll and fraction (0 when the price has no edge left). */
export function rowStakeCents(row: EvFeedRow, view: EvView): number {
  const bankrollCents = Math.round(view.bankrollDollars * 100);
  return kellyStakeCents(bankrollCents, row.decimal, row.fair_prob, view.kelly);
}

/** What the page says when no row is left (src/web/lib/finder-view.ts). */
export function emptyRowsText(feed: Pick<EvFeed, 'total' | 'delay_seconds'>): string {
  return emptyFeedText(
    feed,
    'No price with positive EV matches these filters and sportsbooks right now.',
    'No price with positive EV in this view yet.',
    'prices',
  );
}
