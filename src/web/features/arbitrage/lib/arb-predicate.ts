// What the arbitrage page's filters keep (issue 14, docs/decisions/117 and 126). Loaded on use, in the bettor extras
// chunk (bettor-extras-chunk.ts), only when a filter is set: with none, the page needs none of it. Pure functions: the
// screen memoises their results per feed and filter change.
import { arbLeague, isDefaultFilters, MARKET_FILTERS, type FeedArb } from './arb-filters.ts';
import type { ArbFilters, MarketFilter, StartsWithin } from './tool-settings.ts';

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

/**
 * The predicate of the filters, or null when none is set (docs/product.md's list, untouched). Rules: an arb whose league,
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
