import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BookKeySchema, LeagueKeySchema, PeriodSchema, ProblemSchema } from '#domain/schemas/api/common.ts';
import { STREAM_EXAMPLE } from '#domain/schemas/api/examples.ts';
import { HttpProblem } from '../../http/problem.ts';
import { API_FEATURES } from '#domain/plans.ts';
import { requireFeature, STREAM_QUERY_PARAM, WINDOW_MS } from '../auth.ts';
import { lineWindow } from '../quota.ts';
import { API_TAG, COMMON_ERRORS, csv } from '../routes/common.ts';
import { marketsParam, playerParam, statParam } from '../routes/odds.ts';
import { playerFilter } from '../views.ts';
import { DEFAULT_STREAM_OPTIONS, StreamHub, type StreamOptions } from './stream-hub.ts';

export type { StreamOptions } from './stream-hub.ts';

declare module 'fastify' {
  interface FastifyInstance {
    streamHub: StreamHub;
  }
}

const StreamQuery = z.object({
  [STREAM_QUERY_PARAM]: z
    .string()
    .max(100)
    .optional()
    .describe(
      'Your key, for EventSource (which cannot send headers). Prefer the X-Api-Key header elsewhere.',
    ),
  league: LeagueKeySchema.optional(),
  event: z.string().min(1).max(200).optional(),
  markets: marketsParam().describe(
    'Changes on these market types only (`props` or `prop`: player props), e.g. `moneyline,props`: prices, arbs, positive-EV prices and middles alike.',
  ),
  period: PeriodSchema.optional().describe(
    'Changes on markets of this period only (`full`, `h1`, …, as /v1/odds), every event type alike.',
  ),
  player: playerParam().describe(
    "Changes on one player's props only, by id or name (as in /v1/odds), every event type alike; game lines are left out.",
  ),
  stat: statParam().describe(
    'Changes on props of these stats only, every event type alike; game lines are left out.',
  ),
  books: csv(BookKeySchema)
    .optional()
    .describe(
      'Prices and positive-EV prices at these books; arbs and middles whose every side is at one of them.',
    ),
  types: csv(z.enum(['price', 'arb', 'ev', 'middle', 'score']))
    .optional()
    .describe(
      'Which changes to send (default `price,arb`). `ev` adds positive-EV prices (`ev`, `ev_removed`), `middle` middles (`middle`, `middle_removed`), and their lists to the snapshot. `score` adds live scores and finals (`score`, and `scores` in the snapshot; Pro, Elite and Enterprise).',
    ),
  initial: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('Send a `snapshot` event first on a fresh connection (default true).'),
});

const STREAM_DESCRIPTION = `Server-sent events. Event types: \`snapshot\` (the current state for your filters, sent first and whenever a \`Last-Event-ID\` is too old to replay), \`price\` (one book's price changed; its \`market\` has the fields of a /v1/odds market without \`main\` and \`outcomes\`, so a player prop's carries \`stat\` and \`player\`), \`arb\` (an arb appeared or changed), \`arb_removed\`, with \`types=ev\`: \`ev\` (a price with positive EV appeared or its odds, fair or EV changed: \`{key, ev}\`, \`ev\` as a /v1/ev price without \`age_seconds\`) and \`ev_removed\` (\`{key, event_id}\`: no longer positive, stale or gone), with \`types=middle\`: \`middle\` and \`middle_removed\` (the same for /v1/middles pairs), with \`types=score\` (Pro, Elite, Enterprise; \`403 plan-feature\` otherwise): \`score\` (a game's score changed, or it is final: a /v1/scores \`GameScore\`, a final with its players' figures where the source gives them; the snapshot carries \`scores\`, every live game and recent final), and \`close\` (the server is ending the stream: its \`reason\` is \`revoked\`, \`expired\` or \`suspended\` for the key, \`plan-changed\` when the key's plan changed (reconnect to continue on the new plan), or \`shutdown\`). The filters (\`league\`, \`event\`, \`markets\`, \`period\`, \`player\`, \`stat\`, \`books\`) apply to every event type, the snapshot's lists included, except that a score, being a game's, is filtered by \`league\` and \`event\` only. Every event has an \`id\`; reconnect with \`Last-Event-ID\` (EventSource does it for you) to get exactly what you missed. A \`:\` comment arrives at least every 15 s. Delayed plans receive each price change once it is as old as their delay; their arbs are those of /v1/arbs: an arb at or below the public page's edge cap (near-arbs included) comes in real time, one above it as it was the plan's delay ago, in the snapshot and in \`arb\` events alike, and a delayed plan's stream of arbs resumes after a \`Last-Event-ID\` with a snapshot. A stream of \`ev\` and \`middle\` alone is never staler than the public finder pages; a stream of \`score\` alone is real time on every plan (as /v1/scores), and scores mixed with prices come at the stream's delay. Scores resume after a \`Last-Event-ID\` like every other event. A snapshot may be up to a second old: the changes since then follow it. A key may open a limited number of streams per minute (30 by default; \`429 stream-opens\` beyond), so keep a stream open rather than reopening it. \`HEAD\` answers the stream's headers without opening one.`;

