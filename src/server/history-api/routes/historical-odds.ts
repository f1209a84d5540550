import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { specLabel, specOutcomeLabel, specOutcomes } from '#domain/market-labels.ts';
import { MARKET_TYPES, type MarketType } from '#domain/markets.ts';
import { formatAmerican, roundTo, type AmericanOdds } from '#domain/odds.ts';
import { API_FEATURES, delayMs } from '#domain/plans.ts';
import {
  BookKeySchema,
  LeagueKeySchema,
  PeriodSchema,
  ProblemSchema,
  PropStatSchema,
} from '#domain/schemas/api/common.ts';
import type { EventOddsDto, MarketDto, PriceDto } from '#domain/schemas/api/odds.ts';
import { HistoricalOddsResponseSchema } from '#domain/schemas/api/history.ts';
import type { HistoryEvent, SeriesIdentity, SeriesKey, SeriesTick } from '../../history/service.ts';
import { requireFeature } from '../../odds-api/auth.ts';
import {
  byMarket,
  cursorInteger,
  decodeCursor,
  encodeCursor,
  fingerprint,
  invalid,
  iso,
  marketTypeOf,
  oddsPlayerDto,
  PlayerParam,
  READ_BUDGET_MS,
  READ_BUDGET_PROBLEM,
  ReadGuard,
  seriesSpec,
  StatementSize,
  toEventDtoAt,
} from '../history-reads.ts';
import { markMainLines } from '../../odds-api/views.ts';
import { booleanParam, COMMON_ERRORS, csv, security, tags } from '../../odds-api/routes/common.ts';

// GET /v1/historical/odds (Elite, Enterprise): a league's odds board as it was at an instant, in the shape of
// /v1/odds, from the odds history, with the change times before and after it to walk through time (decision 113).
// Counts as 10 requests against the per-minute quota. In pages of events (decision 147): at most `limit` events and
// about 1 MB of JSON, continued by a signed cursor that also carries the first page's walk; the page is read a chunk
// of events at a time and its JSON built an event at a time, yielding the event loop between them.

export const HISTORICAL_ODDS_COST = 10;
export const HISTORICAL_DEFAULT_LIMIT = 25;
export const HISTORICAL_MAX_LIMIT = 100;
/** The JSON a page may hold (bytes, UTF-8); a page holds at least one event, whatever its size. */
export const HISTORICAL_PAGE_MAX_BYTES = 1024 * 1024;
/** Room kept in the cap for the answer's head (`as_of`, the walk, `next_cursor`). */
const HEAD_ROOM = 2048;
/**
 * Series one statement reads (and whose prices the next one reads), and series whose changes around `at` one statement
 * of the walk looks at: sized per request by what the last statement took (`StatementSize`), since on PGlite a
 * statement runs on the server's thread. 160 series took 2–4 ms on one machine and 6–13 ms on a slower one.
 */
const SERIES_PAGE = { initial: 100, min: 10, max: 400 } as const;
const WALK_PAGE = { initial: 100, min: 10, max: 400 } as const;

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
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(HISTORICAL_MAX_LIMIT)
    .optional()
    .describe(
      `Events per page, default ${HISTORICAL_DEFAULT_LIMIT}, at most ${HISTORICAL_MAX_LIMIT}. A page also ends before its JSON passes 1 MB (it holds at least one event).`,
    ),
  cursor: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      '`next_cursor` of the previous page, with the same `league`, `at` and filters (signed: an edited cursor is a 400).',
    ),
});

