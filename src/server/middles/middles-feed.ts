import type { FastifyInstance } from 'fastify';
import { floorTo } from '#domain/arbitrage.ts';
import { MIDDLE_MIN_BOOKS } from '#domain/middles.ts';
import { roundTo } from '#domain/odds.ts';
import type { MiddleDto } from '#domain/schemas/api/middles.ts';
import { MIDDLES_FEED_MAX_ROWS, type MiddleFeedRow, type MiddlesFeed } from '#domain/schemas/middles-feed.ts';
import { boardFeedRoute, feedEvent, type FeedHead } from '../feed/board-feed.ts';
import type { MiddleRow } from './board.ts';

// GET /tools/middles.json: the public middles page's feed (docs/product.md §7, decision 169). Delayed as the
// positive-EV page's (EV_PUBLIC_DELAY_S, by default the cheapest plan's 2 minutes) and coarse: the best
// MIDDLES_FEED_MAX_ROWS middles by EV, chances to three places, EV and the worst case to one decimal (rounded down).
// The page computes the stakes and what each landing pays for the visitor's total from the two prices.

const side = (dto: MiddleDto['high']): MiddleFeedRow['high'] => ({
  book: dto.book,
  name: dto.outcome.name,
  line: dto.line,
  american: dto.price.american,
  decimal: dto.price.decimal,
  links: dto.price.links,
});

export function toMiddleFeedRow(row: MiddleRow): MiddleFeedRow {
  const dto = row.dto;
  return {
    id: dto.id,
    event: feedEvent(dto.event),
    market_type: dto.market.type,
    market_label: dto.market.label,
    high: side(dto.high),
    low: side(dto.low),
    gap: dto.gap,
    probability: roundTo(dto.probability.middle, 3),
    push_high: roundTo(dto.probability.push_high, 3),
    push_low: roundTo(dto.probability.push_low, 3),
    ev_pct: floorTo(row.evPct, 1) + 0,
    worst_case_pct: floorTo(dto.worst_case_pct, 1) + 0,
    model: dto.model,
  };
}

export async function middlesFeedRoutes(
  app: FastifyInstance,
  options: { now: () => number; origins: readonly string[]; delayMs: number },
) {
  boardFeedRoute(app, {
    ...options,
    path: '/tools/middles.json',
    read: (horizon, now) => app.middlesBoard.read(horizon, now),
    render: (board): Omit<MiddlesFeed, keyof FeedHead> => ({
      min_books: MIDDLE_MIN_BOOKS,
      total: board.rows.length,
      middles: board.rows.slice(0, MIDDLES_FEED_MAX_ROWS).map(toMiddleFeedRow),
    }),
  });
}