/** Creates the hub, starts it with the app and stops it (ending every stream) before the server closes. */
export function createStreamHub(
  app: FastifyInstance,
  options: Partial<StreamOptions>,
  now: () => number = Date.now,
): StreamHub {
  const hub = new StreamHub(
    app.engine,
    {
      ...DEFAULT_STREAM_OPTIONS,
      writesPerTurn: app.config.STREAM_WRITES_PER_TURN,
      valuesDelayMaxMs: app.config.EV_PUBLIC_DELAY_S * 1000,
      // ROLE=api keeps its replay buffer with no client connected: a client may come back from another instance.
      ...(app.config.ROLE === 'api' ? { idleRetainMs: Number.POSITIVE_INFINITY } : {}),
      ...options,
    },
    now,
  );
  app.decorate('streamHub', hub);
  // ROLE=api: stream ids name the leader's stream entries, the same on every instance (decision 145).
  if (app.clusterFollower) {
    app.clusterFollower.listener = {
      entry: (ms, seq) => hub.streamEntry(ms, seq),
      restarted: () => hub.streamRestarted(),
    };
  }
  app.addHook('onReady', async () => hub.start((keys) => app.apiKeys.recheckStreams(keys)));
  // A revoked key's streams end; a key whose plan changed has them end with `plan-changed`, so that the client
  // reconnects onto the new plan's delay and filters. A billing hold is judged by the periodic re-check.
  const offRevoke = app.apiKeys.onChange(({ ids, kind }) => {
    if (kind === 'billing') return;
    for (const id of ids) hub.closeKey(id, kind);
  });
  app.addHook('preClose', async () => {
    offRevoke();
    hub.stop();
  });
  return hub;
}

