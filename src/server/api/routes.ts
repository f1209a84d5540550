import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LEAGUES, marketLabel, outcomeLabel, type MarketType } from '#domain/markets.ts';
import {
  ArbsResponseSchema,
  BookKeySchema,
  EventResponseSchema,
  EventsResponseSchema,
  LeagueKeySchema,
  LeaguesResponseSchema,
  MarketTypeSchema,
  MeResponseSchema,
  MovementResponseSchema,
  OddsResponseSchema,
  type OddsResponse,
  PeriodSchema,
  ProblemSchema,
  SportsResponseSchema,
} from '#domain/schemas/api.ts';
import { formatAmerican } from '#domain/odds.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import { HttpProblem } from '../lib/problem.ts';
import { requireFeature } from './auth.ts';
import { delayMs, FEATURES, featuresOf, STREAM_CONNECTIONS } from './policy.ts';
import { oddsEtag, sendOdds } from './odds-body.ts';
import {
  filterArbs,
  listEvents,
  OddsJsonCache,
  type OddsPart,
  snapshotFeed,
  toEventDto,
  visibleVersion,
} from './views.ts';

// The REST half of the paid API. Handlers stay short: filters are parsed by the zod schemas, reads live in views.ts.

export const API_TAG = 'Odds API';

const SPORT_NAMES: Record<string, string> = {
  basketball: 'Basketball',
  football: 'American football',
  baseball: 'Baseball',
  hockey: 'Ice hockey',
  soccer: 'Soccer',
};

/** Errors every authenticated route may answer. */
export const COMMON_ERRORS = {
  400: ProblemSchema.describe(
    'Invalid parameters (`validation`) or a key in the query string (`api-key-in-query`).',
  ),
  401: ProblemSchema.describe('Missing, malformed, unknown, expired or revoked key (`api-key-*`).'),
  429: ProblemSchema.describe("Over the plan's requests per minute (`rate-limited`); see Retry-After."),
} as const;

const booleanParam = z.enum(['true', 'false']).transform((value) => value === 'true');
/** A list parameter: `books=a,b` or `books=a&books=b`. */
export const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => (typeof part === 'string' ? part.split(',') : [part]))
        .map((part) => (typeof part === 'string' ? part.trim() : part))
        .filter((part) => part !== ''),
    z.array(item).min(1).max(50),
  );

const timeParam = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));

const OddsQuery = z.object({
  league: LeagueKeySchema.optional(),
  event: z.string().min(1).max(200).optional().describe('An event id (from /v1/events).'),
  markets: csv(MarketTypeSchema)
    .optional()
    .describe('Comma-separated market types, e.g. `moneyline,spread`.'),
  books: csv(BookKeySchema)
    .optional()
    .describe('Comma-separated sportsbook keys, e.g. `fanduel,draftkings`.'),
  period: PeriodSchema.optional(),
  main: booleanParam.optional().describe('`true`: main lines only (no alternate spreads or totals).'),
  live: booleanParam.optional(),
});

const EventsQuery = z.object({
  league: LeagueKeySchema.optional(),
  live: booleanParam.optional(),
  starts_after: timeParam.optional().describe('ISO 8601; events starting at or after it.'),
  starts_before: timeParam.optional().describe('ISO 8601; events starting at or before it.'),
});

/** The horizon of the key's plan: undefined (real time) or now − delay. */
function horizon(request: FastifyRequest, now: () => number): number | undefined {
  const delay = delayMs(request.apiKey!.plan);
  return delay === 0 ? undefined : now() - delay;
}

