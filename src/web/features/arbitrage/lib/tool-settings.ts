// The arbitrage page's bettor settings of issue 14, shared by the toolbar (which edits and persists them) and the
// rows (which render with them). Types and defaults only: persistence lives in the hooks, the maths in src/domain.

/** How every price on the page is written; stakes and payouts do not change with it. */
export type OddsFormat = 'american' | 'decimal' | 'fractional' | 'probability';
export const ODDS_FORMATS: readonly OddsFormat[] = ['american', 'decimal', 'fractional', 'probability'];

/** Market types a bettor can filter on (the feed's markets; `props`: player props, the feed's `market_type` "prop"). */
export type MarketFilter = 'moneyline' | 'spread' | 'total' | '1x2' | 'props';

/** Pre-match start window: any, or within 1, 6 or 24 hours. */
export type StartsWithin = 'any' | '1h' | '6h' | '24h';

/** Stakes rounded to whole multiples of this many dollars (0: to the cent, docs/product.md's behaviour). */
export type RoundTo = 0 | 1 | 5 | 10;

export interface ArbFilters {
  /** Percent; null: no minimum (docs/product.md's behaviour: every published arb is listed). */
  minEdgePct: number | null;
  /** League ids as /v1/leagues names them; empty: every league. */
  leagues: readonly string[];
  /** Empty: every market type. */
  markets: readonly MarketFilter[];
  startsWithin: StartsWithin;
}

export const DEFAULT_FILTERS: ArbFilters = {
  minEdgePct: null,
  leagues: [],
  markets: [],
  startsWithin: 'any',
};

/** What each row needs to render (the toolbar's state, read-only for rows). */
export interface RowSettings {
  oddsFormat: OddsFormat;
  /** The bettor's total stake in cents (default 20,000: docs/product.md's $200). */
  totalCents: number;
  roundTo: RoundTo;
  /** Unix ms "now", for the arb's age ("found 45 s ago"); advanced by the page's clock. */
  now: number;
}

export const DEFAULT_ROW_SETTINGS: Omit<RowSettings, 'now'> = {
  oddsFormat: 'american',
  totalCents: 20_000,
  roundTo: 0,
};
