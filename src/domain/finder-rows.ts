import { floorTo } from './arbitrage.ts';
import { feedLeg } from './feed-leg.ts';
import { isPeriod, type MarketType, type OutcomeKey, type Period } from './markets.ts';
import { isPropStatKey, propMarketLabel, type PropMarketSpec } from './props.ts';
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
    ...legOf(dto.market.type, dto.market.period, dto.market.point, dto.outcome.outcome, () =>
      propOfKey(dto.market.key, dto.market.label),
    ),
  };
}

/**
 * A prop's stat, player and period from its market key (`event|prop|stat|period|player|point`, markets.ts) and the
 * player's name from its label ("LeBron James Points Over/Under 27.5"): what a /v1/ev price says of its prop.
 */
function propOfKey(key: string, label: string): { spec: PropMarketSpec; player: { name: string } } | null {
  const parts = key.split('|');
  if (parts.length < 6 || parts.at(-5) !== 'prop') return null;
  const [stat, period, player, point] = parts.slice(-4) as [string, string, string, string];
  if (!isPropStatKey(stat) || !isPeriod(period)) return null;
  let playerId: string;
  try {
    playerId = decodeURIComponent(player);
  } catch {
    return null;
  }
  const spec: PropMarketSpec = {
    type: 'prop',
    stat,
    period,
    playerId,
    point: point === '' ? null : Number(point),
  };
  const suffix = propMarketLabel({ name: '' }, spec);
  const name = label.endsWith(suffix) ? label.slice(0, -suffix.length) : playerId;
  return { spec, player: { name } };
}

/** A row's `leg`: what the bet tracker grades (a prop's from `prop`, none when it cannot be read). */
function legOf(
  type: MarketType,
  period: Period,
  point: number | null,
  outcome: OutcomeKey,
  prop: () => { spec: PropMarketSpec; player: { name: string } } | null,
): { leg?: FeedLeg } {
  if (type !== 'prop') return { leg: feedLeg({ type, period, point }, outcome) };
  const found = prop();
  return found ? { leg: feedLeg({ ...found.spec, point }, outcome, found.player) } : {};
}

const middleSide = (dto: MiddleDto['high'], market: MiddleDto['market']): MiddleFeedRow['high'] => ({
  book: dto.book,
  name: dto.outcome.name,
  line: dto.line,
  american: dto.price.american,
  decimal: dto.price.decimal,
  links: dto.price.links,
  ...legOf(market.type, market.period, dto.point, dto.outcome.outcome, () =>
    market.stat !== undefined && market.player !== undefined
      ? {
          spec: {
            type: 'prop',
            stat: market.stat,
            period: market.period,
            playerId: market.player.id,
            point: dto.point,
          },
          player: market.player,
        }
      : null,
  ),
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
