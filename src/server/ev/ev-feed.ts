import type { FastifyInstance } from 'fastify';
import { EV_METHOD, EV_MIN_BOOKS, EV_REFERENCE } from '#domain/ev.ts';
import { evFeedRow } from '#domain/finder-rows.ts';
import { EV_FEED_MAX_ROWS, type EvFeed } from '#domain/schemas/ev-feed.ts';
import { boardFeedRoute, type FeedHead } from '../feed/board-feed.ts';
import type { EvRow } from './board.ts';
import { evPriceDto } from '#domain/ev-dto.ts';

// GET /tools/ev.json: the public positive-EV page's feed (docs/product.md §7). Delayed by EV_PUBLIC_DELAY_S, by
// default the cheapest plan's delay (Starter, 2 minutes: the free page never shows sooner what a plan sells), and
// coarse (the best EV_FEED_MAX_ROWS prices, EV to one decimal, fair probabilities to three places), served by
// feed/board-feed.ts as the middles page's feed.

export function toFeedRow(row: EvRow): EvFeed['prices'][number] {
  return evFeedRow(evPriceDto(row), row.evPct);
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