export async function streamRoutes(app: FastifyInstance, { hub }: { hub: StreamHub }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/stream',
    {
      config: { apiKeyInQuery: true },
      schema: {
        tags: [API_TAG],
        security: [{ ApiKey: [] }],
        summary: 'Price and arb changes as server-sent events',
        description: STREAM_DESCRIPTION,
        querystring: StreamQuery,
        headers: z.object({ 'last-event-id': z.string().max(64).optional() }).loose(),
        response: {
          200: {
            description:
              'A `text/event-stream` that stays open: `snapshot` first, then `price`, `arb`, `arb_removed` (and, as `types` asks, `ev`, `ev_removed`, `middle`, `middle_removed`, `score`) and `close` events, each with an `id`.',
            content: { 'text/event-stream': { schema: z.string().meta({ examples: [STREAM_EXAMPLE] }) } },
          },
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            '`types=score` on a plan without scores (`plan-feature`); `plans` names the plans that include it.',
          ),
          429: ProblemSchema.describe(
            "Over the plan's concurrent streams (`stream-limit`), the stream opens per minute of a key (`stream-opens`), or the plan's requests per minute (`rate-limited`); see Retry-After.",
          ),
        },
      },
    },
    async (request, reply) => {
      const key = request.apiKey!;
      const cap = key.plan.streamConnections;
      const streamHeaders = {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store, no-transform',
        'x-accel-buffering': 'no',
      };
      const refuseOverCap = () => {
        if (hub.connectionsOf(key.id) < cap) return;
        throw new HttpProblem(
          429,
          'stream-limit',
          'Too many open streams',
          `The ${key.plan.name} plan allows ${cap} concurrent streams per key; close one first.`,
          { limit: cap },
          { 'retry-after': '5' },
        );
      };
      refuseOverCap();
      // Scores are a gated feature, on the stream as on GET /v1/scores (decision 260).
      if (request.query.types?.includes('score')) requireFeature(request, API_FEATURES.scoresAndGrading);
      // HEAD (which Fastify routes here) answers the headers a stream would have, and opens nothing (decision 088).
      if (request.method === 'HEAD') return reply.code(200).headers(streamHeaders).send('');
      // Each open may cost a snapshot: a key opens at most STREAM_OPENS_PER_MINUTE streams a minute (decision 087).
      const opensLimit = app.config.STREAM_OPENS_PER_MINUTE;
      const { counter, phase } = lineWindow('stream-opens', key, WINDOW_MS);
      const opens = await app.rateLimiter.window(counter, phase, opensLimit, WINDOW_MS);
      if (!opens.allowed) {
        const retryAfter = Math.max(1, Math.ceil(opens.resetMs / 1000));
        throw new HttpProblem(
          429,
          'stream-opens',
          'Too many stream opens',
          `A key may open ${opensLimit} streams per minute. Retry in ${retryAfter} s; keep a stream open rather than reopening it.`,
          { limit: opensLimit, retry_after_seconds: retryAfter },
          { 'retry-after': String(retryAfter) },
        );
      }
      // The await above let other opens of this key in: check the cap again, right before connecting.
      refuseOverCap();
      const query = request.query;
      const raw = reply.raw;
      reply.hijack();
      const headers: Record<string, string | number | string[]> = {};
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) headers[name] = value;
      raw.writeHead(200, { ...headers, ...streamHeaders, connection: 'keep-alive' });
      raw.socket?.setNoDelay(true);
      const lastEventId = request.headers['last-event-id'];
      const client = hub.connect(
        key,
        {
          league: query.league,
          event: query.event,
          markets: query.markets ? new Set(query.markets) : undefined,
          period: query.period,
          player: playerFilter(query.player),
          stats: query.stat ? new Set(query.stat) : undefined,
          books: query.books ? new Set(query.books) : undefined,
          kinds: query.types ? new Set(query.types) : undefined,
        },
        {
          get queuedBytes() {
            return raw.writableLength;
          },
          write: (text) => {
            raw.write(text);
          },
          end: (text) => {
            if (text) raw.end(text);
            else raw.destroy();
          },
          drained: () =>
            new Promise<void>((resolve) => {
              if (!raw.writableNeedDrain || raw.destroyed) return void setImmediate(resolve);
              const done = () => {
                raw.off('drain', done);
                raw.off('close', done);
                resolve();
              };
              raw.on('drain', done);
              raw.on('close', done);
            }),
        },
        typeof lastEventId === 'string' ? lastEventId : undefined,
        query.initial ?? true,
      );
      // Stream minutes for the key's usage (decision 155), per started minute until the stream ends.
      const ended = app.usage.streamOpened(key.ledgerId);
      request.raw.on('close', () => {
        hub.disconnect(client);
        ended();
      });
      raw.on('error', () => {
        hub.disconnect(client);
        ended();
      });
      // The server ends it (revoked, shutdown): the response closes without the request's 'close' (idempotent).
      raw.on('close', ended);
    },
  );
}