/** The board's order: start time, then id (compared as code units, the same on every page and driver). */
function compareEvents(a: { startsAt: number; id: string }, b: { startsAt: number; id: string }): number {
  return a.startsAt - b.startsAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const nullableTime = (cursor: Readonly<Record<string, unknown>>, field: string): number | null =>
  cursor[field] === null ? null : cursorInteger(cursor, field);

function toPrice(series: SeriesIdentity, tick: SeriesTick): PriceDto {
  return {
    book: series.book as PriceDto['book'],
    american: formatAmerican(tick.american as AmericanOdds),
    decimal: tick.decimal,
    implied_prob: roundTo(1 / tick.decimal, 6),
    updated_at: iso(tick.at),
    suspended: tick.state === 'suspended',
    links: NO_LINKS,
  };
}

/** Every price's `links` (the history keeps prices, not links): one object, serialized alike. */
const NO_LINKS: PriceDto['links'] = Object.freeze({ desktop: null, mobile: null });

type HistoricalQuery = z.infer<typeof HistoricalOddsQuery>;

/** Whether a series' market passes the market-level filters: type, period, player, stat. */
function wanted(row: SeriesIdentity, query: HistoricalQuery, playerIds: Set<string> | undefined): boolean {
  const spec = seriesSpec(row);
  if (!spec) return false;
  if (query.markets && !query.markets.includes(spec.type)) return false;
  if (query.period && spec.period !== query.period) return false;
  if (playerIds && !(row.player !== null && playerIds.has(row.player.id))) return false;
  if (query.stat && !(spec.type === 'prop' && query.stat.includes(spec.stat))) return false;
  return true;
}

/**
 * One event of the board at `at` in /v1/odds' shape, or null when no market of it is left. Built a market at a time,
 * letting the event loop turn between slices (an event of 160 markets × 15 books takes 7–12 ms on a slow machine).
 */
async function eventOdds(
  event: HistoryEvent,
  groups: Map<string, SeriesIdentity[]>,
  last: ReadonlyMap<number, SeriesTick>,
  query: HistoricalQuery,
  at: number,
  guard: ReadGuard,
): Promise<EventOddsDto | null> {
  let markets: MarketDto[] = [];
  for (const [key, rows] of groups) {
    await guard.pace();
    const first = rows[0]!;
    const spec = seriesSpec(first)!;
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
    const prop = spec.type === 'prop' && player ? { stat: spec.stat, player: oddsPlayerDto(player) } : {};
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
  const mainGroups = new Map<string, MarketDto[]>();
  for (const market of markets) {
    const group = market.type === 'prop' ? `${market.period}|${market.stat}|${market.player?.id}` : '';
    const members = mainGroups.get(group);
    if (members) members.push(market);
    else mainGroups.set(group, [market]);
  }
  for (const members of mainGroups.values()) markMainLines(members);
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
  return markets.length === 0 ? null : { event: toEventDtoAt(event, at), markets };
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
        summary:
          'The odds board of a league at a past instant, in pages (Elite, Enterprise; counts as 10 requests)',
        description: `The same shape as /v1/odds, as it was at \`at\`: for every event of the league the history knew then, each price is the last change recorded at or before \`at\`. A suspended price is shown with \`suspended: true\`; a removed one (withdrawn by the book, or the event over) is left out, as /v1/odds leaves it out. \`updated_at\` is when the change was recorded; \`links\` are null (the history keeps prices, not links). \`previous_change_at\` and \`next_change_at\` are the league’s changes strictly before and after \`at\`: ask again with either to step through every change. Player props are markets like any other, with \`stat\` and \`player\` as in /v1/odds; \`player\` and \`stat\` keep those player props only. The events come in pages, by start time: at most \`limit\` events (default 25, at most 100), and a page ends before its JSON passes 1 MB (it always holds at least one event); follow \`next_cursor\` with the same question until it is null (every page carries the first page’s \`previous_change_at\` and \`next_change_at\`). A read that needs more than ${READ_BUDGET_MS / 1000} s of server time is stopped with a 503 (\`read-budget-exceeded\`). Counts as 10 requests against the per-minute quota, each page.`,
        querystring: HistoricalOddsQuery,
        response: {
          200: HistoricalOddsResponseSchema.describe(
            'The board as it was at `at`: the events of the league with their prices then; `next_cursor` pages through events.',
          ),
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            'Not in your plan (`plan-feature`); `plans` names the plans that include it, `required_plan` the cheapest.',
          ),
          503: READ_BUDGET_PROBLEM,
        },
      },
    },
    async (request, reply) => {
      requireFeature(request, API_FEATURES.historicalOdds);
      const guard = new ReadGuard(request, reply, now);
      const query = request.query;
      const at = query.at;
      if (at > now()) throw invalid('at', '`at` must not be in the future');
      const limit = query.limit ?? HISTORICAL_DEFAULT_LIMIT;
      const print = fingerprint([
        'historical-odds',
        query.league,
        at,
        query.markets ?? null,
        query.stat ?? null,
        query.player ?? null,
        query.books ?? null,
        query.period ?? null,
        query.main ?? null,
      ]);
      const cursor = query.cursor ? decodeCursor(app.secrets, query.cursor, print) : undefined;
      const seriesSize = new StatementSize(SERIES_PAGE.initial, SERIES_PAGE.min, SERIES_PAGE.max);
      /** An event's series, a statement at a time. */
      async function* eventSeries(eventId: string): AsyncGenerator<SeriesIdentity[]> {
        let after: SeriesKey | undefined;
        for (;;) {
          guard.check();
          const asked = seriesSize.value;
          const page = await seriesSize.run((size) => app.history.seriesPage(eventId, after, size));
          await guard.turn();
          if (page.length > 0) yield page;
          if (page.length < asked) return;
          after = page.at(-1);
        }
      }

      guard.check();
      const events = (await app.history.eventsAt(query.league, at)).sort(compareEvents);
      let start = 0;
      let previous: number | null;
      let next: number | null;
      if (cursor) {
        const after = { startsAt: cursorInteger(cursor, 'a'), id: String(cursor.e) };
        start = events.findIndex((event) => compareEvents(event, after) > 0);
        if (start < 0) start = events.length;
        previous = nullableTime(cursor, 'p');
        next = nullableTime(cursor, 'n');
      } else {
        // The previous and next change of the board: a tick of an event known at `at`, or an event appearing or
        // ending (which covers events first seen after `at`, and events that ended before it). The player filter
        // narrows the board, not the walk: they stay the league's.
        guard.check();
        const around = await app.history.eventTimesAround(query.league, at);
        previous = around.previous;
        next = around.next;
        const take = (changes: { previous: number | null; next: number | null }) => {
          if (changes.previous !== null && (previous === null || changes.previous > previous))
            previous = changes.previous;
          if (changes.next !== null && (next === null || changes.next < next)) next = changes.next;
        };
        // The league's index of changes (decision 311): one series' probes. The walk below only where it does not
        // answer (history written before it, the rows format).
        guard.check();
        const indexed = await app.history.leagueChangesAround(query.league, at);
        if (indexed) take(indexed);
        const walkSize = new StatementSize(WALK_PAGE.initial, WALK_PAGE.min, WALK_PAGE.max);
        // Events in groups of about a statement's worth of series (one statement each, decision 277); an event larger
        // than a statement alone, in pages of its series.
        // The walk: the events known at `at`, and those that ended at `at` itself (not on the board, but their changes
        // before it are changes of the board before it; the index counts them too).
        guard.check();
        const walked = indexed
          ? []
          : [
              ...events,
              ...(await app.history.eventsAt(query.league, at - 1)).filter((event) => event.endedAt === at),
            ];
        guard.check();
        const counts = await app.history.seriesCounts(walked.map((event) => event.id));
        let index = 0;
        while (index < walked.length) {
          const size = walkSize.value;
          const group: string[] = [];
          let series = 0;
          while (index < walked.length) {
            const count = counts.get(walked[index]!.id) ?? 0;
            if (group.length > 0 && series + count > size) break;
            group.push(walked[index]!.id);
            series += count;
            index += 1;
          }
          if (series <= size) {
            guard.check();
            take(await walkSize.run(() => app.history.changesAroundEvents(group, at)));
            await guard.turn();
            continue;
          }
          let after: SeriesKey | undefined;
          for (;;) {
            guard.check();
            const asked = walkSize.value;
            const changes = await walkSize.run((size) =>
              app.history.changesAround(group[0]!, at, after, size),
            );
            await guard.turn();
            take(changes);
            if (changes.count < asked || changes.last === null) break;
            after = changes.last;
          }
        }
      }

      /** The page's events as UTF-8, each encoded once as it is built: the answer is their concatenation. */
      const parts: Buffer[] = [];
      let shown = 0;
      let bytes = 0;
      /** The last event this page went past (shown, or left out by the filters): the cursor continues after it. */
      let passed: HistoryEvent | undefined;
      let full = false;
      for (const event of events.slice(start)) {
        let playerIds: Set<string> | undefined;
        if (query.player !== undefined) {
          guard.check();
          playerIds = new Set(await app.history.playerIds(event.id, query.player));
        }
        const rows: SeriesIdentity[] = [];
        const last = new Map<number, SeriesTick>();
        for await (const page of eventSeries(event.id)) {
          // The filters are the market's (type, period, player, stat): every series of a market passes or none.
          const kept = page.filter((row) => wanted(row, query, playerIds));
          if (kept.length === 0) continue;
          rows.push(...kept);
          guard.check();
          // The prices' statement is as long as its page of series: its time sizes the next page too.
          const ticks = await seriesSize.run(() =>
            app.history.lastTicks(
              kept.map((row) => row.id),
              at,
            ),
          );
          for (const [id, tick] of ticks) last.set(id, tick);
          await guard.turn();
        }
        const dto = await eventOdds(event, byMarket(rows), last, query, at, guard);
        if (dto) {
          await guard.turn();
          const json = await eventJson(dto, guard);
          const size = json.bytes + 1;
          if (shown > 0 && (shown === limit || bytes + size > HISTORICAL_PAGE_MAX_BYTES - HEAD_ROOM)) {
            full = true;
            break;
          }
          if (shown > 0) parts.push(COMMA);
          parts.push(...json.parts);
          shown += 1;
          bytes += size;
        }
        passed = event;
        // An event at a time: other work (the feed, the streams, /healthz) runs between them.
        await guard.turn();
      }

      const nextCursor =
        full && passed
          ? encodeCursor(app.secrets, print, { a: passed.startsAt, e: passed.id, p: previous, n: next })
          : null;
      const head = {
        as_of: iso(at),
        delay_seconds: delayMs(request.apiKey!.plan) / 1000,
        at: iso(at),
        previous_change_at: previous === null ? null : iso(previous),
        next_change_at: next === null ? null : iso(next),
        next_cursor: nextCursor,
      };
      const text = Buffer.concat([
        Buffer.from(`${JSON.stringify(head).slice(0, -1)},"events":[`),
        ...parts,
        Buffer.from(']}'),
      ]);
      return sendJson(reply, text);
    },
  );
}

const COMMA = Buffer.from(',');

/**
 * An event's JSON as UTF-8 (the bytes of `JSON.stringify(dto)`), serialized a slice of markets at a time: an event of
 * 160 markets × 30 prices is ~0.4 MB of JSON, 4–6 ms of one call on a slow machine, so the event loop turns between
 * slices (READ_SLICE_MS).
 */
async function eventJson(dto: EventOddsDto, guard: ReadGuard): Promise<{ parts: Buffer[]; bytes: number }> {
  const parts = [Buffer.from(`{"event":${JSON.stringify(dto.event)},"markets":[`)];
  let bytes = parts[0]!.length;
  for (const [n, market] of dto.markets.entries()) {
    await guard.pace();
    const json = Buffer.from(n === 0 ? JSON.stringify(market) : `,${JSON.stringify(market)}`);
    parts.push(json);
    bytes += json.length;
  }
  parts.push(CLOSE_EVENT);
  return { parts, bytes: bytes + CLOSE_EVENT.length };
}

const CLOSE_EVENT = Buffer.from(']}');

/** Sends JSON bytes built by the handler: a page serialized an event at a time is not serialized again. */
function sendJson(reply: FastifyReply, text: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
