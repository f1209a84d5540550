import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  isMarketType,
  marketLabel,
  outcomeLabel,
  outcomesOf,
  type MarketSpec,
  type Period,
} from '#domain/markets.ts';
import { formatAmerican, roundTo, type AmericanOdds } from '#domain/odds.ts';
import { API_FEATURES, delayMs } from '#domain/plans.ts';
import {
  BookKeySchema,
  HistoricalOddsResponseSchema,
  LeagueKeySchema,
  MarketTypeSchema,
  PeriodSchema,
  ProblemSchema,
  type EventOddsDto,
  type MarketDto,
  type PriceDto,
} from '#domain/schemas/api.ts';
import type { HistorySeries, SeriesTick } from '../../history/service.ts';
import { requireFeature } from '../auth.ts';
import { byMarket, invalid, iso, toEventDtoAt } from '../history-reads.ts';
import { markMainLines } from '../views.ts';
import { booleanParam, COMMON_ERRORS, csv, security, tags } from './common.ts';

// GET /v1/historical/odds (Elite, Enterprise): a league's odds board as it was at an instant, in the shape of
// /v1/odds, from the odds history, with the change times before and after it to walk through time (decision 113).
// Counts as 10 requests against the per-minute quota.

export const HISTORICAL_ODDS_COST = 10;

const HistoricalOddsQuery = z.object({
  league: LeagueKeySchema,
  at: z.iso
    .datetime({ offset: true })
    .transform((value) => Date.parse(value))
    .describe('The instant (ISO 8601, UTC): every price is the last change at or before it.'),
  markets: csv(MarketTypeSchema)
    .optional()
    .describe('Comma-separated market types, e.g. `moneyline,spread`.'),
  books: csv(BookKeySchema)
    .optional()
    .describe('Comma-separated sportsbook keys, e.g. `fanduel,draftkings`.'),
  period: PeriodSchema.optional(),
  main: booleanParam
    .optional()
    .describe('`true`: main lines only (decided over every book, as /v1/odds does).'),
});

function toPrice(series: HistorySeries, tick: SeriesTick): PriceDto {
  return {
    book: series.book as PriceDto['book'],
    american: formatAmerican(tick.american as AmericanOdds),
    decimal: tick.decimal,
    implied_prob: roundTo(1 / tick.decimal, 6),
    updated_at: iso(tick.at),
    suspended: tick.state === 'suspended',
    links: { desktop: null, mobile: null },
  };
}

export async function historicalOddsRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/historical/odds',
    {
      config: { requestCost: HISTORICAL_ODDS_COST },
      schema: {
        tags,
        security,
        summary: 'The odds board of a league at a past instant (Elite, Enterprise; counts as 10 requests)',
        description:
          'The same shape as /v1/odds, as it was at `at`: for every event of the league the history knew then, each price is the last change recorded at or before `at`. A suspended price is shown with `suspended: true`; a removed one (withdrawn by the book, or the event over) is left out, as /v1/odds leaves it out. `updated_at` is when the change was recorded; `links` are null (the history keeps prices, not links). `previous_change_at` and `next_change_at` are the league’s changes strictly before and after `at`: ask again with either to step through every change. Counts as 10 requests against the per-minute quota.',
        querystring: HistoricalOddsQuery,
        response: {
          200: HistoricalOddsResponseSchema,
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            'Not in your plan (`plan-feature`); `plans` names the plans that include it, `required_plan` the cheapest.',
          ),
        },
      },
    },
    async (request) => {
      requireFeature(request, API_FEATURES.historicalOdds);
      const query = request.query;
      const at = query.at;
      const current = now();
      if (at > current) throw invalid('at', '`at` must not be in the future');
      const events = await app.history.eventsAt(query.league, at);
      const series = await app.history.series(events.map((event) => event.id));
      const ids = series.map((row) => row.id);
      const last = await app.history.lastTicks(ids, at);
      const before = await app.history.lastTicks(ids, at - 1);
      // The previous and next change of the board: a tick of an event known at `at`, or an event appearing or
      // ending (which covers events first seen after `at`, and events that ended before it).
      const around = await app.history.eventTimesAround(query.league, at);
      let previous = around.previous;
      for (const tick of before.values()) if (previous === null || tick.at > previous) previous = tick.at;
      const probed = await app.history.nextChangeAfter(ids, at);
      const next =
        probed === null ? around.next : around.next === null ? probed : Math.min(probed, around.next);

      const byEvent = new Map<string, HistorySeries[]>();
      for (const row of series) {
        const rows = byEvent.get(row.eventId);
        if (rows) rows.push(row);
        else byEvent.set(row.eventId, [row]);
      }
      const out: EventOddsDto[] = [];
      for (const event of events) {
        let markets: MarketDto[] = [];
        for (const [key, rows] of byMarket(byEvent.get(event.id) ?? [])) {
          const first = rows[0]!;
          if (!isMarketType(first.marketType)) continue;
          const spec: MarketSpec = {
            type: first.marketType,
            period: first.period as Period,
            point: first.line,
          };
          if (query.markets && !query.markets.includes(spec.type)) continue;
          if (query.period && spec.period !== query.period) continue;
          let any = false;
          const outcomes = outcomesOf(spec.type).map((outcome) => {
            const prices: PriceDto[] = [];
            for (const row of rows) {
              if (row.outcome !== outcome) continue;
              const tick = last.get(row.id);
              if (!tick || tick.state === 'removed') continue;
              prices.push(toPrice(row, tick));
            }
            prices.sort((a, b) => b.decimal - a.decimal || (a.book < b.book ? -1 : 1));
            if (prices.length > 0) any = true;
            return { outcome, name: outcomeLabel(event, spec, outcome), prices };
          });
          if (!any) continue;
          markets.push({
            key,
            type: spec.type,
            period: spec.period,
            point: spec.point,
            label: marketLabel(spec),
            main: true,
            outcomes,
          });
        }
        // Main lines are decided over every book, whatever books the client asked for (as /v1/odds does).
        markMainLines(markets);
        if (query.main) markets = markets.filter((market) => market.main);
        if (query.books) {
          const books = new Set<string>(query.books);
          markets = markets
            .map((market) => ({
              ...market,
              outcomes: market.outcomes.map((outcome) => ({
                ...outcome,
                prices: outcome.prices.filter((price) => books.has(price.book)),
              })),
            }))
            .filter((market) => market.outcomes.some((outcome) => outcome.prices.length > 0));
        }
        if (markets.length === 0) continue;
        out.push({ event: toEventDtoAt(event, at), markets });
      }
      return {
        as_of: iso(at),
        delay_seconds: delayMs(request.apiKey!.plan) / 1000,
        at: iso(at),
        previous_change_at: previous === null ? null : iso(previous),
        next_change_at: next === null ? null : iso(next),
        events: out,
      };
    },
  );
}
