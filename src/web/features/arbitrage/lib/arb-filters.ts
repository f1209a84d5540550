// The arbitrage page's filters (issue 14, docs/decisions/117): their values, and how they read from and write to the
// URL query and storage. What they keep (the predicate, market types) is arb-predicate.ts, loaded with the bettor
// extras chunk when a filter is set (decision 126). Pure functions.
import type { Arb } from '#domain/schemas/feed.ts';
import {
  ODDS_FORMATS,
  type ArbFilters,
  type MarketFilter,
  type OddsFormat,
  type StartsWithin,
} from './tool-settings.ts';

/** The feed's optional fields of issue 14, read without depending on the schema having them yet. */
export type FeedArb = Arb & { event: { sport?: string; league?: string }; found_at?: number };

export const MARKET_FILTERS: readonly { value: MarketFilter; label: string }[] = [
  { value: 'moneyline', label: 'Moneyline' },
  { value: 'spread', label: 'Spread' },
  { value: 'total', label: 'Total' },
  { value: '1x2', label: '1X2' },
  { value: 'props', label: 'Player props' },
];
export const STARTS_WITHIN: readonly StartsWithin[] = ['any', '1h', '6h', '24h'];

/** The league id of an arb (lower case, as /v1/leagues names them), or null when the feed does not say. */
export function arbLeague(arb: FeedArb): string | null {
  return arb.event.league ? arb.event.league.toLowerCase() : null;
}

export function isDefaultFilters(filters: ArbFilters): boolean {
  return (
    filters.minEdgePct === null &&
    filters.leagues.length === 0 &&
    filters.markets.length === 0 &&
    filters.startsWithin === 'any'
  );
}

// URL query: ?min=1.5&leagues=nba,nhl&markets=spread,total&starts=6h&format=decimal, default values left out. Storage
// keeps the filters in the same form, so one reader serves both.
const FILTER_PARAMS = ['min', 'leagues', 'markets', 'starts', 'format'];
const LEAGUE_ID = /^[a-z0-9_-]{1,32}$/;

/** Filters from query parameters (unreadable values fall back to their default); null when none is named. */
export function filtersFromQuery(params: URLSearchParams): ArbFilters | null {
  if (!FILTER_PARAMS.slice(0, 4).some((name) => params.has(name))) return null;
  const list = (name: string) => (params.get(name) ?? '').toLowerCase().split(',');
  const min = Number(params.get('min') || NaN);
  return {
    minEdgePct: min >= 0 && min <= 100 ? min : null,
    leagues: [...new Set(list('leagues').filter((id) => LEAGUE_ID.test(id)))],
    markets: MARKET_FILTERS.map((m) => m.value).filter((m) => list('markets').includes(m)),
    startsWithin: STARTS_WITHIN.find((value) => value === params.get('starts')) ?? 'any',
  };
}

export function parseOddsFormat(raw: unknown): OddsFormat | null {
  return ODDS_FORMATS.find((format) => format === raw) ?? null;
}

/** The view's query parameters, defaults left out; commas kept readable ("leagues=nba,nhl"). */
export function viewQuery(filters: ArbFilters, format: OddsFormat = 'american'): string {
  const values = [
    filters.minEdgePct ?? '',
    filters.leagues.join(','),
    filters.markets.join(','),
    filters.startsWithin === 'any' ? '' : filters.startsWithin,
    format === 'american' ? '' : format,
  ];
  const params = new URLSearchParams();
  values.forEach((value, i) => value !== '' && params.set(FILTER_PARAMS[i]!, String(value)));
  return params.toString().replace(/%2C/gi, ',');
}

/** The query string with the page's parameters set from the view (others kept first), or null when it is already so. */
export function queryForView(search: string, filters: ArbFilters, format: OddsFormat): string | null {
  const params = new URLSearchParams(search);
  const before = params.toString().replace(/%2C/gi, ',');
  for (const name of FILTER_PARAMS) params.delete(name);
  const after = [params.toString(), viewQuery(filters, format)].filter(Boolean).join('&');
  return after === before ? null : after ? `?${after}` : '';
}
