import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MARKET_TYPES, type MarketType } from '#domain/markets.ts';
import {
  BookKeySchema,
  LeagueKeySchema,
  PeriodSchema,
  ProblemSchema,
  PropStatSchema,
} from '#domain/schemas/api/common.ts';
import { OddsResponseSchema, type OddsResponse } from '#domain/schemas/api/odds.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import { HttpProblem } from '../../http/problem.ts';
import { oddsEtag, sendOdds } from '../odds-body.ts';
import { delayMs } from '#domain/plans.ts';
import { filterKey, listEvents, OddsJsonCache, playerFilter, type OddsPart } from '../views.ts';
import { booleanParam, COMMON_ERRORS, csv, eventNotFound, horizon, security, tags } from './common.ts';

// GET /v1/odds: the prices of one league or one event, served from cached per-event JSON (decision 084).

/** A market type as the `markets` filters take it: `props` (the plural, as people write it) is `prop`. */
const MarketFilterSchema = z
  .enum([...MARKET_TYPES, 'props'])
  .transform((value): MarketType => (value === 'props' ? 'prop' : value));

/** The `markets` filter of /v1/odds, /v1/arbs, /v1/ev, /v1/middles and /v1/stream: one vocabulary (issue 55). */
export const marketsParam = () =>
  csv(MarketFilterSchema)
    .optional()
    .describe(
      'Comma-separated market types, e.g. `moneyline,spread`; `props` (or `prop`) selects player props: `moneyline,props`.',
    );

/** The `player` filter of /v1/odds and /v1/stream (see `playerFilter` of views.ts). */
export const playerParam = () =>
  z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "Player props of one player only, by the player's `id` (from /v1/events/{eventId}) or name, case, accents and punctuation ignored (`lebron james`, `Luka Doncic`). With `player`, game lines are left out.",
    );

/** The `stat` filter of /v1/odds and /v1/stream. */
export const statParam = () =>
  csv(PropStatSchema)
    .optional()
    .describe(
      'Player props of these stats only, e.g. `player_points,player_rebounds`. With `stat`, game lines are left out.',
    );

const OddsQuery = z.object({
  league: LeagueKeySchema.optional(),
  event: z.string().min(1).max(200).optional().describe('An event id (from /v1/events).'),
  markets: marketsParam(),
  player: playerParam(),
  stat: statParam(),
  books: csv(BookKeySchema)
    .optional()
    .describe('Comma-separated sportsbook keys, e.g. `fanduel,draftkings`.'),
  period: PeriodSchema.optional(),
  main: booleanParam.optional().describe('`true`: main lines only (no alternate spreads or totals).'),
  live: booleanParam.optional(),
});

export async function oddsRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const cache = new OddsJsonCache(app.engine.store, (at) => app.engine.storeAt(at));
  app.addHook('onClose', async () => cache.close());

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
          "Every price carries American and decimal odds and the time the book last changed it. Give `league` or `event`. Delayed plans see the market as it was `delay_seconds` ago. Player props are markets of type `prop`, with `stat` and `player` (absent on game lines) and over/under or yes/no outcomes; `main` marks the line most books quote per player, stat and period. `markets=props` selects props, `player` one player's props (by id or name), `stat` some stats.",
        querystring: OddsQuery,
        response: {
          200: OddsResponseSchema.describe(
            "The events matching the filters, each with its markets and every book's price per outcome, as of `as_of`.",
          ),
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
        player: playerFilter(query.player),
        stats: query.stat ? new Set(query.stat) : undefined,
      };
      const key = filterKey([
        filters.markets,
        filters.books,
        filters.period,
        filters.mainOnly,
        filters.player?.query,
        filters.stats,
      ]);
      // A delayed read before a new ingest leader's start reads the market kept from the previous one (decision 146).
      const store = app.engine.storeAt(at);
      let events;
      if (query.event) {
        const event = store.event(query.event);
        if (!event || (query.league && event.league !== query.league)) throw eventNotFound(query.event);
        events = [event];
      } else events = listEvents(store, { league: query.league, live: query.live });
      const parts: OddsPart[] = [];
      for (const event of events) {
        const part = cache.get(event, at, filters, key);
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
}
