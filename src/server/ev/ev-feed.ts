import type { FastifyInstance } from 'fastify';
import { floorTo } from '#domain/arbitrage.ts';
import { EV_METHOD, EV_MIN_BOOKS, EV_REFERENCE } from '#domain/ev.ts';
import { roundTo } from '#domain/odds.ts';
import { EV_FEED_MAX_ROWS, type EvFeed } from '#domain/schemas/ev-feed.ts';
import { boardFeedRoute, feedEvent, type FeedHead } from '../feed/board-feed.ts';
import type { EvRow } from './board.ts';

// GET /tools/ev.json: the public positive-EV page's feed (docs/product.md §7). Delayed by EV_PUBLIC_DELAY_S, by
// default the cheapest plan's delay (Starter, 2 minutes: the free page never shows sooner what a plan sells), and
// coarse (the best EV_FEED_MAX_ROWS prices, EV to one decimal, fair probabilities to three places), served by
// feed/board-feed.ts as the middles page's feed.

export function toFeedRow(row: EvRow): EvFeed['prices'][number] {
  const dto = row.dto;
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
    ev_pct: floorTo(row.evPct, 1) + 0,
    links: dto.price.links,
  };
}

export async function evFeedRoutes(
  app: FastifyInstance,
  options: { now: () => number; origins: readonly string[]; delayMs: number },
) {
  boardFeedRoute(app, {
    ...options,
    path: '/tools/ev.json',
    read: (horizon, now) => app.evBoard.read(horizon, now),
    render: (board): Omit<EvFeed, keyof FeedHead> => ({
      method: EV_METHOD,
      reference: EV_REFERENCE,
      min_books: EV_MIN_BOOKS,
      total: board.rows.length,
      prices: board.rows.slice(0, EV_FEED_MAX_ROWS).map(toFeedRow),
    }),
  });
}
