import { createHash, timingSafeEqual } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ClosingMarket } from '#domain/closing.ts';
import { DEFAULT_DEVIG_METHOD, type DevigMethod } from '#domain/devig.ts';
import { referenceFair, type FairReference, type MarketFair } from '#domain/history.ts';
import { specOutcomes } from '#domain/market-labels.ts';
import {
  LEAGUES,
  isGameMarketType,
  isPeriod,
  type LeagueKey,
  type MarketSpec,
  type MarketType,
} from '#domain/markets.ts';
import {
  decimalToAmerican,
  formatAmerican,
  roundTo,
  type AmericanOdds,
  type DecimalOdds,
} from '#domain/odds.ts';
import { isPropStatKey, type Player } from '#domain/props.ts';
import { ProblemSchema, type FairDto } from '#domain/schemas/api/common.ts';
import type { EventDto } from '#domain/schemas/api/odds.ts';
import {
  EventIdSchema,
  type HistoryEventDto,
  type HistoryPlayerDto,
  type LinePriceDto,
} from '#domain/schemas/api/history.ts';
import { HttpProblem } from '../http/problem.ts';
import { embeddedStatements } from '../history/sql-client.ts';
import type {
  HistoryEvent,
  HistoryPlayer,
  HistorySeries,
  SeriesIdentity,
  PricePoint,
  SeriesFilter,
} from '../history/service.ts';

// What the odds-history routes of /v1 (movement, lines, clv, historical odds; decisions 113 and 114) share: the DTOs
// of history rows, the market a client names, fair probabilities of one market, and the opaque page cursor. Reads go
// through app.history only.

/** ISO 8601 UTC, always with milliseconds. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** The event as /v1/odds shows it; `live` as it was at `at` (default: now). */
export function toEventDtoAt(event: HistoryEvent, at?: number): EventDto {
  const live =
    at === undefined
      ? event.liveAt !== null && event.endedAt === null
      : event.liveAt !== null && event.liveAt <= at && (event.endedAt === null || event.endedAt > at);
  return {
    id: event.id,
    league: event.league as LeagueKey,
    sport: LEAGUES[event.league as LeagueKey]?.sport ?? 'unknown',
    home: { ...event.home },
    away: { ...event.away },
    starts_at: iso(event.startsAt),
    live,
  };
}

export function toHistoryEventDto(event: HistoryEvent): HistoryEventDto {
  return {
    ...toEventDtoAt(event),
    first_seen_at: iso(event.firstSeenAt),
    live_at: event.liveAt === null ? null : iso(event.liveAt),
    ended_at: event.endedAt === null ? null : iso(event.endedAt),
    closed_at: event.closedAt === null ? null : iso(event.closedAt),
  };
}

export function linePrice(point: PricePoint): LinePriceDto {
  return {
    price: formatAmerican(point.american as AmericanOdds),
    decimal_odds: point.decimal,
    at: iso(point.at),
  };
}

/** American text of a decimal price, from the ticks that carried it when known (exact), else converted. */
export function americanOf(decimal: number, known: ReadonlyMap<number, number>): string {
  return formatAmerican((known.get(decimal) ?? decimalToAmerican(decimal as DecimalOdds)) as AmericanOdds);
}

export function historyEventNotFound(id: string): HttpProblem {
  return new HttpProblem(
    404,
    'event-not-found',
    'Event not found',
    `The odds history has no event with the id ${JSON.stringify(id.slice(0, 200))}.`,
  );
}

export function invalid(field: string, message: string): HttpProblem {
  return new HttpProblem(400, 'validation', 'Invalid request', 'One or more fields are invalid.', {
    errors: { [field]: [message] },
  });
}

/**
 * The market of a series as the domain knows it (a game line, or a prop of its stat and player), or null for a row
 * this version cannot name (a market type or stat it does not know).
 */
export function seriesSpec(series: SeriesIdentity): MarketSpec | null {
  if (!isPeriod(series.period)) return null;
  if (series.marketType === 'prop') {
    if (series.stat === null || !isPropStatKey(series.stat) || series.player === null) return null;
    return {
      type: 'prop',
      stat: series.stat,
      period: series.period,
      playerId: series.player.id,
      point: series.line,
    };
  }
  if (!isGameMarketType(series.marketType)) return null;
  return { type: series.marketType, period: series.period, point: series.line };
}

/** A prop series' player as movement and lines show him (`HistoryPlayerSchema`); null for game lines. */
export function playerDto(series: HistorySeries): HistoryPlayerDto | null {
  const player = series.player;
  return player && { id: player.id, name: player.name, team: player.team };
}

/**
 * The player of a prop market of /v1/historical/odds, in /v1/odds' `Player` shape (its `team` 'home', 'away', or
 * null when the source did not know it): the same rule as /v1/odds' `toPlayerDto` (views.ts), so the board now
 * equals /v1/odds.
 */
