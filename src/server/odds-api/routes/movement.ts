import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { candles, type Tick } from '#domain/history.ts';
import { MARKET_TYPES } from '#domain/markets.ts';
import { formatAmerican, type AmericanOdds } from '#domain/odds.ts';
import { API_FEATURES } from '#domain/plans.ts';
import {
  BookKeySchema,
  MovementIntervalSchema,
  MovementResponseSchema,
  OutcomeKeySchema,
  ProblemSchema,
  PropStatSchema,
  type MovementSeriesDto,
} from '#domain/schemas/api.ts';
import type { HistorySeries, SeriesTick } from '../../history/service.ts';
import { requireFeature } from '../auth.ts';
import {
  americanOf,
  chooseMarket,
  decodeCursor,
  encodeCursor,
  fingerprint,
  historyEventNotFound,
  invalid,
  iso,
  playerDto,
  PlayerParam,
  toHistoryEventDto,
  type PageCursor,
} from '../history-reads.ts';
import { COMMON_ERRORS, csv, security, tags } from './common.ts';

// GET /v1/events/{eventId}/movement (Enterprise): the whole life of an event's prices from the odds history, every
// change (with its state, so suspensions show) or OHLC candles, paginated with an opaque cursor (decision 113).

const INTERVAL_MS = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000 } as const;
const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 5000;
/** Ticks read per query while building candles. */
const TICK_CHUNK = 10_000;

const timeParam = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));

export const MarketParam = z
  .string()
  .min(1)
  .max(300)
  .refine(
    (value) =>
      value.includes('|') || value === 'props' || (MARKET_TYPES as readonly string[]).includes(value),
    'A market key from /v1/odds (`<event>|spread|full|-3.5`), or one of moneyline, spread, total, 1x2, prop',
  );

