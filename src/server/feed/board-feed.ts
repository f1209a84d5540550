import type { FastifyInstance } from 'fastify';
import type { StaticEntry } from '../http/static-files.ts';
import { sendEntry } from '../http/send-entry.ts';
import { HttpProblem } from '../http/problem.ts';
import { feedCors } from './arbs-feed.ts';
import { snapshotEntry } from './plugin.ts';

// The public finder pages' feeds (GET /tools/ev.json, GET /tools/middles.json; decisions 163 and 169): a board as it
// was `delayMs` ago (EV_PUBLIC_DELAY_S), rendered once per reading of the board (one per second when delayed) and held
// as bytes with gzip, brotli and an ETag, as the arbitrage feed, whatever the query (`t` is ignored).

/** What `boardFeedRoute` writes before a feed's own fields. */
export interface FeedHead {
  source: string;
  as_of: number;
  delay_seconds: number;
}

export interface BoardFeedOptions<B extends { at: number }> {
  path: string;
  now: () => number;
  origins: readonly string[];
  delayMs: number;
  /** The board at a horizon (undefined: real time). */
  read: (horizon: number | undefined, now: number) => B;
  /** The feed's body for a board, after the head every finder feed has (source, as_of, delay_seconds). */
  render: (board: B) => object;
}

export function boardFeedRoute<B extends { at: number }>(app: FastifyInstance, options: BoardFeedOptions<B>) {
  const cors = feedCors(options.origins);
  let held: { at: number; entry: StaticEntry } | undefined;

  app.get(options.path, async (request, reply) => {
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
    const board = options.read(options.delayMs === 0 ? undefined : now - options.delayMs, now);
    if (!held || held.at !== board.at) {
      const body = {
        source: app.engine.source,
        as_of: Math.floor(board.at / 1000),
        delay_seconds: options.delayMs / 1000,
        ...options.render(board),
      };
      held = { at: board.at, entry: snapshotEntry(Buffer.from(JSON.stringify(body))) };
    }
    const entry = held.entry;
    if (entry.ready) await entry.ready.catch(() => undefined);
    return sendEntry(request, reply, entry, headers);
  });
}