export function oddsPlayerDto(
  player: HistoryPlayer,
): Omit<Player, 'team'> & { team: 'home' | 'away' | null } {
  const team = player.team === 'home' || player.team === 'away' ? player.team : null;
  return { id: player.id, name: player.name, team };
}

/**
 * `player=` of the history routes: a player id (as `player.id` in the answers) or a name, compared as player matching
 * compares names (`normalizePlayerName`: case, accents, punctuation and suffixes ignored). Props only.
 */
export const PlayerParam = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe(
    'Player props of one player only (game lines are left out): the id (`player.id`) or the name, compared normalised (`Nikola Jokić` = `nikola jokic`).',
  );

/** `{eventId}` of the history routes: an id with control characters is a 400 before anything is read. */
export const EventIdParams = z.object({ eventId: EventIdSchema });

/** A market type as a client writes it: `props` is accepted for `prop`. */
export function marketTypeOf(value: string): string {
  return value === 'props' ? 'prop' : value;
}

/** A market as a client names it: a /v1/odds market key (with or without the event part), or a market type. */
export interface MarketChoice {
  filter: Pick<SeriesFilter, 'marketKey' | 'marketType'>;
  /** With a market type: only series of this line and period (undefined: any). */
  line?: number | null | undefined;
  period?: string | undefined;
}

export function chooseMarket(
  eventId: string,
  market: string,
  options: { line?: number | undefined; period?: string | undefined } = {},
): MarketChoice {
  if (market.includes('|')) {
    return { filter: { marketKey: market.startsWith(`${eventId}|`) ? market : `${eventId}|${market}` } };
  }
  return {
    filter: { marketType: marketTypeOf(market) as MarketType },
    line: options.line,
    period: options.period,
  };
}

export function matchesChoice(series: HistorySeries, choice: MarketChoice): boolean {
  if (choice.line !== undefined && series.line !== choice.line) return false;
  if (choice.period !== undefined && series.period !== choice.period) return false;
  return true;
}

/** What fair probabilities are asked for: the request's `reference=` and `devig=`, or the server's defaults. */
export interface FairChoice {
  reference: FairReference;
  method: DevigMethod;
}

/** The request's choice (`devig=`, `reference=`), else the defaults: Shin, and the server's `CLV_REFERENCE_BOOK`. */
export function fairChoice(
  defaultReference: string,
  asked: { devig?: DevigMethod | undefined; reference?: string | undefined },
): FairChoice {
  return { reference: asked.reference ?? defaultReference, method: asked.devig ?? DEFAULT_DEVIG_METHOD };
}

/**
 * Fair probabilities of one market (its series, every book) from the price `pick` takes of each series (the opening
 * or the closing line), from the reference and by the method of `choice` (referenceFair in src/domain/history.ts:
 * the consensus when the reference cannot give them, and the answer says why). Full precision in `exact`, 6 places
 * in `dto` (its `implied` inputs at full precision); null when no book priced every outcome.
 */
export function marketFair(
  series: readonly HistorySeries[],
  pick: (series: HistorySeries) => PricePoint | null,
  choice: FairChoice,
): { dto: FairDto; exact: Map<string, number> } | null {
  const spec = series[0] && seriesSpec(series[0]);
  if (!spec) return null;
  const outcomes = specOutcomes(spec);
  const byBook = new Map<string, (number | undefined)[]>();
  for (const row of series) {
    const index = outcomes.indexOf(row.outcome as (typeof outcomes)[number]);
    if (index < 0) continue;
    let decimals = byBook.get(row.book);
    if (!decimals) byBook.set(row.book, (decimals = outcomes.map(() => undefined)));
    decimals[index] = pick(row)?.decimal;
  }
  const fair = referenceFair(
    [...byBook].map(([book, decimals]) => ({ book, decimals })),
    choice,
  );
  if (!fair) return null;
  const exact = new Map(outcomes.map((outcome, index) => [outcome as string, fair.probabilities[index]!]));
  return { exact, dto: fairDto(fair, outcomes) };
}

/**
 * The fair close of every market among `series` (one event's, or several's: grouped by market key, in the series'
 * order), as POST /v1/grade measures CLV against it and GET /tools/closing.json carries it (decision 289): each
 * market's fair closing probabilities (`marketFair` of the closing prices, by `choice`) rounded to 6 places, an
 * outcome whose probability is 0 left out; a market no book priced in full at the close is left out. Keyed by event.
 */
