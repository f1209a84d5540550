import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { candles, type Tick } from '#domain/history.ts';
import { MARKET_TYPES } from '#domain/markets.ts';
import { formatAmerican, type AmericanOdds } from '#domain/odds.ts';
import { API_FEATURES } from '#domain/plans.ts';
import {
  BookKeySchema,
  OutcomeKeySchema,
  ProblemSchema,
  PropStatSchema,
} from '#domain/schemas/api/common.ts';
import {
  MovementIntervalSchema,
  MovementResponseSchema,
  hasControlCharacter,
  type MovementSeriesDto,
} from '#domain/schemas/api/history.ts';
import type { HistorySeries, SeriesTick } from '../../history/service.ts';
import { requireFeature } from '../../odds-api/auth.ts';
import {
  americanOf,
  chooseMarket,
  cursorInteger,
  decodeCursor,
  encodeCursor,
  EventIdParams,
  fingerprint,
  historyEventNotFound,
  invalid,
  iso,
  playerDto,
  PlayerParam,
  READ_BUDGET_MS,
  READ_BUDGET_PROBLEM,
  ReadGuard,
  toHistoryEventDto,
} from '../history-reads.ts';
import { COMMON_ERRORS, csv, security, tags } from '../../odds-api/routes/common.ts';

// GET /v1/events/{eventId}/movement (Enterprise): the whole life of an event's prices from the odds history, every
// change (with its state, so suspensions show) or OHLC candles, paginated with an opaque cursor (decision 113). The
// database work of a page does not grow with the time the window spans (decision 147): the window is clamped to the
// event's life, ticks are read in chunks of series (empty buckets cost nothing: candles are made in memory), the page's
// cursor is signed and pins the window, and every read runs under a ReadGuard (client gone, time budget).

const INTERVAL_MS = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000 } as const;
const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 5000;
/** Ticks read per query while building candles. */
const TICK_CHUNK = 10_000;
/** Series whose candles are read together (one statement for the prices in force at their start, then their ticks). */
const SERIES_BATCH = 200;

const timeParam = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));