export async function apiRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const store = app.engine.store;
  const cache = new OddsJsonCache(store);
  app.addHook('onClose', async () => cache.close());
  const tags = [API_TAG];
  const security = [{ ApiKey: [] }];

  routes.get(
    '/sports',
    {
      schema: {
        tags,
        security,
        summary: 'Sports and their leagues',
        response: { 200: SportsResponseSchema, ...COMMON_ERRORS },
      },
    },
    async () => {
      const bySport = new Map<string, (typeof LEAGUES)[keyof typeof LEAGUES][]>();
      for (const league of Object.values(LEAGUES))
        bySport.set(league.sport, [...(bySport.get(league.sport) ?? []), league]);
      return {
        sports: [...bySport].map(([key, leagues]) => ({
          key,
          name: SPORT_NAMES[key] ?? key,
          leagues: leagues.map((league) => ({
            key: league.key,
            name: league.name,
            sport: league.sport,
            has_draws: league.hasDraws,
          })),
        })),
      };
    },
  );

  routes.get(
    '/leagues',
    {
      schema: {
        tags,
        security,
        summary: 'Leagues',
        response: { 200: LeaguesResponseSchema, ...COMMON_ERRORS },
      },
    },
    async () => ({
      leagues: Object.values(LEAGUES).map((league) => ({
        key: league.key,
        name: league.name,
        sport: league.sport,
        has_draws: league.hasDraws,
      })),
    }),
  );

  routes.get(
    '/events',
    {
      schema: {
        tags,
        security,
        summary: 'Events, by start time',
        querystring: EventsQuery,
        response: { 200: EventsResponseSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => {
      const { league, live, starts_after: startsAfter, starts_before: startsBefore } = request.query;
      return { events: listEvents(store, { league, live, startsAfter, startsBefore }).map(toEventDto) };
    },
  );

  routes.get(
    '/events/:eventId',
    {
      schema: {
        tags,
        security,
        summary: 'One event',
        params: z.object({ eventId: z.string().min(1).max(200) }),
        response: {
          200: EventResponseSchema,
          ...COMMON_ERRORS,
          404: ProblemSchema.describe('No such event (`event-not-found`).'),
        },
      },
    },
    async (request) => {
      const event = store.event(request.params.eventId);
      if (!event) throw eventNotFound(request.params.eventId);
      return { event: toEventDto(event) };
    },
  );

  routes.get(
    '/odds',
    {
      // Compressed by sendOdds from cached pieces, not per request by @fastify/compress.
      compress: false,
      schema: {
        tags,
        security,
        summary: 'Odds for one league or one event',
        description:
          'Every price carries American and decimal odds and the time the book last changed it. Give `league` or `event`. Delayed plans see the market as it was `delay_seconds` ago.',
        querystring: OddsQuery,
        response: {
          200: OddsResponseSchema,
          ...COMMON_ERRORS,
          404: ProblemSchema.describe('No such event (`event-not-found`).'),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      if (!query.league && !query.event) {
        throw new HttpProblem(400, 'validation', 'Invalid request', 'Give `league` or `event`.', {
          errors: { league: ['Give league or event'] },
        });
      }
      const at = OddsJsonCache.floor(horizon(request, now));
      const filters = {
        markets: query.markets ? new Set<MarketType>(query.markets) : undefined,
        books: query.books ? new Set<SportsbookKey>(query.books) : undefined,
        period: query.period,
        mainOnly: query.main,
      };
      const filterKey = JSON.stringify([
        query.markets ? [...filters.markets!].sort() : null,
        query.books ? [...filters.books!].sort() : null,
        query.period ?? null,
        query.main ?? null,
      ]);
      let events;
      if (query.event) {
        const event = store.event(query.event);
        if (!event || (query.league && event.league !== query.league)) throw eventNotFound(query.event);
        events = [event];
      } else events = listEvents(store, { league: query.league, live: query.live });
      const parts: OddsPart[] = [];
      for (const event of events) {
        const part = cache.get(event, at, filters, filterKey);
        if (part) parts.push(part);
      }
      // Assembled from cached per-event JSON (built from the same DTO types the schema documents), so the response
      // is sent as bytes rather than re-validated and re-serialised per request; gzip likewise from cached pieces.
      const delaySeconds = delayMs(request.apiKey!.plan) / 1000;
      const head: Omit<OddsResponse, 'events'> = {
        as_of: new Date(at ?? now()).toISOString(),
        delay_seconds: delaySeconds,
      };
      return sendOdds(
        request,
        reply,
        `${JSON.stringify(head).slice(0, -1)},"events":[`,
        parts,
        oddsEtag(delaySeconds, at, parts),
      );
    },
  );

  routes.get(
    '/arbs',
    {
      schema: {
        tags,
        security,
        summary: 'Current arbitrage opportunities',
        description:
          'The same Arb shapes as the public feed, best edge first. Delayed plans get the set computed `delay_seconds` ago.',
        querystring: z.object({
          live: booleanParam.optional(),
          league: LeagueKeySchema.optional(),
          min_edge: z.coerce.number().min(-100).max(100).optional().describe('Minimum edge_pct.'),
          books: csv(BookKeySchema)
            .optional()
            .describe('Only arbs whose every side is at one of these books.'),
        }),
        response: {
          200: ArbsResponseSchema,
          ...COMMON_ERRORS,
          503: ProblemSchema.describe('Nothing published yet (`feed-not-ready`).'),
        },
      },
    },
    async (request) => {
      const at = horizon(request, now);
      const snapshot = at === undefined ? app.engine.latest : app.engine.snapshotAt(at);
      const delay = delayMs(request.apiKey!.plan) / 1000;
      if (!snapshot) {
        if (at !== undefined && app.engine.latest) {
          // The engine started less than one delay ago: nothing that old exists yet.
          return { generated_at: Math.floor(at / 1000), delay_seconds: delay, arbs: [] };
        }
        throw new HttpProblem(
          503,
          'feed-not-ready',
          'Feed not ready',
          'The odds engine has not published yet.',
          {},
          { 'retry-after': '1' },
        );
      }
      const feed = snapshotFeed(snapshot);
      const { live, league, min_edge: minEdge, books } = request.query;
      return {
        generated_at: feed.generated_at,
        ...(feed.source ? { source: feed.source } : {}),
        delay_seconds: delay,
        arbs: filterArbs(feed.arbs, store, {
          live,
          league,
          minEdge,
          books: books ? new Set(books) : undefined,
        }),
      };
    },
  );

  routes.get(
    '/events/:eventId/movement',
    {
      schema: {
        tags,
        security,
        summary: 'Line movement of one event (Enterprise)',
        description: 'Every version of every price the engine still holds for the event, newest first.',
        params: z.object({ eventId: z.string().min(1).max(200) }),
        response: {
          200: MovementResponseSchema,
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            'Not in your plan (`plan-feature`); `required_plan` names the plan that includes it.',
          ),
          404: ProblemSchema.describe('No such event (`event-not-found`).'),
        },
      },
    },
    async (request) => {
      requireFeature(request, FEATURES.lineMovement);
      const event = store.event(request.params.eventId);
      if (!event) throw eventNotFound(request.params.eventId);
      return {
        event: toEventDto(event),
        markets: store.markets(event.id).map((market) => ({
          key: market.key,
          label: marketLabel(market.spec),
          outcomes: market.outcomes.map((outcome, index) => ({
            outcome,
            name: outcomeLabel(event, market.spec, outcome),
            books: [...market.prices[index]!.values()].map((newest) => {
              const versions = [];
              for (let version = visibleVersion(newest, undefined); version; version = version.previous) {
                versions.push({
                  american: formatAmerican(version.american),
                  decimal: version.decimal,
                  updated_at: new Date(version.updatedAt).toISOString(),
                  suspended: version.suspended,
                });
              }
              return { book: newest.book, versions };
            }),
          })),
        })),
      };
    },
  );

  routes.get(
    '/me',
    {
      schema: {
        tags,
        security,
        summary: "Your key's plan, limits and usage",
        response: { 200: MeResponseSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => {
      const key = request.apiKey!;
      const quota = request.quota!;
      return {
        key: {
          prefix: key.prefix,
          kind: key.kind,
          created_at: key.createdAt.toISOString(),
          expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
        },
        plan: {
          id: key.plan.id,
          name: key.plan.name,
          real_time: key.plan.realTime,
          delay_seconds: delayMs(key.plan) / 1000,
        },
        limits: { requests_per_minute: quota.limit, stream_connections: STREAM_CONNECTIONS[key.plan.id] },
        usage: {
          used: quota.limit - quota.remaining,
          remaining: quota.remaining,
          resets_in_seconds: quota.resetSeconds,
        },
        features: featuresOf(key.plan),
      };
    },
  );
}

function eventNotFound(id: string): HttpProblem {
  return new HttpProblem(
    404,
    'event-not-found',
    'Event not found',
    `No current event has the id ${JSON.stringify(id.slice(0, 200))}.`,
  );
}
