// The arbitrage page's filters (issue 14, docs/decisions/117): what they keep, how they read from and write to the URL
// query and storage. Pure functions: the screen memoises their results per feed and filter change.
import { LEAGUES, isLeagueKey } from '#domain/markets.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import {
  DEFAULT_FILTERS,
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

/** The league id of an arb (lower case, as /v1/leagues names them), or null when the feed does not say. */
export function arbLeague(arb: FeedArb): string | null {
  return arb.event.league ? arb.event.league.toLowerCase() : null;
}

export function arbSport(arb: FeedArb): string | null {
  if (arb.event.sport) return arb.event.sport.toLowerCase();
  const league = arbLeague(arb);
  return league && isLeagueKey(league) ? LEAGUES[league].sport : null;
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
      const type = marketType(arb.market);
      if (type === null || !markets.has(type)) return false;
    }
    if (until !== Infinity && !arb.event.live) {
      const start = arb.event.date ? Date.parse(arb.event.date) : Number.NaN;
      if (!(start <= until)) return false;
    }
    return true;
  };
}

export interface LeagueOption {
  id: string;
  name: string;
  sport: string;
}

/** Leagues present in the feed (plus the selected ones, so they can be cleared), grouped by sport, sorted by name. */
export function leagueOptions(arbs: readonly FeedArb[], selected: readonly string[]): LeagueOption[] {
  const found = new Map<string, string>();
  for (const arb of arbs) {
    const league = arbLeague(arb);
    if (league && !found.has(league)) found.set(league, arbSport(arb) ?? 'other');
  }
  for (const league of selected) {
    if (!found.has(league)) found.set(league, isLeagueKey(league) ? LEAGUES[league].sport : 'other');
  }
  return [...found]
    .map(([id, sport]) => ({ id, sport, name: isLeagueKey(id) ? LEAGUES[id].name : id.toUpperCase() }))
    .sort((a, b) => a.sport.localeCompare(b.sport) || a.name.localeCompare(b.name));
}

// URL query: ?min=1.5&leagues=nba,nhl&markets=spread,total&starts=6h&format=decimal. Default values are left out.
export const FILTER_PARAMS = ['min', 'leagues', 'markets', 'starts'] as const;
export const FORMAT_PARAM = 'format';

const LEAGUE_ID = /^[a-z0-9_-]{1,32}$/;
const list = (raw: unknown) =>
  typeof raw === 'string'
    ? raw.split(',').map((part) => part.trim().toLowerCase())
    : Array.isArray(raw)
      ? raw
      : [];

function parseMinEdge(raw: unknown): number | null {
  const value =
    typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : typeof raw === 'number' ? raw : NaN;
  return Number.isFinite(value) && value >= 0 && value <= 100 ? value : null;
}

/** Filters from loose values (URL parameters or stored JSON); anything unreadable falls back to its default. */
export function parseFilters(raw: {
  min?: unknown;
  leagues?: unknown;
  markets?: unknown;
  starts?: unknown;
}): ArbFilters {
  const leagues = [
    ...new Set(list(raw.leagues).filter((id): id is string => typeof id === 'string' && LEAGUE_ID.test(id))),
  ];
  const markets = MARKET_FILTERS.map((m) => m.value).filter((m) => list(raw.markets).includes(m));
  const starts = STARTS_WITHIN.find((value) => value === raw.starts) ?? 'any';
  return { minEdgePct: parseMinEdge(raw.min), leagues, markets, startsWithin: starts };
}

export function filtersFromQuery(params: URLSearchParams): ArbFilters | null {
  if (!FILTER_PARAMS.some((name) => params.has(name))) return null;
  return parseFilters(Object.fromEntries(FILTER_PARAMS.map((name) => [name, params.get(name) ?? undefined])));
}

export function parseOddsFormat(raw: unknown): OddsFormat | null {
  return ODDS_FORMATS.find((format) => format === raw) ?? null;
}

/** Stored filters: an `ArbFilters` as JSON, checked like URL parameters. */
export function parseStoredFilters(raw: string | null): ArbFilters {
  if (!raw) return DEFAULT_FILTERS;
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof ArbFilters, unknown>> | null;
    if (!value || typeof value !== 'object') return DEFAULT_FILTERS;
    const { minEdgePct: min, leagues, markets, startsWithin: starts } = value;
    return parseFilters({ min, leagues, markets, starts });
  } catch {
    return DEFAULT_FILTERS;
  }
}

export function filtersToParams(filters: ArbFilters): Record<(typeof FILTER_PARAMS)[number], string | null> {
  return {
    min: filters.minEdgePct === null ? null : String(filters.minEdgePct),
    leagues: filters.leagues.length > 0 ? filters.leagues.join(',') : null,
    markets: filters.markets.length > 0 ? filters.markets.join(',') : null,
    starts: filters.startsWithin === 'any' ? null : filters.startsWithin,
  };
}

/** The query string with the page's parameters set from the view (others kept), or null when it is already so. */
export function queryForView(search: string, filters: ArbFilters, format: OddsFormat): string | null {
  const params = new URLSearchParams(search);
  const before = params.toString().replace(/%2C/gi, ',');
  const wanted: Record<string, string | null> = {
    ...filtersToParams(filters),
    [FORMAT_PARAM]: format === 'american' ? null : format,
  };
  // Ours are written after any others, always in the same order, so equal views have equal addresses.
  for (const name of Object.keys(wanted)) params.delete(name);
  for (const [name, value] of Object.entries(wanted)) if (value !== null) params.set(name, value);
  // Commas are kept readable in lists ("leagues=nba,nhl"): they need no escaping in a query.
  const after = params.toString().replace(/%2C/gi, ',');
  return after === before ? null : after ? `?${after}` : '';
}
