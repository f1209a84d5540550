import { DEFAULT_KELLY_FRACTION, kellyStakeCents } from '#domain/ev.ts';
import type { EvFeed, EvFeedRow } from '#domain/schemas/ev-feed.ts';

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

const number = (raw: string | null, min: number, max: number): number | null => {
  if (raw === null || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) && value >= min && value <= max ? value : null;
};

const token = (raw: string | null): string | null => (raw && /^[a-z0-9_-]{1,40}$/.test(raw) ? raw : null);

/** The view from the URL's query (unknown or out-of-range values fall back to the defaults). */
export function readView(params: URLSearchParams): EvView {
  const kelly = number(params.get('kelly'), 0, 1);
  return {
    league: token(params.get('league')),
    market: token(params.get('market')),
    book: token(params.get('book')),
    minEv: number(params.get('min_ev'), 0, 100) ?? 0,
    bankrollDollars: number(params.get('bankroll'), 0, MAX_BANKROLL_DOLLARS) ?? DEFAULT_BANKROLL_DOLLARS,
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

export function formatDollars(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

/**
 * What the page says when no row is left. A delayed feed with no price at all is most often a server that started
 * less than its delay ago (the view shows the board as it was then): say so, rather than only "nothing matches".
 */
export function emptyRowsText(feed: Pick<EvFeed, 'total' | 'delay_seconds'>): string {
  const none = 'No price with positive EV matches these filters and sportsbooks right now.';
  if (feed.total > 0 || feed.delay_seconds <= 0) return none;
  const minutes = feed.delay_seconds / 60;
  const delay = Number.isInteger(minutes)
    ? `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`
    : `${feed.delay_seconds} seconds`;
  return `No price with positive EV in this view yet. It shows the market as it was ${delay} ago: on a server that has just started, prices appear once it has run for ${delay}.`;
}