const MovementQuery = z.object({
  market: MarketParam.optional().describe(
    'A market key as `key` in /v1/odds (the event part may be left out), or a market type (every line of it; `prop` or `props`: every player prop).',
  ),
  player: PlayerParam.optional(),
  stat: csv(PropStatSchema)
    .optional()
    .describe(
      'Player props of these stats only, e.g. `player_points`. With `stat`, game lines are left out.',
    ),
  book: BookKeySchema.optional(),
  outcome: OutcomeKeySchema.optional(),
  from: timeParam.optional().describe('ISO 8601 (UTC); default: when the history first saw the event.'),
  to: timeParam.optional().describe('ISO 8601 (UTC), inclusive; default: the event’s end, or now.'),
  interval: MovementIntervalSchema.optional().describe(
    'Candles of this width instead of every change: `{at, open, high, low, close}` in decimal odds, plus `american`.',
  ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .optional()
    .describe(`Points (or candles) per page, default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}.`),
  cursor: z.string().min(1).max(500).optional().describe('`next_cursor` of the previous page.'),
});

const seriesKey = (series: HistorySeries) => ({
  market: series.marketKey,
  market_type: series.marketType as MovementSeriesDto['market_type'],
  period: series.period as MovementSeriesDto['period'],
  line: series.line,
  stat: series.stat as MovementSeriesDto['stat'],
  player: playerDto(series),
  outcome: series.outcome as MovementSeriesDto['outcome'],
  book: series.book as MovementSeriesDto['book'],
});

export async function movementRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /** Candles of one series over the buckets starting in [start, end] (both multiples of the interval). */
  async function seriesCandles(id: number, intervalMs: number, start: number, end: number) {
    const ticks: Tick[] = [];
    const before = (await app.history.lastTicks([id], start - 1)).get(id);
    if (before) ticks.push(before);
    let after: { seriesId: number; atUs: number } | undefined;
    for (;;) {
      const page: SeriesTick[] = await app.history.ticks([id], {
        from: start,
        to: end + intervalMs - 1,
        limit: TICK_CHUNK,
        after,
      });
      ticks.push(...page);
      if (page.length < TICK_CHUNK) break;
      const last = page[page.length - 1]!;
      after = { seriesId: last.seriesId, atUs: last.atUs };
    }
    const american = new Map(ticks.map((tick) => [tick.decimal, tick.american]));
    return candles(ticks, intervalMs, start, end).map((candle) => ({
      at: iso(candle.at),
      open: candle.open,
      high: candle.high,
      low: candle.low,
      close: candle.close,
      american: {
        open: americanOf(candle.open, american),
        high: americanOf(candle.high, american),
        low: americanOf(candle.low, american),
        close: americanOf(candle.close, american),
      },
    }));
  }

  routes.get(
    '/events/:eventId/movement',
    {
      schema: {
        tags,
        security,
        summary: 'Line movement of one event, its whole life (Enterprise)',
        description:
          'From the odds history: every recorded change of the event’s prices, oldest first per series (event, market, line, outcome, book), each `{at, price, decimal_odds, state}`: `suspended` and `removed` ticks show when a price could not be taken. With `interval`, OHLC candles of decimal odds per series over open prices (a candle describes its whole bucket, so the first and last may reach outside `from`/`to`). Player props are series like any other (`market_type: prop`, with `stat` and `player`). Filter with `market` (`prop` for every prop), `player`, `stat`, `book`, `outcome`, `from`, `to`. Pages hold at most `limit` points or candles; follow `next_cursor` until it is null. `gaps` lists stretches where the history lost changes.',
        params: z.object({ eventId: z.string().min(1).max(200) }),
        querystring: MovementQuery,
        response: {
          200: MovementResponseSchema,
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            'Not in your plan (`plan-feature`); `plans` names the plans that include it, `required_plan` the cheapest.',
          ),
          404: ProblemSchema.describe('The odds history has never seen this event (`event-not-found`).'),
        },
      },
    },
    async (request) => {
      requireFeature(request, API_FEATURES.lineMovement);
      const { eventId } = request.params;
      const query = request.query;
      const event = await app.history.event(eventId);
      if (!event) throw historyEventNotFound(eventId);
      const from = query.from ?? event.firstSeenAt;
      const to = query.to ?? event.endedAt ?? Math.max(now(), from);
      if (from > to) throw invalid('from', '`from` must not be after `to`');
      const limit = query.limit ?? DEFAULT_LIMIT;
      const choice = query.market ? chooseMarket(eventId, query.market) : undefined;
      const playerIds =
        query.player === undefined ? undefined : await app.history.playerIds(eventId, query.player);
      const series = (
        playerIds?.length === 0
          ? []
          : await app.history.series(eventId, {
              ...choice?.filter,
              book: query.book,
              outcome: query.outcome,
              playerIds,
              stats: query.stat,
            })
      ).sort((a, b) => a.id - b.id);
      const print = fingerprint([
        eventId,
        query.market,
        query.book,
        query.outcome,
        from,
        to,
        query.interval ?? null,
        // Last and only when given, so cursors of questions without it stay what they were.
        ...(query.player === undefined && query.stat === undefined ? [] : [query.player, query.stat]),
      ]);
      const cursor: PageCursor | undefined = query.cursor ? decodeCursor(query.cursor, print) : undefined;
      const byId = new Map(series.map((row) => [row.id, row]));
      const out: MovementSeriesDto[] = [];
      let next: PageCursor | null = null;

      if (query.interval === undefined) {
        const ticks = await app.history.ticks([...byId.keys()], {
          from,
          to,
          limit: limit + 1,
          after: cursor && { seriesId: cursor.s, atUs: cursor.u },
        });
        const page = ticks.slice(0, limit);
        if (ticks.length > limit) next = { s: page.at(-1)!.seriesId, u: page.at(-1)!.atUs };
        let current: MovementSeriesDto | undefined;
        let currentId: number | undefined;
        for (const tick of page) {
          // Ticks come ordered by series, then time: a new series id starts a new entry.
          if (current === undefined || currentId !== tick.seriesId) {
            currentId = tick.seriesId;
            current = { ...seriesKey(byId.get(tick.seriesId)!), points: [] };
            out.push(current);
          }
          current.points!.push({
            at: iso(tick.at),
            price: formatAmerican(tick.american as AmericanOdds),
            decimal_odds: tick.decimal,
            state: tick.state,
          });
        }
      } else {
        const intervalMs = INTERVAL_MS[query.interval];
        const firstBucket = Math.floor(from / intervalMs) * intervalMs;
        const lastBucket = Math.floor(to / intervalMs) * intervalMs;
        let remaining = limit;
        outer: for (const row of series) {
          if (cursor && row.id < cursor.s) continue;
          let start = cursor && row.id === cursor.s ? cursor.u : firstBucket;
          let entry: MovementSeriesDto | undefined;
          while (start <= lastBucket) {
            if (remaining === 0) {
              next = { s: row.id, u: start };
              break outer;
            }
            // remaining + 1 buckets: enough to fill the page and to know whether more follow.
            const end = Math.min(lastBucket, start + remaining * intervalMs);
            const made = await seriesCandles(row.id, intervalMs, start, end);
            const taken = made.slice(0, remaining);
            if (taken.length > 0) {
              if (!entry) out.push((entry = { ...seriesKey(row), candles: [] }));
              entry.candles!.push(...taken);
            }
            if (made.length > remaining) {
              next = { s: row.id, u: Date.parse(made[remaining]!.at) };
              break outer;
            }
            remaining -= taken.length;
            start = end + intervalMs;
          }
        }
      }

      return {
        event: toHistoryEventDto(event),
        from: iso(from),
        to: iso(to),
        interval: query.interval ?? null,
        series: out,
        gaps: (await app.history.gaps(from, to)).map((gap) => ({
          from: iso(gap.from),
          to: iso(gap.to),
          dropped_changes: gap.droppedChanges,
          cause: gap.cause,
        })),
        next_cursor: next && encodeCursor(next, print),
      };
    },
  );
}