export function closingMarkets(
  series: readonly HistorySeries[],
  choice: FairChoice,
): Map<string, ClosingMarket[]> {
  const groups = new Map<string, HistorySeries[]>();
  for (const row of series) {
    const group = groups.get(row.marketKey);
    if (group) group.push(row);
    else groups.set(row.marketKey, [row]);
  }
  const out = new Map<string, ClosingMarket[]>();
  for (const rows of groups.values()) {
    const first = rows[0]!;
    const closing = marketFair(rows, (row) => row.closing, choice);
    if (!closing) continue;
    const fair: Record<string, number> = {};
    for (const [outcome, p] of closing.exact) if (p > 0) fair[outcome] = roundTo(p, 6);
    const market: ClosingMarket = {
      market: first.marketType,
      period: first.period,
      line: first.line,
      ...(first.stat !== null && first.player !== null ? { stat: first.stat, player: first.player.id } : {}),
      fair,
    };
    const list = out.get(first.eventId);
    if (list) list.push(market);
    else out.set(first.eventId, [market]);
  }
  return out;
}

/**
 * A market's fair probabilities as the API shows them (`Fair`): per outcome key, the inputs at full precision and the
 * probabilities to 6 places, so that `method` applied to `implied` gives `probabilities`.
 */
export function fairDto(fair: MarketFair, outcomes: readonly string[]): FairDto {
  const perOutcome = (values: readonly number[], round: (value: number) => number) =>
    Object.fromEntries(outcomes.map((outcome, index) => [outcome, round(values[index]!)]));
  return {
    reference: fair.reference,
    reference_fallback: fair.fallback,
    method: fair.method,
    books: fair.books as FairDto['books'],
    implied: perOutcome(fair.implied, (value) => value),
    probabilities: perOutcome(fair.probabilities, (value) => roundTo(value, 6)),
  };
}

/**
 * Whether an opening was first recorded after the event's start (docs/decisions/161): an in-play price, not an
 * opening line. A price recorded at the start itself is still pre-match (it can be the closing line).
 */
export function isInPlayOpening(opening: PricePoint, event: Pick<HistoryEvent, 'startsAt'>): boolean {
  return opening.at > event.startsAt;
}

/** The series' opening when it is an opening line (recorded at or before the start), else null: `marketFair`'s pick. */
export function preMatchOpening(
  event: Pick<HistoryEvent, 'startsAt'>,
): (series: HistorySeries) => PricePoint | null {
  return (series) => (series.opening && !isInPlayOpening(series.opening, event) ? series.opening : null);
}

/** Series grouped by market key, in key order (a Map keeps insertion order). */
export function byMarket<T extends SeriesIdentity>(series: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of [...series].sort((a, b) =>
    a.marketKey < b.marketKey ? -1 : a.marketKey > b.marketKey ? 1 : 0,
  )) {
    const group = groups.get(row.marketKey);
    if (group) group.push(row);
    else groups.set(row.marketKey, [row]);
  }
  return groups;
}

// Page cursors: opaque to clients (base64url JSON, then `.` and its signature), bound to the question they continue
// (a fingerprint of the event, filters and window), so that a cursor sent with other filters is refused instead of
// silently skipping data, and signed with the server secret (decision 147), so that an edited one is refused too: what
// a cursor carries (a position, a pinned window, the walk of the first page) is trusted as the server wrote it.

/** What signs cursors: `app.secrets`. */
export interface CursorSigner {
  signCursor(payload: string): string;
}

export function fingerprint(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 12);
}

const CURSOR_VERSION = 2;
const notOurs = () => invalid('cursor', 'Not a cursor from this API');

/** A signed cursor of `fields` (numbers, strings or null) for the question `print`. */
export function encodeCursor(
  signer: CursorSigner,
  print: string,
  fields: Readonly<Record<string, number | string | null>>,
): string {
  const body = Buffer.from(JSON.stringify({ ...fields, v: CURSOR_VERSION, f: print })).toString('base64url');
  return `${body}.${signer.signCursor(body)}`;
}

/**
 * The fields of a cursor this server signed for the question `print`; a 400 (`validation`, field `cursor`) for
 * anything else: not ours, edited, of an older version, or continuing another question.
 */
export function decodeCursor(
  signer: CursorSigner,
  text: string,
  print: string,
): Readonly<Record<string, unknown>> {
  const [body, signature, ...rest] = text.split('.');
  if (!body || !signature || rest.length > 0) throw notOurs();
  const expected = Buffer.from(signer.signCursor(body));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notOurs();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw notOurs();
  }
  const cursor = value as Record<string, unknown> | null;
  if (typeof cursor !== 'object' || cursor === null || cursor.v !== CURSOR_VERSION) throw notOurs();
  if (cursor.f !== print) {
    throw invalid(
      'cursor',
      'This cursor continues another question: send the same filters as the first page',
    );
  }
  return cursor;
}

