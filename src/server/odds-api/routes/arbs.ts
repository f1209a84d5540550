import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BookKeySchema, LeagueKeySchema, ProblemSchema } from '#domain/schemas/api/common.ts';
import { ArbsResponseSchema } from '#domain/schemas/api/odds.ts';
import { HttpProblem } from '../../http/problem.ts';
import { delayMs, FREE_PLAN } from '#domain/plans.ts';
import { planArbs } from '#domain/plan-arbs.ts';
import { filterArbs } from '../views.ts';
import { booleanParam, COMMON_ERRORS, csv, horizon, security, tags } from './common.ts';
import { marketsParam } from './odds.ts';

// GET /v1/arbs: the arbitrage opportunities a plan gets (decision 210): those the free page shows (edge at or below its
// cap, near-arbs included) from the latest snapshot, and those above the cap from the snapshot the plan's delay allows.

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
          'The same Arb shapes as the public feed, best edge first. Every arb the public page shows (`edge_pct` at or below its cap, near-arbs included) comes in real time on every plan; a delayed plan gets the arbs above `delayed_above_edge_pct` as they were `delay_seconds` ago. Player-prop arbs have `market_type` `prop` and a `market` naming the player, stat and line ("LeBron James Points Over/Under 27.5"); `markets=props` selects them.',
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
      const latest = app.engine.latest;
      const delay = delayMs(request.apiKey!.plan) / 1000;
      if (!latest) {
        throw new HttpProblem(
          503,
          'feed-not-ready',
          'Feed not ready',
          'The odds engine has not published yet.',
          {},
          { 'retry-after': '1' },
        );
      }
      // Decision 210: what the free page shows comes in real time; the plan's delay applies to the arbs above the
      // free cap (undefined before the engine has run one delay: only the real-time part then).
      const delayed = at === undefined ? latest : app.engine.snapshotAt(at);
      const { live, league, min_edge: minEdge, books, markets } = request.query;
      return {
        // As before decision 210: when the delayed part was computed (the real-time part is the latest snapshot's).
        generated_at: (delayed ?? latest).generatedAt,
        realtime_generated_at: latest.generatedAt,
        source: app.engine.source,
        delay_seconds: delay,
        delayed_above_edge_pct: delay === 0 ? null : FREE_PLAN.finders.arbEdgeCapPct,
        arbs: filterArbs(planArbs(latest, delayed), app.engine.storeAt(at), {
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
