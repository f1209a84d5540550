import type { FastifyInstance } from 'fastify';
import { floorTo } from '#domain/arbitrage.ts';
import { EV_METHOD, EV_MIN_BOOKS, EV_REFERENCE } from '#domain/ev.ts';
import { roundTo } from '#domain/odds.ts';
import { EV_FEED_MAX_ROWS, type EvFeed } from '#domain/schemas/ev-feed.ts';
import type { StaticEntry } from '../http/static-files.ts';
import { sendEntry } from '../http/send-entry.ts';
import { HttpProblem } from '../http/problem.ts';
import { feedCors } from '../feed/arbs-feed.ts';
import { snapshotEntry } from '../feed/plugin.ts';
import type { EvRow } from './board.ts';

// GET /tools/ev.json: the public positive-EV page's feed (docs/product.md §7). Delayed by EV_PUBLIC_DELAY_S, by
// default the cheapest plan's delay (Starter, 2 minutes: the free page never shows sooner what a plan sells), and
// coarse (the best
// EV_FEED_MAX_ROWS prices, EV to one decimal, fair probabilities to three places). One body per second of the board,
// held as bytes with gzip, brotli and an ETag (as the arbitrage feed), whatever the query: `t` is ignored.

export function toFeedRow(row: EvRow): EvFeed['prices'][number] {
  const dto = row.dto;
  return {
    id: dto.id,
    event: {
      id: dto.event.id,
      league: dto.event.league,
      sport: dto.event.sport,
      home: dto.event.home.name,
      away: dto.event.away.name,
      starts_at: dto.event.starts_at,
      live: dto.event.live,
    },
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
  const cors = feedCors(options.origins);
  let held: { at: number; entry: StaticEntry } | undefined;

  app.get('/tools/ev.json', async (request, reply) => {
    const headers: Record<string, string> = {
      'cache-control': 'no-cache',
      ...cors.headers(request.headers.origin),
    };
    if (!app.engine.latest) {
      throw new HttpProblem(
        503,
        'feed-not-ready',
        'Feed not ready',
        'The odds engine has not published yet.',
        {},
        { ...headers, 'retry-after': '1', 'cache-control': 'no-store' },
      );
    }
    const now = options.now();
    const board = app.evBoard.read(options.delayMs === 0 ? undefined : now - options.delayMs, now);
    if (!held || held.at !== board.at) {
      const feed: EvFeed = {
        source: app.engine.source,
        as_of: Math.floor(board.at / 1000),
        delay_seconds: options.delayMs / 1000,
        method: EV_METHOD,
        reference: EV_REFERENCE,
        min_books: EV_MIN_BOOKS,
        total: board.rows.length,
        prices: board.rows.slice(0, EV_FEED_MAX_ROWS).map(toFeedRow),
      };
      held = { at: board.at, entry: snapshotEntry(Buffer.from(JSON.stringify(feed))) };
    }
    const entry = held.entry;
    if (entry.ready) await entry.ready.catch(() => undefined);
    return sendEntry(request, reply, entry, headers);
  });
}
