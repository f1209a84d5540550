import { PROB_PLACES, publishedEdge } from './arbitrage.ts';
import { specLabel, specOutcomeLabel, specSelectionName, type LabelPlayer } from './market-labels.ts';
import { LEAGUES, sideId, type BookPrice, type MarketSpec, type OddsEvent } from './markets.ts';
import { formatAmerican, roundTo } from './odds.ts';
import type { Arb, ArbFeed, FeedSource, Side } from './schemas/feed.ts';

// Turns canonical prices into the feed shapes of SPEC §3 (Arb, Side). Numbers carry sensible precision: decimal odds
// 4 places (as stored), implied probability 6, edge 3 (floored, so the published edge never overstates).

export function toSide(event: OddsEvent, spec: MarketSpec, price: BookPrice, player?: LabelPlayer): Side {
  return {
    id: sideId(event.id, spec, price.outcome, price.book),
    sportsbook: price.book,
    name: specOutcomeLabel(event, spec, price.outcome, player),
    price: formatAmerican(price.american),
    selection: { name: specSelectionName(event, spec, price.outcome, player) },
    decimal_odds: price.decimal,
    implied_prob: roundTo(1 / price.decimal, PROB_PLACES),
    links: { desktop: price.links.desktop, mobile: price.links.mobile },
  };
}

export function toArb(
  event: OddsEvent,
  spec: MarketSpec,
  prices: readonly BookPrice[],
  player?: LabelPlayer,
): Arb {
  return {
    event: {
      id: event.id,
      teams: { away: { ...event.away }, home: { ...event.home } },
      live: event.live,
      date: new Date(event.startsAt).toISOString(),
      sport: LEAGUES[event.league].sport,
      league: event.league,
    },
    market: specLabel(spec, player),
    market_type: spec.type,
    sides: prices.map((price) => toSide(event, spec, price, player)),
    edge_pct: publishedEdge(prices.map((price) => price.decimal)),
  };
}

/**
 * Identity of an arb across feeds (SPEC §4): the event id plus the sorted side ids, `ev1:a,b`. The one key of every
 * layer: the engine's order of equal edges (`arbOrderKey`), the stream's diff of consecutive snapshots and its `key`
 * field, the page's new-arb highlights and rows.
 */
export function arbKey(arb: Pick<Arb, 'event' | 'sides'>): string {
  return arbKeyOf(
    arb.event.id,
    arb.sides.map((side) => side.id),
  );
}

/** `arbKey` from the parts, for a reader that has the ids before it has a validated arb. */
export function arbKeyOf(eventId: string, sideIds: readonly string[]): string {
  return `${eventId}:${[...sideIds].sort().join(',')}`;
}

/** The tie-break of equal edges (event, market, then `arbKey`), so that equal edges never shuffle between feeds. */
export function arbOrderKey(arb: Pick<Arb, 'event' | 'market' | 'sides'>): string {
  return `${arb.event.id}|${arb.market}|${arbKey(arb)}`;
}

/** Feed order: edge_pct descending, then `arbOrderKey`. */
export function compareArbs(a: Arb, b: Arb): number {
  if (a.edge_pct !== b.edge_pct) return b.edge_pct - a.edge_pct;
  const ka = arbOrderKey(a);
  const kb = arbOrderKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

export function buildFeed(generatedAtMs: number, arbs: Arb[], source: FeedSource): ArbFeed {
  return { generated_at: Math.floor(generatedAtMs / 1000), source, arbs: [...arbs].sort(compareArbs) };
}
