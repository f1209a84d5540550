import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EV_METHOD, EV_MIN_BOOKS, EV_REFERENCE } from '#domain/ev.ts';
import { delayMs } from '#domain/plans.ts';
import { BookKeySchema, LeagueKeySchema } from '#domain/schemas/api/common.ts';
import { EvResponseSchema, type EvResponse } from '#domain/schemas/api/ev.ts';
import { filterEv } from '../../ev/board.ts';
import { sendEntry } from '../../http/send-entry.ts';
import { filterKey, numberKey } from '../views.ts';
import { booleanParam, COMMON_ERRORS, csv, horizon, security, tags } from './common.ts';
import { marketsParam } from './odds.ts';

// GET /v1/ev (issue 36, decision 163): book prices with positive expected value against the consensus fair
// probability of their market, best EV first. Delayed plans see the board as it was `delay_seconds` ago, as /v1/arbs.
// The answer's bytes (identity, gzip, brotli, ETag) are kept per board and normalised question in `app.evAnswers`
// (http/answer-cache.ts, decision 205, within a byte budget): the requests of one quantum asking the same question,
// however spelled, share one rendering, built from the DTOs the response schema documents.

export async function evRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/ev',
    {
      // Compressed once per rendering (snapshotEntry), not per request by @fastify/compress.
      compress: false,
      schema: {
        tags,
        security,
        summary: 'Prices with positive expected value',
        description: `Every book price whose expected value is positive against its market's fair probabilities, best \`ev_pct\` first. The fair probability of an outcome is the consensus of every book pricing every side of the market (the book of the price included): per outcome the median implied probability across those books, the medians then divided by their sum (\`method\` \`${EV_METHOD}\`, \`reference\` \`${EV_REFERENCE}\`). A market needs at least ${EV_MIN_BOOKS} such books (\`fair.books\`) for its prices to be listed. Only prices the arbitrage scanner would use count: not suspended, not older than 60 s pre-match or 10 s live. \`ev_pct\` = (fair.probability × price.decimal − 1) × 100, rounded down: an expectation over many bets, not a guaranteed profit. Delayed plans get the board as it was \`delay_seconds\` ago; the board is recomputed at most every 250 ms (every second for a delayed plan).`,
        querystring: z.object({
          league: LeagueKeySchema.optional(),
          markets: marketsParam(),
          books: csv(BookKeySchema)
            .optional()
            .describe('Only prices of these books (the fair still uses every book).'),
          min_ev: z.coerce
            .number()
            .min(0)
            .max(100)
            .optional()
            .describe('Minimum `ev_pct` (percent, default: anything above 0).'),
          live: booleanParam.optional(),
          limit: z.coerce
            .number()
            .int()
            .min(1)
            .max(1000)
            .default(200)
            .describe('At most this many prices (default 200, at most 1,000); `total` counts them all.'),
        }),
        response: {
          200: EvResponseSchema.describe(
            'Prices with positive EV matching the filters, best `ev_pct` first, with the method and reference of their fair probabilities.',
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const at = horizon(request, now);
      const board = app.evBoard.read(at, now());
      const { league, markets, books, min_ev: minEv, live, limit } = request.query;
      const delaySeconds = delayMs(request.apiKey!.plan) / 1000;
      const types = markets ? new Set<string>(markets) : undefined;
      const bookSet = books ? new Set<string>(books) : undefined;
      const key = `${delaySeconds}|${limit}|${filterKey([league, live, types, bookSet, numberKey(minEv)])}`;
      const entry = await app.evAnswers.answer(key, board.at, (): EvResponse => {
        const rows = filterEv(board.rows, { league, live, types, books: bookSet, minEv });
        return {
          as_of: new Date(board.at).toISOString(),
          delay_seconds: delaySeconds,
          method: EV_METHOD,
          reference: EV_REFERENCE,
          min_books: EV_MIN_BOOKS,
          total: rows.length,
          prices: rows.slice(0, limit).map((row) => row.dto),
        };
      });
      return sendEntry(request, reply, entry, { 'cache-control': 'no-cache' });
    },
  );
}
