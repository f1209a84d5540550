import type { FastifyInstance } from 'fastify';
import { HttpProblem } from '../http/problem.ts';
import { sendEntry } from '../http/send-entry.ts';
import { whenCompressed } from '../http/static-files.ts';
import { FEED_PATH, installFeedFastPath } from './feed-fast-path.ts';

// GET /tools/arbs.json (docs/product.md §7 call 2): the latest snapshot's bytes as the engine published them. `t` (and any other
// query parameter) is ignored: the body depends on nothing but the snapshot, so caches revalidate with the ETag.
// Most requests are answered by the fast path (feed-fast-path.ts, decision 136) with what this route answered for the
// same case; the route answers the first of each case, HEAD, and everything the fast path leaves alone.

export interface ArbsFeedOptions {
  /** Origins allowed to read the feed cross-origin (the site's origin plus CORS_ORIGINS; "*" allows any). */
  origins: readonly string[];
  /** Answer repeat requests before Fastify (default true; false: every request goes through the route). */
  fastPath?: boolean;
}

/** The CORS rule of the feed: the headers it adds for a request's `Origin`, and a key naming that case. */
export function feedCors(origins: readonly string[]) {
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  return {
    headers(origin: string | undefined): Record<string, string> {
      if (anyOrigin) return { 'access-control-allow-origin': '*' };
      if (origin && allowed.has(origin)) return { vary: 'Origin', 'access-control-allow-origin': origin };
      return { vary: 'Origin' };
    },
    /** Requests with the same case get the same CORS headers. */
    originCase(origin: string | undefined): string {
      if (anyOrigin) return '*';
      return origin && allowed.has(origin) ? `=${origin}` : '-';
    },
  };
}

export async function arbsFeedRoutes(app: FastifyInstance, options: ArbsFeedOptions) {
  const cors = feedCors(options.origins);

  app.get(FEED_PATH, async (request, reply) => {
    const headers: Record<string, string> = {
      'cache-control': 'no-cache',
      ...cors.headers(request.headers.origin),
    };
    const snapshot = app.engine.latest;
    if (!snapshot) {
      throw new HttpProblem(
        503,
        'feed-not-ready',
        'Feed not ready',
        'The odds engine has not published yet.',
        {},
        {
          ...headers,
          'retry-after': '1',
          'cache-control': 'no-store',
        },
      );
    }
    const entry = snapshot.encoded;
    // The form this request will be sent may still be being made, or not started (whenCompressed): the encoding is
    // chosen once it is done.
    const compressed = whenCompressed(entry, request.headers['accept-encoding']);
    if (compressed) await compressed.catch(() => undefined);
    return sendEntry(request, reply, entry, headers);
  });

  if (options.fastPath !== false) {
    installFeedFastPath(app, { originCase: cors.originCase });
  }
}
