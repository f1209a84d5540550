import { PROB_PLACES, publishedEdge } from '#domain/arbitrage.ts';
import { arbOrderKey } from '#domain/arb-feed.ts';
import { feedLeg } from '#domain/feed-leg.ts';
import { specLabel, specOutcomeLabel, specSelectionName, type LabelPlayer } from '#domain/market-labels.ts';
import { arbEventOf, sideId, type BookPrice, type MarketSpec, type OddsEvent } from '#domain/markets.ts';
import { formatAmerican, roundTo } from '#domain/odds.ts';
import type { Arb, ArbFeed, FeedSource, Side } from '#domain/schemas/feed.ts';

// Feed shapes of docs/product.md §3 (Arb, Side) built from canonical prices with nothing cached: the reference the engine's
// `buildArb` (src/engine/scanner.ts, which caches the parts that depend only on the event and market) is checked
// against, and the feed's order. Numbers carry the feed's precision: decimal odds 4 places (as stored), implied
// probability 6, edge 3 (floored, so the published edge never overstates).

export function toSide(event: OddsEvent, spec: MarketSpec, price: BookPrice, player?: LabelPlayer): Side {
  const leg = feedLeg(spec, price.outcome, player);
  return {
    id: sideId(event.id, spec, price.outcome, price.book),
    sportsbook: price.book,
    name: specOutcomeLabel(event, spec, price.outcome, player),
    price: formatAmerican(price.american),
    selection: { name: specSelectionName(event, spec, price.outcome, player) },
    decimal_odds: price.decimal,
    implied_prob: roundTo(1 / price.decimal, PROB_PLACES),
    links: { desktop: price.links.desktop, mobile: price.links.mobile },
    leg,
  };
}

export function toArb(
  event: OddsEvent,
  spec: MarketSpec,
  prices: readonly BookPrice[],
  player?: LabelPlayer,
): Arb {
  return {
    event: arbEventOf(event),
    market: specLabel(spec, player),
    market_type: spec.type,
    sides: prices.map((price) => toSide(event, spec, price, player)),
    edge_pct: publishedEdge(prices.map((price) => price.decimal)),
  };
}

/** Feed order: edge_pct descending, then `arbOrderKey` (the engine's `rankResults` ranks the same way). */
export function compareArbs(a: Arb, b: Arb): number {
  if (a.edge_pct !== b.edge_pct) return b.edge_pct - a.edge_pct;
  const ka = arbOrderKey(a);
  const kb = arbOrderKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

export function buildFeed(generatedAtMs: number, arbs: Arb[], source: FeedSource): ArbFeed {
  return { generated_at: Math.floor(generatedAtMs / 1000), source, arbs: [...arbs].sort(compareArbs) };
}