/** A field of a decoded cursor that must be a safe integer (a signed cursor always has it). */
export function cursorInteger(cursor: Readonly<Record<string, unknown>>, field: string): number {
  const value = cursor[field];
  if (!Number.isSafeInteger(value)) throw notOurs();
  return value as number;
}

// Every history read runs under a guard (decision 147): it stops once the client has gone (nobody would read the
// answer) and once it has spent its time budget (a 503 problem instead of running on). The routes call `check()`
// before each statement and between chunks of work; the service's statements are index lookups of bounded size.

/** The server time one history read may take. */
export const READ_BUDGET_MS = 5_000;

/**
 * The longest a read's JavaScript runs before it lets the event loop turn (ms): the bound is 20 ms on a loaded
 * machine 3× slower than a developer's laptop, so a slice is kept well under it (docs/decisions/180).
 */
export const READ_SLICE_MS = 4;

/**
 * How many rows the next statement of a read asks for. On the embedded database a statement runs on the server's
 * thread, and its time per row depends on the machine: a fixed size right for one machine holds the event loop three
 * times as long on one three times slower. So the size follows what the last statement took: it is scaled towards
 * `READ_SLICE_MS` (at most halved or doubled at a time), within [min, max] (decision 182).
 */
export class StatementSize {
  private size: number;

  constructor(
    initial: number,
    private readonly min: number,
    private readonly max: number,
  ) {
    this.size = initial;
  }

  get value(): number {
    return this.size;
  }

  /** After a statement asked for `value` rows and took `ms` (wall time of the await). */
  took(ms: number): void {
    const factor = Math.min(2, Math.max(0.5, READ_SLICE_MS / Math.max(ms, 0.01)));
    this.size = Math.min(this.max, Math.max(this.min, Math.round(this.size * factor)));
  }

  /**
   * Runs one statement of `value` rows and records its time: on the embedded database what the statement held the
   * thread for (its CPU time, not the time it was descheduled on a loaded machine) and the answer's handling after it;
   * a statement that waited behind another (the history writer's transaction) leaves the size as it is. Elsewhere (the
   * statement ran in PostgreSQL), its wall time.
   */
  async run<T>(statement: (size: number) => Promise<T>): Promise<T> {
    const started = performance.now();
    const before = embeddedStatements.count;
    const result = await statement(this.size);
    const ended = performance.now();
    let ms: number | null = ended - started;
    if (embeddedStatements.count !== before) {
      const held = embeddedStatements.lastHeldMs;
      ms = held === null ? null : held + (ended - embeddedStatements.lastEndedAt);
    }
    if (ms !== null) this.took(ms);
    return result;
  }
}

export const READ_BUDGET_PROBLEM = ProblemSchema.describe(
  `The read needed more than ${READ_BUDGET_MS / 1000} s of server time and was stopped (\`read-budget-exceeded\`): narrow the window (\`from\`/\`to\`), the filters, or \`limit\`.`,
);

export class ReadGuard {
  private readonly deadline: number;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly now: () => number,
    private readonly budgetMs = READ_BUDGET_MS,
  ) {
    this.deadline = now() + budgetMs;
  }

  /** When the current slice of work began (performance.now()). */
  private sliceStarted = performance.now();

  /**
   * Lets the event loop turn (other requests, the feed, /healthz run), then checks the client and the budget. Two
   * immediates, not one: a statement that completes in the poll phase would otherwise continue in the same loop
   * iteration's check phase, and the next statement would run before any due timer (a timer then waits for two
   * statements, 16–20 ms on a slow machine, as the bench's attribution showed; decision 180).
   */
  async turn(): Promise<void> {
    await nextTurn();
    await nextTurn();
    this.sliceStarted = performance.now();
    this.check();
  }

  /** Between small steps of a long computation: turns once the current slice has run `READ_SLICE_MS`. */
  async pace(): Promise<void> {
    if (performance.now() - this.sliceStarted >= READ_SLICE_MS) await this.turn();
  }

  /** Whether the client has gone: its socket closed, the answer can no longer be sent, or the request was aborted. */
  get clientGone(): boolean {
    return (
      this.request.raw.socket?.destroyed === true ||
      this.reply.raw.destroyed ||
      this.request.raw.readableAborted === true
    );
  }

  /** Throws when the client has gone (499, sent to nobody) or the budget is spent (503 `read-budget-exceeded`). */
  check(): void {
    if (this.clientGone) {
      throw new HttpProblem(499, 'client-closed-request', 'Client closed the request');
    }
    if (this.now() >= this.deadline) {
      throw new HttpProblem(
        503,
        'read-budget-exceeded',
        'Read stopped',
        `This read needed more than ${this.budgetMs / 1000} s of server time and was stopped. Narrow the window (from/to), the filters, or limit.`,
        { budget_ms: this.budgetMs },
      );
    }
  }
}
