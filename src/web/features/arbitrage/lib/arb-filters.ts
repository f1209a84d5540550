// The arbitrage page's filters (issue 14, docs/decisions/117): what they keep, how they read from and write to the URL
// query and storage. Pure functions: the screen memoises their results per feed and filter change.
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
const HOUR_MS = 3_600_000;
const WINDOW_MS: Record<StartsWithin, number> = {
  any: Infinity,
  '1h': HOUR_MS,
  '6h': 6 * HOUR_MS,
  '24h': 24 * HOUR_MS,
};

const marketTypes = new Map<string, MarketFilter | null>();

/**
 * The market type of a feed label: "Moneyline", "Spread -3.5 / +3.5", "Total 221.5", "1X2", with or without a period
 * ("1st Half Total 110.5") and in other spellings sources use ("Total Points", "Run Line", "Over/Under", "ML"). Null
 * when unrecognised: such an arb is kept unless a market filter is set. Cached per label (a feed has few).
 */
export function marketType(label: string): MarketFilter | null {
  let type = marketTypes.get(label);
  if (type !== undefined) return type;
  const text = label.toLowerCase();
  if (/\b(1x2|3[- ]?way|match result|full time result)\b/.test(text)) type = '1x2';
  else if (/\b(moneyline|money line|ml|h2h|to win)\b/.test(text)) type = 'moneyline';
  else if (/\b(spreads?|handicap|run line|puck line|point spread)\b/.test(text)) type = 'spread';
  else if (/\b(totals?|over\s*\/\s*under|o\/u)\b/.test(text)) type = 'total';
  else type = null;
  if (marketTypes.size < 1000) marketTypes.set(label, type);
  return type;
}

/**
 * The page's market type of an arb: the feed's `market_type` when it gives one ("prop" is `props`; a type the page
 * does not offer is null, kept unless a market filter is set), else read from the label (older snapshots and the
 * sample data have no `market_type`; decision 126).
 */
export function arbMarketType(arb: FeedArb): MarketFilter | null {
  const type = arb.market_type === 'prop' ? 'props' : arb.market_type;
  if (type === undefined) return marketType(arb.market);
  return MARKET_FILTERS.find((m) => m.value === type)?.value ?? null;
}

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

/**
 * The predicate of the filters, or null when none is set (the SPEC's list, untouched). Rules: an arb whose league,
 * market type or start the feed does not give is kept unless that filter is set; "Starts within" applies to pre-match
 * arbs only (a start already passed counts as within).
 */
export function arbFilter(filters: ArbFilters, now: number): ((arb: FeedArb) => boolean) | null {
  if (isDefaultFilters(filters)) return null;
  const { minEdgePct } = filters;
  const leagues = filters.leagues.length > 0 ? new Set(filters.leagues) : null;
  const markets = filters.markets.length > 0 ? new Set<string>(filters.markets) : null;
  const until = now + WINDOW_MS[filters.startsWithin];
  return (arb) => {
    if (minEdgePct !== null && arb.edge_pct < minEdgePct) return false;
    if (leagues) {
      const league = arbLeague(arb);
      if (league === null || !leagues.has(league)) return false;
    }
    if (markets) {
      const type = arbMarketType(arb);
      if (type === null || !markets.has(type)) return false;
    }
    if (until !== Infinity && !arb.event.live) {
      const start = arb.event.date ? Date.parse(arb.event.date) : Number.NaN;
      if (!(start <= until)) return false;
    }
    return true;
  };
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
