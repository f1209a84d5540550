import type { FastifyInstance } from 'fastify';
import { MIDDLE_MIN_BOOKS } from '#domain/middles.ts';
import { middleFeedRow } from '#domain/finder-rows.ts';
import { MIDDLES_FEED_MAX_ROWS, type MiddleFeedRow, type MiddlesFeed } from '#domain/schemas/middles-feed.ts';
import { boardFeedRoute, type FeedHead } from '../feed/board-feed.ts';
import type { MiddleRow } from './board.ts';
import { middleDto } from '#domain/middle-dto.ts';

// GET /tools/middles.json: the public middles page's feed (docs/product.md §7, decision 169). Delayed as the
// positive-EV page's (EV_PUBLIC_DELAY_S, by default the cheapest plan's 2 minutes) and coarse: the best
// MIDDLES_FEED_MAX_ROWS middles by EV, chances to three places, EV and the worst case to one decimal (rounded down).
// The page computes the stakes and what each landing pays for the visitor's total from the two prices.

export function toMiddleFeedRow(row: MiddleRow): MiddleFeedRow {
  return middleFeedRow(middleDto(row), row.evPct);
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
