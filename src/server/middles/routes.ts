import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MIDDLE_CENTRE_DEFAULT, MIDDLE_MIN_BOOKS } from '#domain/middles.ts';
import {
  BookKeySchema,
  DevigMethodSchema,
  FairReferenceSchema,
  LeagueKeySchema,
} from '#domain/schemas/api/common.ts';
import { SHARP_BOOKS } from '#domain/sportsbooks.ts';
import { MiddlesResponseSchema, type MiddlesResponse } from '#domain/schemas/api/middles.ts';
import { middleDtoAt } from '#domain/middle-dto.ts';
import { sendEntry } from '../http/send-entry.ts';
import { filterMiddles } from './board.ts';
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

// GET /v1/middles (issue 36, decisions 167 and 189): pairs of opposite full-game spread or total sides, or of one
// player's over and under, at two books where both can win, with the chance of landing in the gap and the pair's EV,
// best EV first. Delayed plans see the board as it was `delay_seconds` ago, as /v1/arbs and /v1/ev. The answer's bytes
// (identity, gzip, brotli, ETag) are kept per board and normalised question in `app.middlesAnswers`, as /v1/ev's
// (http/answer-cache.ts, decision 205): a thousand middles cost about 100 ms of CPU to filter, serialise and compress.

export async function middlesRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/middles',
    {
      // Compressed once per kept answer (snapshotEntry), not per request by @fastify/compress.
      compress: false,
      schema: {
        tags,
        security,
        summary: 'Middles: two sides of a spread, total or player prop that can both win',
        description: `A middle is a pair of opposite sides of one game's full-game spread or total, or of one player's prop, at two books, at lines that leave a gap where both win: home −2.5 at one book and away +3.5 at another both win when the home side wins by exactly 3; over 44.5 and under 47.5 both win on totals 45 to 47; LeBron James points over 24.5 and under 26.5 both win on 25 or 26 points (\`market.type\` \`prop\`, with \`market.stat\` and \`market.player\`). A middle is a bet on landing in the gap: staked at the equal-payout split (\`stake_share\`, \`stakes\`), either side alone pays the same, so a miss loses a little (\`worst_case_pct\`) and a hit wins both. \`probability\` gives the chance of each landing under the league's score distributions centred on the market (\`model\`, \`centre\`), each fitted to published results: NFL margins weighted to a published table of final margins (3 and 7 the key numbers) with smooth totals (\`nfl-key-numbers\`), basketball's normal margins with overtime (\`basketball\`), NHL goals with overtime and empty-net goals (\`nhl-goals\`), MLB runs with extra innings and walk-offs (\`mlb-runs\`), soccer goals by Dixon–Coles (\`soccer-dixon-coles\`). A player's stat is a Poisson count (threes, touchdown passes, receptions, hits, total bases, strikeouts, shots) or, for points, rebounds, assists and yards, a normal whose σ grows with the square root of its mean; their spreads are priors, not fitted to results. A whole-number line pushes (the stake comes back) when the final value lands on it. \`ev_pct\` = Σ probability × return: most middles have a negative EV, and a positive one is an expectation over many bets, not a guaranteed profit. The centre (\`centre\`) is the median of one estimate per book and line with both sides priced: the chance p of the high side (home, over) from the book's two prices de-vigged by \`devig\` (default \`${MIDDLE_CENTRE_DEFAULT.method}\`: (1/d_high) / (1/d_high + 1/d_low); \`additive\` and \`shin\`, equal on two outcomes: (1 + 1/d_high − 1/d_low) / 2; \`power\`: (1/d_high)^k with (1/d_high)^k + (1/d_low)^k = 1), turned into the variable's mean (game lines: the mean whose fair chance of the high side at that line under the league's distributions is p, a whole line's push left out and a quarter line read as its two halves, the total fitted first with the margin held at its normal estimate, then the margin at that total; props: the mean for which the stat's model gives the over the chance p), over the estimates of \`reference\`'s books (default \`${MIDDLE_CENTRE_DEFAULT.reference}\`: every book's; \`sharp\`: the sharp books'; a book's key: its own). When the reference has no estimate, the consensus gives the centre and \`centre_from.reference_fallback\` says why; the answer names the method and reference asked for (\`method\`, \`reference\`) and each middle what its centre came from (\`centre_from\`). A game (or a player's stat) needs at least ${MIDDLE_MIN_BOOKS} books pricing both sides of some line for its centre, and so its middles, to be listed, whatever the reference. Only prices the arbitrage scanner would use count: not suspended, not older than 60 s pre-match or 10 s live. The board is judged once a second, at the first moment of each second: a real-time answer is the board as of the last judgement (\`as_of\`, at most a second old, each \`age_seconds\` counted to it), and delayed plans get the board as it stood at the second \`delay_seconds\` ago. A method or reference other than the default is judged on request for that instant, with each price as it was then, and kept for it.`,
        querystring: z.object({
          league: LeagueKeySchema.optional(),
          markets: marketsParam(),
          books: csv(BookKeySchema)
            .optional()
            .describe('Only pairs whose two books are both among these (the centre still uses every book).'),
          min_probability: z.coerce
            .number()
            .min(0)
            .max(1)
            .optional()
            .describe('Minimum `probability.middle`, the chance both sides win (0 to 1).'),
          min_ev: z.coerce
            .number()
            .min(-100)
            .max(100)
            .optional()
            .describe('Minimum `ev_pct` (percent; may be negative, default: every middle).'),
          live: booleanParam.optional(),
          devig: DevigMethodSchema.optional().describe(
            `How each book's two prices of a line are de-vigged into the chance of the high side, for the centre (default \`${MIDDLE_CENTRE_DEFAULT.method}\`): \`multiplicative\` q / Σq; \`additive\` and \`shin\` (equal on two outcomes) q − (Σq − 1) / 2; \`power\` q^k with Σ q^k = 1 (docs/decisions/164).`,
          ),
          reference: FairReferenceSchema.optional().describe(
            `Whose estimates the centre is the median of: \`consensus\` (default: every book's), \`sharp\` (the sharp books': ${SHARP_BOOKS.join(', ')}), or one book's key (its own). When it has none, the consensus's, and each middle says so in \`centre_from.reference_fallback\`.`,
          ),
          limit: z.coerce
            .number()
            .int()
            .min(1)
            .max(1000)
            .default(200)
            .describe('At most this many middles (default 200, at most 1,000); `total` counts them all.'),
        }),
        response: {
          200: MiddlesResponseSchema.describe(
            'Middles matching the filters, best `ev_pct` first, each with its gap, the chance of each landing, the returns, the stakes and the EV.',
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const question = valuesQuestion(request, now, request.query, MIDDLE_CENTRE_DEFAULT);
      const { league, min_probability: minProbability, min_ev: minEv, live, limit } = request.query;
      const { types, books } = question;
      const board = app.middlesBoard.read(question.at, now(), question.asked);
      const key =
        question.keyHead +
        filterKey([league, live, types, books, numberKey(minProbability), numberKey(minEv)]);
      const entry = await app.middlesAnswers.answer(key, board.at, (): MiddlesResponse => {
        const rows = filterMiddles(board.rows, { league, live, types, books, minProbability, minEv });
        return {
          ...valuesAnswerHead(question, board.at, app.engine.source),
          min_books: MIDDLE_MIN_BOOKS,
          total: rows.length,
          middles: rows.slice(0, limit).map((row) => middleDtoAt(row, board.at)),
        };
      });
      return sendEntry(request, reply, entry, { 'cache-control': 'no-cache' });
    },
  );
}
