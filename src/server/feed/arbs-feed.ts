import type { FastifyInstance } from 'fastify';
import { HttpProblem } from '../http/problem.ts';
import { sendEntry } from '../http/send-entry.ts';

// GET /tools/arbs.json (SPEC §7 call 2): the latest snapshot's bytes as the engine published them. `t` (and any other
// query parameter) is ignored: the body depends on nothing but the snapshot, so caches revalidate with the ETag.

export interface ArbsFeedOptions {
  /** Origins allowed to read the feed cross-origin (the site's origin plus CORS_ORIGINS; "*" allows any). */
  origins: readonly string[];
}

export async function arbsFeedRoutes(app: FastifyInstance, options: ArbsFeedOptions) {
  const anyOrigin = options.origins.includes('*');
  const allowed = new Set(options.origins);

  app.get('/tools/arbs.json', async (request, reply) => {
    const origin = request.headers.origin;
    const headers: Record<string, string> = { 'cache-control': 'no-cache' };
    if (anyOrigin) headers['access-control-allow-origin'] = '*';
    else {
      headers.vary = 'Origin';
      if (origin && allowed.has(origin)) headers['access-control-allow-origin'] = origin;
    }
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
    return sendEntry(request, reply, snapshot.encoded, headers);
  });
}
