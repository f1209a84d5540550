import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BookKeySchema, LeagueKeySchema, ProblemSchema } from '#domain/schemas/api/common.ts';
import { ArbsResponseSchema } from '#domain/schemas/api/odds.ts';
import { HttpProblem } from '../../http/problem.ts';
import { delayMs } from '#domain/plans.ts';
import { filterArbs } from '../views.ts';
import { booleanParam, COMMON_ERRORS, csv, horizon, security, tags } from './common.ts';
import { marketsParam } from './odds.ts';

// GET /v1/arbs: the arbitrage opportunities of the latest snapshot, or of the one a delayed plan may see.

export async function arbRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/arbs',
    {
      schema: {
        tags,
        security,
        summary: 'Current arbitrage opportunities',
        description:
          'The same Arb shapes as the public feed, best edge first. Delayed plans get the set computed `delay_seconds` ago. Player-prop arbs have `market_type` `prop` and a `market` naming the player, stat and line ("LeBron James Points Over/Under 27.5"); `markets=props` selects them.',
        querystring: z.object({
          live: booleanParam.optional(),
          league: LeagueKeySchema.optional(),
          min_edge: z.coerce.number().min(-100).max(100).optional().describe('Minimum edge_pct.'),
          books: csv(BookKeySchema)
            .optional()
            .describe('Only arbs whose every side is at one of these books.'),
          markets: marketsParam(),
        }),
        response: {
          200: ArbsResponseSchema.describe(
            'Arbs and near-arbs (`edge_pct` ≤ 0) matching the filters, best `edge_pct` first; `suspect` marks an edge too large to trust.',
          ),
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
      const { live, league, min_edge: minEdge, books, markets } = request.query;
      return {
        generated_at: snapshot.generatedAt,
        source: app.engine.source,
        delay_seconds: delay,
        arbs: filterArbs(snapshot.arbs, app.engine.storeAt(at), {
          live,
          league,
          minEdge,
          books: books ? new Set(books) : undefined,
          markets: markets ? new Set(markets) : undefined,
        }),
      };
    },
  );
}
