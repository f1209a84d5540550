import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { specLabel, specOutcomeLabel, specOutcomes } from '#domain/market-labels.ts';
import { MARKET_TYPES, type MarketType } from '#domain/markets.ts';
import { formatAmerican, roundTo, type AmericanOdds } from '#domain/odds.ts';
import { API_FEATURES, delayMs } from '#domain/plans.ts';
import {
  BookKeySchema,
  HistoricalOddsResponseSchema,
  LeagueKeySchema,
  PeriodSchema,
  ProblemSchema,
  PropStatSchema,
  type EventOddsDto,
  type MarketDto,
  type PriceDto,
} from '#domain/schemas/api.ts';
import type { HistorySeries, SeriesTick } from '../../history/service.ts';
import { requireFeature } from '../auth.ts';
import {
  byMarket,
  invalid,
  iso,
  marketTypeOf,
  oddsPlayerDto,
  PlayerParam,
  seriesSpec,
  toEventDtoAt,
} from '../history-reads.ts';
import { markMainLines } from '../views.ts';
import { booleanParam, COMMON_ERRORS, csv, security, tags } from './common.ts';

// GET /v1/historical/odds (Elite, Enterprise): a league's odds board as it was at an instant, in the shape of
// /v1/odds, from the odds history, with the change times before and after it to walk through time (decision 113).
// Counts as 10 requests against the per-minute quota.

export const HISTORICAL_ODDS_COST = 10;

/** A market type as the `markets` filter takes it (as /v1/odds does): `props` is `prop`. */
const MarketFilterSchema = z
  .enum([...MARKET_TYPES, 'props'])
  .transform((value): MarketType => marketTypeOf(value) as MarketType);

const HistoricalOddsQuery = z.object({
  league: LeagueKeySchema,
  at: z.iso
    .datetime({ offset: true })
    .transform((value) => Date.parse(value))
    .describe('The instant (ISO 8601, UTC): every price is the last change at or before it.'),
  markets: csv(MarketFilterSchema)
    .optional()
    .describe(
      'Comma-separated market types, e.g. `moneyline,spread`; `props` (or `prop`) selects player props: `moneyline,props`.',
    ),
  stat: csv(PropStatSchema)
    .optional()
    .describe(
      'Player props of these stats only, e.g. `player_points,player_rebounds`. With `stat`, game lines are left out.',
    ),
  player: PlayerParam.optional(),
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
          'The same shape as /v1/odds, as it was at `at`: for every event of the league the history knew then, each price is the last change recorded at or before `at`. A suspended price is shown with `suspended: true`; a removed one (withdrawn by the book, or the event over) is left out, as /v1/odds leaves it out. `updated_at` is when the change was recorded; `links` are null (the history keeps prices, not links). `previous_change_at` and `next_change_at` are the league’s changes strictly before and after `at`: ask again with either to step through every change. Player props are markets like any other, with `stat` and `player` as in /v1/odds; `player` and `stat` keep those player props only. Counts as 10 requests against the per-minute quota.',
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
      const eventIds = events.map((event) => event.id);
      // The player filter narrows the board, not the walk: previous/next change stay the league's.
      const series = await app.history.series(eventIds);
      const playerIds =
        query.player === undefined ? undefined : new Set(await app.history.playerIds(eventIds, query.player));
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
          const spec = seriesSpec(first);
          if (!spec) continue;
          if (query.markets && !query.markets.includes(spec.type)) continue;
          if (query.period && spec.period !== query.period) continue;
          if (playerIds && !(first.player !== null && playerIds.has(first.player.id))) continue;
          if (query.stat && !(spec.type === 'prop' && query.stat.includes(spec.stat))) continue;
          const player = first.player;
          let any = false;
          const outcomes = specOutcomes(spec).map((outcome) => {
            const prices: PriceDto[] = [];
            for (const row of rows) {
              if (row.outcome !== outcome) continue;
              const tick = last.get(row.id);
              if (!tick || tick.state === 'removed') continue;
              prices.push(toPrice(row, tick));
            }
            prices.sort((a, b) => b.decimal - a.decimal || (a.book < b.book ? -1 : 1));
            if (prices.length > 0) any = true;
            return { outcome, name: specOutcomeLabel(event, spec, outcome, player), prices };
          });
          if (!any) continue;
          // As /v1/odds: a prop carries its stat and player; a game line has neither key.
          const prop =
            spec.type === 'prop' && player ? { stat: spec.stat, player: oddsPlayerDto(player) } : {};
          markets.push({
            key,
            type: spec.type,
            period: spec.period,
            ...prop,
            point: spec.point,
            label: specLabel(spec, player),
            main: true,
            outcomes,
          });
        }
        // Main lines are decided over every book, whatever books the client asked for (as /v1/odds does).
        // A prop's lines compete within its player, stat and period: each such group is marked on its own.
        const groups = new Map<string, MarketDto[]>();
        for (const market of markets) {
          const group = market.type === 'prop' ? `${market.period}|${market.stat}|${market.player?.id}` : '';
          const members = groups.get(group);
          if (members) members.push(market);
          else groups.set(group, [market]);
        }
        for (const members of groups.values()) markMainLines(members);
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
