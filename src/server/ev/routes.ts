import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EV_METHOD, EV_MIN_BOOKS, EV_REFERENCE } from '#domain/ev.ts';
import {
  BookKeySchema,
  DevigMethodSchema,
  FairReferenceSchema,
  LeagueKeySchema,
} from '#domain/schemas/api/common.ts';
import { SHARP_BOOKS } from '#domain/sportsbooks.ts';
import { EvResponseSchema, type EvResponse } from '#domain/schemas/api/ev.ts';
import { filterEv } from './board.ts';
import { evPriceDtoAt } from '#domain/ev-dto.ts';
import { sendEntry } from '../http/send-entry.ts';
import { filterKey, numberKey } from '../odds-api/views.ts';
import {
  booleanParam,
  COMMON_ERRORS,
  csv,
  security,
  tags,
  valuesAnswerHead,
  valuesQuestion,
} from '../odds-api/routes/common.ts';
import { marketsParam } from '../odds-api/routes/odds.ts';

// GET /v1/ev (issue 36, decision 163): book prices with positive expected value against the consensus fair
// probability of their market, best EV first. Delayed plans see the board as it was `delay_seconds` ago, as /v1/arbs.
// The answer's bytes (identity, gzip, brotli, ETag) are kept per board and normalised question in `app.evAnswers`
// (http/answer-cache.ts, decision 205, within a byte budget): the requests of one board (the value scan's slot,
// decision 273) asking the same question, however spelled, share one rendering, built from the DTOs the response
// schema documents.

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
        description: `Every book price whose expected value is positive against its market's fair probabilities, best \`ev_pct\` first. A market is judged when at least ${EV_MIN_BOOKS} books price every side of it (\`fair.books\`). Its fair probabilities: per outcome, the median implied probability q = 1/decimal across the books of \`reference\` (default \`${EV_REFERENCE}\`: every book pricing every side, the book of the price included; \`sharp\`: the sharp books among them; a book's key: that book's own q), then the margin removed by \`devig\` (default \`${EV_METHOD}\`: Shin's model, which on a two-way market gives p = (1 + q_a − q_b) / 2, the additive answer; \`multiplicative\`: q / Σq; \`additive\`: q − (Σq − 1) / n, an outcome below 0 getting 0 and no EV; \`power\`: q^k with Σ q^k = 1), the probabilities then divided by their sum so that they sum to 1. When the reference does not price every side, the consensus gives the fair and \`fair.reference_fallback\` says why. The answer names the method and reference asked for (\`method\`, \`reference\`) and each fair what it came from. Only prices the arbitrage scanner would use count: not suspended, not older than 60 s pre-match or 10 s live. \`ev_pct\` = (fair.probability × price.decimal − 1) × 100, rounded down: an expectation over many bets, not a guaranteed profit. The board is judged once a second, at the first moment of each second: a real-time answer is the board as of the last judgement (\`as_of\`, at most a second old, each \`age_seconds\` counted to it), and delayed plans get the board as it stood at the second \`delay_seconds\` ago. A method or reference other than the default is judged on request for that instant, with each price as it was then, and kept for it.`,
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
          devig: DevigMethodSchema.optional(),
          reference: FairReferenceSchema.optional().describe(
            `Whose prices the fair probabilities come from: \`consensus\` (default: the median implied probability per outcome across every book pricing every side), \`sharp\` (the same across the sharp books: ${SHARP_BOOKS.join(', ')}), or one book's key (its own prices). When it cannot give them, the consensus does, and the fair says so in \`reference_fallback\`.`,
          ),
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
      const question = valuesQuestion(request, now, request.query, {
        method: EV_METHOD,
        reference: EV_REFERENCE,
      });
      const { league, min_ev: minEv, live, limit } = request.query;
      const { types, books } = question;
      const board = app.evBoard.read(question.at, now(), question.asked);
      const key = question.keyHead + filterKey([league, live, types, books, numberKey(minEv)]);
      const entry = await app.evAnswers.answer(key, board.at, (): EvResponse => {
        const rows = filterEv(board.rows, { league, live, types, books, minEv });
        return {
          ...valuesAnswerHead(question, board.at, app.engine.source),
          min_books: EV_MIN_BOOKS,
          total: rows.length,
          prices: rows.slice(0, limit).map((row) => evPriceDtoAt(row, board.at)),
        };
      });
      return sendEntry(request, reply, entry, { 'cache-control': 'no-cache' });
    },
  );
}
