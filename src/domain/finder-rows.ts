import { floorTo } from './arbitrage.ts';
import { feedLeg } from './feed-leg.ts';
import type { MarketType, OutcomeKey, Period } from './markets.ts';
import { roundTo } from './odds.ts';
import type { EvPriceDto } from './schemas/api/ev.ts';
import type { MiddleDto } from './schemas/api/middles.ts';
import type { EventDto } from './schemas/api/odds.ts';
import type { EvFeedRow } from './schemas/ev-feed.ts';
import type { FeedLeg } from './schemas/feed.ts';
import type { FeedEvent } from './schemas/finder-feed.ts';
import type { MiddleFeedRow } from './schemas/middles-feed.ts';

// A row of the paid API's GET /v1/ev or GET /v1/middles as the finder pages' feeds carry it (decisions 163, 169): the
// public feeds are made from the board's rows by these, and the pages read a pasted key's answer through them
// (decision 224), so that both views are drawn by the same rows.

/** An answer's event as the finder feeds carry it: team names only. */
export function feedEvent(event: EventDto): FeedEvent {
  return {
    id: event.id,
    league: event.league,
    sport: event.sport,
    home: event.home.name,
    away: event.away.name,
    starts_at: event.starts_at,
    live: event.live,
  };
}

/** A /v1/ev price as a feed row; `evPct` its EV (the feed keeps one decimal, rounded down). */
export function evFeedRow(dto: EvPriceDto, evPct: number = dto.ev_pct): EvFeedRow {
  return {
    id: dto.id,
    event: feedEvent(dto.event),
    market_type: dto.market.type,
    market: dto.market.label,
    outcome: dto.outcome.name,
    book: dto.book,
    american: dto.price.american,
    decimal: dto.price.decimal,
    fair_prob: roundTo(dto.fair.probability, 3),
    fair_american: dto.fair.american,
    books: dto.fair.books,
    ev_pct: floorTo(evPct, 1) + 0,
    links: dto.price.links,
    ...legOf(dto.market.type, dto.market.period, dto.market.point, dto.outcome.outcome),
  };
}

/** A row's `leg` (game lines only): what the bet tracker grades. */
function legOf(
  type: MarketType,
  period: Period,
  point: number | null,
  outcome: OutcomeKey,
): { leg?: FeedLeg } {
  return type === 'prop' ? {} : { leg: feedLeg({ type, period, point }, outcome)! };
}

const middleSide = (dto: MiddleDto['high'], market: MiddleDto['market']): MiddleFeedRow['high'] => ({
  book: dto.book,
  name: dto.outcome.name,
  line: dto.line,
  american: dto.price.american,
  decimal: dto.price.decimal,
  links: dto.price.links,
  ...legOf(market.type, market.period, dto.point, dto.outcome.outcome),
});

/** A /v1/middles pair as a feed row; `evPct` its EV (the feed keeps one decimal, rounded down). */
export function middleFeedRow(dto: MiddleDto, evPct: number = dto.ev_pct): MiddleFeedRow {
  return {
    id: dto.id,
    event: feedEvent(dto.event),
    market_type: dto.market.type,
    market_label: dto.market.label,
    high: middleSide(dto.high, dto.market),
    low: middleSide(dto.low, dto.market),
    gap: dto.gap,
    probability: roundTo(dto.probability.middle, 3),
    push_high: roundTo(dto.probability.push_high, 3),
    push_low: roundTo(dto.probability.push_low, 3),
    ev_pct: floorTo(evPct, 1) + 0,
    worst_case_pct: floorTo(dto.worst_case_pct, 1) + 0,
    model: dto.model,
  };
}
