import { createHash } from 'node:crypto';
import { z } from 'zod';
import { fairProbabilities } from '#domain/history.ts';
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
import type { EventDto, HistoryEventDto, HistoryPlayerDto, LinePriceDto } from '#domain/schemas/api.ts';
import { HttpProblem } from '../http/problem.ts';
import type {
  HistoryEvent,
  HistoryPlayer,
  HistorySeries,
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
export function seriesSpec(series: HistorySeries): MarketSpec | null {
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

export interface FairDto {
  reference: string;
  probabilities: Record<string, number>;
}

/**
 * Fair probabilities of one market (its series, every book) from the price `pick` takes of each series (the opening
 * or the closing line): the reference book's prices de-vigged when it priced every outcome, else the consensus
 * (fairProbabilities in src/domain/history.ts). Full precision in `exact`, 6 places in `dto`; null when no book
 * priced every outcome.
 */
export function marketFair(
  series: readonly HistorySeries[],
  pick: (series: HistorySeries) => PricePoint | null,
  referenceBook: string,
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
  const fair = fairProbabilities(
    [...byBook].map(([book, decimals]) => ({ book, decimals })),
    referenceBook,
  );
  if (!fair) return null;
  const exact = new Map(outcomes.map((outcome, index) => [outcome as string, fair.probabilities[index]!]));
  return {
    exact,
    dto: {
      reference: fair.reference,
      probabilities: Object.fromEntries([...exact].map(([outcome, p]) => [outcome, roundTo(p, 6)])),
    },
  };
}

/** Series grouped by market key, in key order (a Map keeps insertion order). */
export function byMarket(series: readonly HistorySeries[]): Map<string, HistorySeries[]> {
  const groups = new Map<string, HistorySeries[]>();
  for (const row of [...series].sort((a, b) =>
    a.marketKey < b.marketKey ? -1 : a.marketKey > b.marketKey ? 1 : 0,
  )) {
    const group = groups.get(row.marketKey);
    if (group) group.push(row);
    else groups.set(row.marketKey, [row]);
  }
  return groups;
}

// The page cursor: opaque to clients (base64url JSON), bound to the question it continues (a fingerprint of the
// event and filters), so that a cursor sent with other filters is refused instead of silently skipping data.

export interface PageCursor {
  /** Series id of the next item. */
  s: number;
  /** Points: the last tick's time in unix µs (the next page starts after it). Candles: the next bucket (unix ms). */
  u: number;
}

export function fingerprint(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 12);
}

export function encodeCursor(cursor: PageCursor, print: string): string {
  return Buffer.from(JSON.stringify({ v: 1, f: print, s: cursor.s, u: cursor.u })).toString('base64url');
}

export function decodeCursor(text: string, print: string): PageCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor', 'Not a cursor from this API');
  }
  const cursor = value as { v?: unknown; f?: unknown; s?: unknown; u?: unknown } | null;
  if (
    !cursor ||
    cursor.v !== 1 ||
    typeof cursor.f !== 'string' ||
    !Number.isSafeInteger(cursor.s) ||
    !Number.isSafeInteger(cursor.u)
  ) {
    throw invalid('cursor', 'Not a cursor from this API');
  }
  if (cursor.f !== print) {
    throw invalid(
      'cursor',
      'This cursor continues another question: send the same filters as the first page',
    );
  }
  return { s: cursor.s as number, u: cursor.u as number };
}