export const MarketParam = z
  .string()
  .min(1)
  .max(300)
  .refine(
    (value) =>
      (value.includes('|') && !hasControlCharacter(value)) ||
      value === 'props' ||
      (MARKET_TYPES as readonly string[]).includes(value),
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
  from: timeParam
    .optional()
    .describe(
      'ISO 8601 (UTC); default and earliest: when the history first saw the event (an earlier `from` is clamped to it).',
    ),
  to: timeParam
    .optional()
    .describe(
      'ISO 8601 (UTC), inclusive; default and latest: the event’s end, or now (a later `to` is clamped to it: no candles of times to come).',
    ),
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
  cursor: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe(
      '`next_cursor` of the previous page, with the same filters. It is signed (an edited cursor is a 400) and carries the window of the first page: later pages continue that window even without `to`.',
    ),
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

/** The ticks of a batch of series in one window, series by series in id order, read TICK_CHUNK at a time. */
class BatchTicks {
  private buffer: SeriesTick[] = [];
  private position = 0;
  private exhausted = false;

  constructor(
    private readonly read: (after: { seriesId: number; atUs: number } | undefined) => Promise<SeriesTick[]>,
    private after: { seriesId: number; atUs: number } | undefined,
  ) {}

  /**
   * The next ticks of series `id` held in the chunk read (reading the next chunk when none is left), and whether
   * they are its last ones in the window.
   */
  async next(id: number): Promise<{ ticks: SeriesTick[]; complete: boolean }> {
    for (;;) {
      while (this.position < this.buffer.length && this.buffer[this.position]!.seriesId < id)
        this.position += 1;
      if (this.position < this.buffer.length) {
        const start = this.position;
        while (this.position < this.buffer.length && this.buffer[this.position]!.seriesId === id)
          this.position += 1;
        const ticks = this.buffer.slice(start, this.position);
        return { ticks, complete: this.position < this.buffer.length || this.exhausted };
      }
      if (this.exhausted) return { ticks: [], complete: true };
      this.buffer = await this.read(this.after);
      this.position = 0;
      this.exhausted = this.buffer.length < TICK_CHUNK;
      const last = this.buffer.at(-1);
      if (last) this.after = { seriesId: last.seriesId, atUs: last.atUs };
    }
  }
}

/** Index of the first tick at or after `at`. */
function firstAtOrAfter(ticks: readonly Tick[], at: number): number {
  let lo = 0;
  let hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ticks[mid]!.at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

type CandleDto = NonNullable<MovementSeriesDto['candles']>[number];

export async function movementRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/events/:eventId/movement',
    {
      schema: {
        tags,
        security,
        summary: 'Line movement of one event, its whole life (Enterprise)',
        description: `From the odds history: every recorded change of the event’s prices, oldest first per series (event, market, line, outcome, book), each \`{at, price, decimal_odds, state}\`: \`suspended\` and \`removed\` ticks show when a price could not be taken. With \`interval\`, OHLC candles of decimal odds per series over open prices (a candle describes its whole bucket, so the first and last may reach outside \`from\`/\`to\`). Player props are series like any other (\`market_type: prop\`, with \`stat\` and \`player\`). Filter with \`market\` (\`prop\` for every prop), \`player\`, \`stat\`, \`book\`, \`outcome\`, \`from\`, \`to\`. The window is the event’s life at most: from when the history first saw it to its end (or now); the answer’s \`from\` and \`to\` are the window read (when the asked window and the event’s life do not overlap, the page is empty and \`to\` is before \`from\`). Pages hold at most \`limit\` points or candles; follow \`next_cursor\` until it is null: the first page pins the window, so later pages continue it while time passes. A read that needs more than ${READ_BUDGET_MS / 1000} s of server time is stopped with a 503 (\`read-budget-exceeded\`). \`gaps\` lists stretches where the history lost changes.`,
        params: EventIdParams,
        querystring: MovementQuery,
        response: {
          200: MovementResponseSchema.describe(
            'One page of price changes (or candles with `interval`) per series, oldest first; `next_cursor` fetches the next page.',
          ),
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            'Not in your plan (`plan-feature`); `plans` names the plans that include it, `required_plan` the cheapest.',
          ),
          404: ProblemSchema.describe('The odds history has never seen this event (`event-not-found`).'),
          503: READ_BUDGET_PROBLEM,
        },
      },
    },
    async (request, reply) => {
      requireFeature(request, API_FEATURES.lineMovement);
      const guard = new ReadGuard(request, reply, now);
      const { eventId } = request.params;
      const query = request.query;
      if (query.from !== undefined && query.to !== undefined && query.from > query.to)
        throw invalid('from', '`from` must not be after `to`');
      const limit = query.limit ?? DEFAULT_LIMIT;
      // The question as asked (`to` as given, not as computed: the cursor carries the window it continues).
      const print = fingerprint([
        eventId,
        query.market,
        query.book,
        query.outcome,
        query.from ?? null,
        query.to ?? null,
        query.interval ?? null,
        ...(query.player === undefined && query.stat === undefined ? [] : [query.player, query.stat]),
      ]);
      const cursor = query.cursor ? decodeCursor(app.secrets, query.cursor, print) : undefined;
      const after = cursor && { s: cursorInteger(cursor, 's'), u: cursorInteger(cursor, 'u') };

      guard.check();
      const event = await app.history.event(eventId);
      if (!event) throw historyEventNotFound(eventId);
      // The event's life bounds the window: nothing was recorded before the history saw it, nothing after its end
      // (or now) can be. The first page's `to` is pinned in its cursor.
      const lifeEnd = event.endedAt ?? Math.max(now(), event.firstSeenAt);
      const from = Math.max(query.from ?? event.firstSeenAt, event.firstSeenAt);
      const to = cursor ? cursorInteger(cursor, 't') : Math.min(query.to ?? lifeEnd, lifeEnd);
      const choice = query.market ? chooseMarket(eventId, query.market) : undefined;
      const out: MovementSeriesDto[] = [];
      let next: { s: number; u: number } | null = null;

      if (from <= to) {
        guard.check();
        const playerIds =
          query.player === undefined ? undefined : await app.history.playerIds(eventId, query.player);
        guard.check();
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
        if (query.interval === undefined) {
          next = await points(series, from, to, limit, after, out);
        } else {
          next = await candlePage(series, INTERVAL_MS[query.interval], from, to, limit, after, out);
        }
      }

      guard.check();
      const gaps = from <= to ? await app.history.gaps(from, to) : [];
      return {
        event: toHistoryEventDto(event),
        from: iso(from),
        to: iso(to),
        interval: query.interval ?? null,
        series: out,
        gaps: gaps.map((gap) => ({
          from: iso(gap.from),
          to: iso(gap.to),
          dropped_changes: gap.droppedChanges,
          cause: gap.cause,
        })),
        next_cursor: next && encodeCursor(app.secrets, print, { ...next, t: to }),
      };

      /** A page of every change: one statement, `limit + 1` ticks (the last one says whether more follow). */
      async function points(
        series: HistorySeries[],
        start: number,
        end: number,
        max: number,
        position: { s: number; u: number } | undefined,
        into: MovementSeriesDto[],
      ): Promise<{ s: number; u: number } | null> {
        const byId = new Map(series.map((row) => [row.id, row]));
        guard.check();
        const ticks = await app.history.ticks([...byId.keys()], {
          from: start,
          to: end,
          limit: max + 1,
          after: position && { seriesId: position.s, atUs: position.u },
        });
        const page = ticks.slice(0, max);
        let current: MovementSeriesDto | undefined;
        let currentId: number | undefined;
        for (const tick of page) {
          // Ticks come ordered by series, then time: a new series id starts a new entry.
          if (current === undefined || currentId !== tick.seriesId) {
            currentId = tick.seriesId;
            current = { ...seriesKey(byId.get(tick.seriesId)!), points: [] };
            into.push(current);
          }
          current.points!.push({
            at: iso(tick.at),
            price: formatAmerican(tick.american as AmericanOdds),
            decimal_odds: tick.decimal,
            state: tick.state,
          });
        }
        return ticks.length > max ? { s: page.at(-1)!.seriesId, u: page.at(-1)!.atUs } : null;
      }

      /**
       * A page of candles. Series are read SERIES_BATCH at a time: one statement for the prices in force at their
       * first bucket (two when the page resumes inside a series), then their ticks in the window, TICK_CHUNK per
       * statement. Buckets without ticks are made in memory from the price in force, so the statements depend on
       * the series and the ticks, never on the time the window spans.
       */
      async function candlePage(
        series: HistorySeries[],
        intervalMs: number,
        start: number,
        end: number,
        max: number,
        position: { s: number; u: number } | undefined,
        into: MovementSeriesDto[],
      ): Promise<{ s: number; u: number } | null> {
        const firstBucket = Math.floor(start / intervalMs) * intervalMs;
        const lastBucket = Math.floor(end / intervalMs) * intervalMs;
        let remaining = max;
        let index = position ? series.findIndex((row) => row.id >= position.s) : 0;
        if (index < 0) return null;
        while (index < series.length) {
          const batch = series.slice(index, index + SERIES_BATCH);
          index += batch.length;
          // Only the first batch can hold the series the cursor resumes, and only as its first.
          const resumed = position && batch[0]!.id === position.s ? position : undefined;
          const fresh = batch.filter((row) => row.id !== resumed?.s).map((row) => row.id);
          guard.check();
          const before = await app.history.lastTicks(fresh, firstBucket - 1);
          if (resumed) {
            guard.check();
            const at = (await app.history.lastTicks([resumed.s], resumed.u - 1)).get(resumed.s);
            if (at) before.set(resumed.s, at);
          }
          const reader = new BatchTicks(
            (afterTick) => {
              guard.check();
              return app.history.ticks(
                batch.map((row) => row.id),
                { from: firstBucket, to: lastBucket + intervalMs - 1, limit: TICK_CHUNK, after: afterTick },
              );
            },
            resumed && { seriesId: resumed.s, atUs: resumed.u * 1000 - 1 },
          );
          for (const row of batch) {
            const bucket = resumed && row.id === resumed.s ? resumed.u : firstBucket;
            if (remaining === 0) return { s: row.id, u: bucket };
            const made = await seriesCandles(
              row,
              reader,
              before.get(row.id),
              intervalMs,
              bucket,
              lastBucket,
              remaining,
            );
            if (made.candles.length > 0) into.push({ ...seriesKey(row), candles: made.candles });
            remaining -= made.candles.length;
            if (made.next !== null) return { s: row.id, u: made.next };
          }
        }
        return null;
      }

      /**
       * Up to `max` candles of one series from bucket `start` to `lastBucket`, and the bucket of the next one when
       * more follow (null: the series has no more in the window, or none is known to follow yet).
       */
      async function seriesCandles(
        row: HistorySeries,
        reader: BatchTicks,
        before: SeriesTick | undefined,
        intervalMs: number,
        start: number,
        lastBucket: number,
        max: number,
      ): Promise<{ candles: CandleDto[]; next: number | null }> {
        const made: CandleDto[] = [];
        let pending: Tick[] = before ? [before] : [];
        /** American prices of the decimals seen (a candle's American text is the tick's own when known). */
        const american = new Map<number, number>(before ? [[before.decimal, before.american]] : []);
        for (;;) {
          const { ticks, complete } = await reader.next(row.id);
          for (const tick of ticks) american.set(tick.decimal, tick.american);
          pending = pending.concat(ticks);
          // Read to its end, every bucket is known; otherwise the last tick's bucket may have more ticks to come.
          const last = pending.at(-1);
          const end = complete
            ? lastBucket
            : Math.min(lastBucket, Math.floor(last!.at / intervalMs) * intervalMs - intervalMs);
          if (end >= start) {
            const left = max - made.length;
            const built = candles(pending, intervalMs, start, end, left + 1);
            for (const candle of built.slice(0, left)) made.push(candleDto(candle, american));
            if (built.length > left) return { candles: made, next: built[left]!.at };
            if (made.length === max) {
              return { candles: made, next: end < lastBucket ? end + intervalMs : null };
            }
            start = end + intervalMs;
          }
          if (complete || start > lastBucket) return { candles: made, next: null };
          // Keep what later buckets need: the tick in force before `start`, and the ticks from `start` on.
          pending = pending.slice(Math.max(0, firstAtOrAfter(pending, start) - 1));
        }
      }
    },
  );
}

function candleDto(
  candle: { at: number; open: number; high: number; low: number; close: number },
  american: ReadonlyMap<number, number>,
): CandleDto {
  return {
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
  };
}
