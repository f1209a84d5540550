import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { specLabel, specOutcomeLabel, specOutcomes } from '#domain/market-labels.ts';
import { formatAmerican, type AmericanOdds } from '#domain/odds.ts';
import { API_FEATURES } from '#domain/plans.ts';
import { DevigMethodSchema, FairReferenceSchema, ProblemSchema } from '#domain/schemas/api/common.ts';
import { LinesResponseSchema, type LinesResponse } from '#domain/schemas/api/history.ts';
import { requireFeature } from '../../odds-api/auth.ts';
import {
  byMarket,
  EventIdParams,
  fairChoice,
  historyEventNotFound,
  iso,
  isInPlayOpening,
  linePrice,
  marketFair,
  playerDto,
  PlayerParam,
  preMatchOpening,
  seriesSpec,
  toHistoryEventDto,
} from '../history-reads.ts';
import { COMMON_ERRORS, security, tags } from '../../odds-api/routes/common.ts';

// GET /v1/events/{eventId}/lines (Elite, Enterprise): opening, current and closing line of every (market, line,
// outcome, book) of an event, and per market the fair probabilities at opening and at closing (decision 114).

type MarketLines = LinesResponse['markets'][number];

export async function linesRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const referenceBook = app.config.CLV_REFERENCE_BOOK;

  routes.get(
    '/events/:eventId/lines',
    {
      schema: {
        tags,
        security,
        summary:
          'Opening, current and closing lines of one event, with fair probabilities (Elite, Enterprise)',
        description:
          'Player props are markets like any other (`market_type: prop`, with `stat` and `player`). Per market, outcome and book: `opening` (the first open price), `current` (the latest recorded change, with its state) and `closing` (the last open price at or before the start; null until the event starts). An `opening` first recorded after the event’s start is an in-play price, marked `in_play: true` and left out of the fair opening probabilities. Per market, the fair (no-vig) probabilities from the opening and from the closing prices: from `reference` (default the server’s `CLV_REFERENCE_BOOK`, `sharp` unless configured otherwise: the median implied probability per outcome across the sharp books that priced every outcome; a book’s own prices; or `consensus`, the median across every book that priced every outcome), de-vigged by `devig` (default `shin`; docs/decisions/164). When the reference cannot give them the consensus does, and `reference_fallback` says why. Each fair carries its inputs (`implied`, the median or the book’s 1/decimal per outcome, and `books`): `method` applied to them gives `probabilities`.',
        params: EventIdParams,
        querystring: z.object({
          player: PlayerParam.optional(),
          devig: DevigMethodSchema.optional(),
          reference: FairReferenceSchema.optional(),
        }),
        response: {
          200: LinesResponseSchema.describe(
            "Each market's opening, current and closing price per outcome and book, and its fair probabilities.",
          ),
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            'Not in your plan (`plan-feature`); `plans` names the plans that include it, `required_plan` the cheapest.',
          ),
          404: ProblemSchema.describe('The odds history has never seen this event (`event-not-found`).'),
        },
      },
    },
    async (request) => {
      requireFeature(request, API_FEATURES.closingLines);
      const { eventId } = request.params;
      const event = await app.history.event(eventId);
      if (!event) throw historyEventNotFound(eventId);
      const { player } = request.query;
      const choice = fairChoice(referenceBook, request.query);
      const playerIds = player === undefined ? undefined : await app.history.playerIds(eventId, player);
      const series = playerIds?.length === 0 ? [] : await app.history.series(eventId, { playerIds });
      const current = await app.history.lastTicks(series.map((row) => row.id));
      const started = event.closedAt !== null;
      const markets: MarketLines[] = [];
      for (const [key, rows] of byMarket(series)) {
        const first = rows[0]!;
        const spec = seriesSpec(first);
        if (!spec) continue;
        const player = first.player;
        const outcomes = specOutcomes(spec)
          .map((outcome) => ({
            outcome,
            name: specOutcomeLabel(event, spec, outcome, player),
            books: rows
              .filter((row) => row.outcome === outcome)
              .sort((a, b) => (a.book < b.book ? -1 : a.book > b.book ? 1 : 0))
              .map((row) => {
                const tick = current.get(row.id);
                return {
                  book: row.book as MarketLines['outcomes'][number]['books'][number]['book'],
                  opening: row.opening && {
                    ...linePrice(row.opening),
                    in_play: isInPlayOpening(row.opening, event),
                  },
                  current: tick
                    ? {
                        price: formatAmerican(tick.american as AmericanOdds),
                        decimal_odds: tick.decimal,
                        at: iso(tick.at),
                        state: tick.state,
                      }
                    : null,
                  closing: started && row.closing ? linePrice(row.closing) : null,
                };
              }),
          }))
          .filter((outcome) => outcome.books.length > 0);
        markets.push({
          market: key,
          market_type: spec.type,
          period: spec.period,
          line: spec.point,
          stat: spec.type === 'prop' ? spec.stat : null,
          player: playerDto(first),
          label: specLabel(spec, player),
          outcomes,
          fair: {
            opening: marketFair(rows, preMatchOpening(event), choice)?.dto ?? null,
            closing: started ? (marketFair(rows, (row) => row.closing, choice)?.dto ?? null) : null,
          },
        });
      }
      return {
        event: toHistoryEventDto(event),
        reference_book: referenceBook,
        reference: choice.reference,
        devig: choice.method,
        markets,
      };
    },
  );
}
