import type { FastifyInstance } from 'fastify';
import { minuteSeries, type Tick } from '#domain/history.ts';
import {
  HISTORY_TEASER_INTERVAL_S,
  HISTORY_TEASER_MAX_POINTS,
  type HistoryTeaser,
} from '#domain/schemas/history-teaser.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { HttpProblem } from '../http/problem.ts';
import { TtlCache } from '../lib/ttl-cache.ts';

// GET /tools/history.json?event=<id>&sides=<side id>,…: the arbitrage page's teaser of what the API sells. Public,
// coarse and cached: each side's price at every minute boundary of the last hour (null while it could not be taken),
// built from the same ticks the paid API serves. One answer per (event, sides) is kept for 30 s, and a client may
// ask at most TEASER_PER_MINUTE times a minute, so the public route cannot become a cheap way to load the database.

const STEP_MS = HISTORY_TEASER_INTERVAL_S * 1000;
const SPAN_MS = (HISTORY_TEASER_MAX_POINTS - 1) * STEP_MS;
const CACHE_MS = 30_000;
const TEASER_PER_MINUTE = 120;
const ID = /^[\x21-\x7e]{1,200}$/;

function badRequest(detail: string): HttpProblem {
  return new HttpProblem(400, 'bad-request', 'Bad request', detail);
}

export interface HistoryTeaserOptions {
  now?: (() => number) | undefined;
}

export async function historyTeaserRoutes(app: FastifyInstance, options: HistoryTeaserOptions) {
  const now = options.now ?? Date.now;
  const cache = new TtlCache<string, HistoryTeaser | null>(5_000);

  app.get('/tools/history.json', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const event = typeof query.event === 'string' ? query.event : '';
    const sides = typeof query.sides === 'string' ? query.sides.split(',') : [];
    if (!ID.test(event)) throw badRequest('`event` must be the feed’s event id.');
    if (sides.length < 1 || sides.length > 3 || !sides.every((side) => ID.test(side))) {
      throw badRequest('`sides` must be one to three of the arb’s side ids, separated by commas.');
    }
    const limit = await app.rateLimiter.hit(
      `teaser:ip:${clientAddressKey(request.ip)}`,
      TEASER_PER_MINUTE,
      60_000,
    );
    if (!limit.allowed) {
      throw new HttpProblem(
        429,
        'rate-limited',
        'Too many requests',
        'Try again in a minute.',
        {},
        {
          'retry-after': String(Math.max(1, Math.ceil(limit.retryAfterMs / 1000))),
        },
      );
    }
    const key = `${event}\n${[...sides].sort().join(',')}`;
    const clock = now();
    let answer = cache.get(key, clock);
    if (answer === undefined) {
      answer = await teaser(app, event, sides, clock);
      cache.set(key, answer, clock + CACHE_MS);
    }
    if (answer === null) {
      throw new HttpProblem(404, 'event-not-found', 'Event not found', 'The history has no such event.');
    }
    void reply.header('cache-control', `public, max-age=${CACHE_MS / 1000}`);
    return answer;
  });
}

async function teaser(
  app: FastifyInstance,
  eventId: string,
  sideIds: readonly string[],
  now: number,
): Promise<HistoryTeaser | null> {
  const event = await app.history.event(eventId);
  if (!event) return null;
  const to = Math.floor(now / STEP_MS) * STEP_MS;
  const from = to - SPAN_MS;
  const series = await app.history.series(eventId, { sideIds });
  const ids = series.map((row) => row.id);
  const [before, ticks] = await Promise.all([
    app.history.lastTicks(ids, from - 1),
    app.history.ticks(ids, { from, to, limit: 20_000 }),
  ]);
  const byId = new Map<number, Tick[]>(ids.map((id) => [id, []]));
  for (const [id, tick] of before) byId.get(id)!.push(tick);
  for (const tick of ticks) byId.get(tick.seriesId)!.push(tick);
  // The order asked for, so the page can match sides to its own.
  const order = new Map(sideIds.map((id, index) => [id, index]));
  return {
    event: eventId,
    from: from / 1000,
    to: to / 1000,
    interval_s: HISTORY_TEASER_INTERVAL_S,
    sides: series
      .sort((a, b) => order.get(a.sideId)! - order.get(b.sideId)!)
      .map((row) => ({
        id: row.sideId,
        book: row.book,
        outcome: row.outcome,
        points: minuteSeries(byId.get(row.id)!, from, to, STEP_MS).map(
          ([at, american, decimal]) =>
            [at / 1000, american, decimal] as [number, number | null, number | null],
        ),
      })),
  };
}
