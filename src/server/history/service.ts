import type { BoxScore, GradeResult, Score } from '#domain/grading.ts';
import type { LeagueKey, Period, Team } from '#domain/markets.ts';
import { normalizePlayerName } from '#domain/player-matching.ts';
import type { Tick } from '#domain/history.ts';
import { MAX_FINALS, type GameScore, type PlayerFigures } from '#engine/scores.ts';
import {
  changesAroundEvents,
  changesAroundPage,
  changesAroundSeries,
  firstChangeFrom,
  lastTicksBefore,
  LEAGUE_INDEX_BOOK,
  LEAGUE_INDEX_MARKET,
  LEAGUE_INDEX_OUTCOME,
  leagueIndexEvent,
  ticksBetween,
  usText,
  type StoredTick,
} from './price-blocks.ts';
import type { HistoryRecorder } from './recorder.ts';
import type { SqlClient } from './sql-client.ts';
import type { HistoryFence, HistoryWriter } from './writer.ts';

// Reads of the odds history (app.history): the queries behind /v1/events/{id}/movement, /lines, /v1/clv,
// /v1/historical/odds and /tools/history.json. Every read is an index lookup on history_events (event_id),
// history_series (event_id, …) or price_ticks (series_id, at); none scans an event's ticks to find a line.

export interface HistoryEvent {
  id: string;
  league: string;
  home: Team;
  away: Team;
  /** Unix ms. */
  startsAt: number;
  firstSeenAt: number;
  liveAt: number | null;
  endedAt: number | null;
  /** When the closing lines were taken (null: the event has not started, or its start moved). */
  closedAt: number | null;
  /** The final score of each period (issue 57); null until the game is final. */
  finalScore: Partial<Record<Period, Score>> | null;
  /** When the final arrived (unix ms); null until then. */
  completedAt: number | null;
  /** The final's box score (decision 261): the figures of the players who played; null when the source gave none. */
  boxScore: BoxScore | null;
  /** False when the source scores only the game, no period (decision 262): period bets on it are not graded. */
  periodsReported: boolean;
}

/** A final as the history keeps it, with what a list of results shows of its event (`HistoryService.finalsSince`). */
export interface HistoryFinal {
  id: string;
  league: string;
  home: Team;
  away: Team;
  /** Unix ms. */
  startsAt: number;
  /** The final score of each period, `full` included. */
  finalScore: Partial<Record<Period, Score>>;
  /** When the final arrived (unix ms). */
  completedAt: number;
  /**
   * Its box score (decisions 261, 282): every player priced on its props, named as his series name him, with his
   * figures, or `played: false`; null when the source gave none.
   */
  players: PlayerFigures[] | null;
  /** False when the source scores only the game, no period (decision 262). */
  periodsReported: boolean;
}

/**
 * A final the history keeps as the scoreboard holds one (its league a known one): what the results feed and
 * GET /v1/scores show of a game this instance's scoreboard does not hold (an `api` instance, a restart; decision 283).
 */
export function historyGameScore(final: HistoryFinal & { league: LeagueKey }): GameScore {
  const full = final.finalScore.full ?? { home: 0, away: 0 };
  return {
    eventId: final.id,
    league: final.league,
    home: final.home,
    away: final.away,
    startsAt: final.startsAt,
    status: 'final',
    score: full,
    periods: final.finalScore,
    clock: null,
    updatedAt: final.completedAt,
    completedAt: final.completedAt,
    periodScores: final.periodsReported,
    players: final.players,
  };
}

export interface PricePoint {
  /** Unix ms (UTC). */
  at: number;
  american: number;
  decimal: number;
}

export interface HistorySeries {
  id: number;
  eventId: string;
  marketKey: string;
  marketType: string;
  period: string;
  line: number | null;
  outcome: string;
  book: string;
  sideId: string;
  /** Props only (null for game lines): the stat key (`player_points`). */
  stat: string | null;
  /** Props only: the player as the event's roster named him when the series was first seen. */
  player: HistoryPlayer | null;
  opening: PricePoint | null;
  closing: PricePoint | null;
  /**
   * How the series' outcome settled once the game is final (issue 57); null before, and when it cannot be graded (a
   * prop without a box score, a period of a game scored only as a whole: decisions 261, 262).
   */
  result: GradeResult | null;
}

export interface HistoryPlayer {
  id: string;
  name: string;
  /** null when the source listed him without a team. */
  team: 'home' | 'away' | null;
}

/** A series without its opening and closing lines: what a board of prices needs of it (`seriesPage`). */
export type SeriesIdentity = Omit<HistorySeries, 'opening' | 'closing' | 'result'>;

/** Where a series sits in an event's key order (the history_series_key index after event_id). */
export interface SeriesKey {
  marketKey: string;
  outcome: string;
  book: string;
}

export interface SeriesTick extends Tick {
  seriesId: number;
  /** Unix microseconds: unique and increasing within a series (the pagination cursor). */
  atUs: number;
}

export interface SeriesFilter {
  marketKey?: string | undefined;
  marketType?: string | undefined;
  book?: string | undefined;
  outcome?: string | undefined;
  sideIds?: readonly string[] | undefined;
  /** Props of these players only (their ids; see `playerIds`). */
  playerIds?: readonly string[] | undefined;
  /** Props of these stats only. */
  stats?: readonly string[] | undefined;
  /** Game lines only (no props): the calibration report. */
  gameLines?: boolean | undefined;
  /** Series of any of these market keys or market types (POST /v1/clv: every bet's market in one statement). */
  markets?: { keys: readonly string[]; types: readonly string[] } | undefined;
}

export interface HistoryGap {
  from: number;
  to: number;
  droppedChanges: number;
  /** `queue-full`: changes dropped while the database was away; `takeover`: the window between two ingest leaders. */
  cause: 'queue-full' | 'takeover';
}

const STATES: Readonly<Record<number, Tick['state']>> = { 0: 'open', 1: 'suspended', 2: 'removed' };

interface EventRowSql {
  event_id: string;
  league: string;
  home: Team | string;
  away: Team | string;
  starts_at: string;
  first_seen_at: string;
  live_at: string | null;
  ended_at: string | null;
  closed_at: string | null;
  final_score: Partial<Record<Period, Score>> | string | null;
  completed_at: string | null;
  box_score: BoxScore | string | null;
  periods_reported: boolean | null;
}

interface FinalRowSql {
  event_id: string;
  league: string;
  home: Team | string;
  away: Team | string;
  starts_at: string;
  final_score: Partial<Record<Period, Score>> | string;
  completed_at: string;
  box_score: BoxScore | string | null;
  periods_reported: boolean | null;
}

interface SeriesRowSql {
  id: number;
  event_id: string;
  market_key: string;
  market_type: string;
  period: string;
  line: number | null;
  outcome: string;
  book: string;
  side_id: string;
  stat: string | null;
  player_id: string | null;
  player_name: string | null;
  player_team: string | null;
  opening_at: string | null;
  opening_american: number | null;
  opening_decimal: number | null;
  closing_at: string | null;
  closing_american: number | null;
  closing_decimal: number | null;
  result: GradeResult | null;
}

interface TickRowSql {
  series_id: number;
  at_us: string | number;
  american: number;
  decimal: number;
  state: number;
}

/** Times leave SQL as unix ms (text, exact) so both drivers answer alike. */
const MS = (column: string, alias = column) =>
  `(extract(epoch from ${column}) * 1000)::int8::text AS ${alias}`;
const US = (column: string, alias: string) =>
  `(extract(epoch from ${column}) * 1000000)::int8::text AS ${alias}`;

const EVENT_COLUMNS = `event_id, league, home, away, ${MS('starts_at')}, ${MS('first_seen_at')}, ${MS('live_at')},
  ${MS('ended_at')}, ${MS('closed_at')}, final_score, ${MS('completed_at')}, box_score, periods_reported`;
const FINAL_COLUMNS = `event_id, league, home, away, ${MS('starts_at')}, final_score, ${MS('completed_at')}, box_score,
  periods_reported`;

/**
 * The events whose final arrived at or after $1 (unix ms), the latest first, at most $2: a range of the
 * history_events_completed index (migration 0014, decision 283), which holds only the events with a final, in this
 * order.
 */
export const completedSinceSql = (columns: string) => `SELECT ${columns} FROM history_events
       WHERE completed_at >= ${AT(1)} AND final_score IS NOT NULL
       ORDER BY completed_at DESC, event_id LIMIT $2`;

const SERIES_COLUMNS = `id, event_id, market_key, market_type, period, line, outcome, book, side_id,
  stat, player_id, player_name, player_team, ${MS('opening_at')}, opening_american, opening_decimal, ${MS('closing_at')}, closing_american, closing_decimal,
  result`;

/**
 * A series' identity as one JSON array per row: a page of series leaves the database as one JSON value. A driver
 * turns every field of every row into a string of its own (PGlite copies each into a buffer of its own first); one
 * field parsed with JSON.parse allocates a fraction of that (decision 182).
 */
const IDENTITY_TUPLE = `id, event_id, market_key, market_type, period, line, outcome, book, side_id, stat, player_id,
  player_name, player_team`;
type IdentityTuple = [
  number,
  string,
  string,
  string,
  string,
  number | null,
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
];
/** A series' last tick as one JSON array: id, time (unix µs, exact in a double), American, decimal, state. */
type TickTuple = [number, number, number, number, number];

function identityOfTuple(t: IdentityTuple): SeriesIdentity {
  return {
    id: t[0],
    eventId: t[1],
    marketKey: t[2],
    marketType: t[3],
    period: t[4],
    line: t[5],
    outcome: t[6],
    book: t[7],
    sideId: t[8],
    stat: t[9],
    player: playerOf(t[10], t[11], t[12]),
  };
}

function playerOf(id: string | null, name: string | null, team: string | null): HistoryPlayer | null {
  return id === null
    ? null
    : { id, name: name ?? id, team: team === 'home' || team === 'away' ? team : null };
}

/** A unix-ms parameter as an exact timestamptz. */
const AT = (n: number) => `(timestamptz 'epoch' + $${n}::int8 * interval '1 millisecond')`;
/**
 * A timestamptz parameter (given as `usText`) for the statements on price_ticks: known when the statement is planned,
 * so the planner leaves out the day partitions it rules out (decision 277).
 */
const TZ = (n: number) => `$${n}::timestamptz`;
const msText = (ms: number) => usText(ms * 1000);

const time = (value: string | null): number | null => (value === null ? null : Number(value));
const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function toEvent(row: EventRowSql): HistoryEvent {
  return {
    id: row.event_id,
    league: row.league,
    home: json(row.home),
    away: json(row.away),
    startsAt: Number(row.starts_at),
    firstSeenAt: Number(row.first_seen_at),
    liveAt: time(row.live_at),
    endedAt: time(row.ended_at),
    closedAt: time(row.closed_at),
    finalScore: row.final_score === null ? null : json(row.final_score),
    completedAt: time(row.completed_at),
    boxScore: row.box_score === null ? null : json(row.box_score),
    periodsReported: row.periods_reported !== false,
  };
}

function toSeries(row: SeriesRowSql): HistorySeries {
  return {
    id: row.id,
    eventId: row.event_id,
    marketKey: row.market_key,
    marketType: row.market_type,
    period: row.period,
    line: row.line,
    outcome: row.outcome,
    book: row.book,
    sideId: row.side_id,
    stat: row.stat,
    player: playerOf(row.player_id, row.player_name, row.player_team),
    opening:
      row.opening_at === null
        ? null
        : { at: Number(row.opening_at), american: row.opening_american!, decimal: row.opening_decimal! },
    closing:
      row.closing_at === null
        ? null
        : { at: Number(row.closing_at), american: row.closing_american!, decimal: row.closing_decimal! },
    result: row.result,
  };
}

function toTick(row: TickRowSql): SeriesTick {
  const atUs = Number(row.at_us);
  return {
    seriesId: row.series_id,
    atUs,
    at: Math.floor(atUs / 1000),
    american: row.american,
    decimal: row.decimal,
    state: STATES[row.state] ?? 'removed',
  };
}

function storedTick(tick: StoredTick): SeriesTick {
  return {
    seriesId: tick.seriesId,
    atUs: tick.atUs,
    at: Math.floor(tick.atUs / 1000),
    american: tick.american,
    decimal: tick.decimal,
    state: STATES[tick.state] ?? 'removed',
  };
}

/** A time in µs as SQL's `(extract(epoch from at) * 1000)::int8` gives it in ms: rounded, halves up. */
const roundedMs = (us: number): number => Math.floor((us + 500) / 1000);

/** How many finals' players `finalsSince` keeps (as many as the scoreboard keeps finals). */
const FINAL_PLAYERS_KEPT = MAX_FINALS;

export class HistoryService {
  /** Rows format: whether price_blocks held a row at the last look (`lookForBlocks`). */
  private blocksStored = false;
  /** The priced players of the finals read (`finalsSince`), by event: a final does not change, so read once. */
  private readonly finalPlayers = new Map<string, readonly HistoryPlayer[]>();
  /** Each league's index series (decision 311), once found (it is never deleted). */
  private readonly leagueIndexIds = new Map<string, number>();

  constructor(
    private readonly db: SqlClient,
    private readonly recorder: HistoryRecorder,
    private readonly writer: HistoryWriter,
  ) {}

  /**
   * Whether the reads look at blocks too (decision 240): always under the blocks format; under the rows format once
   * price_blocks held a row at the last look (blocks written before a switch back stay readable). Otherwise today's
   * row statements, unchanged.
   */
  private readsBlocks(): boolean {
    return this.writer.openBlocks !== null || this.blocksStored;
  }

  /**
   * Rows format: looks whether price_blocks holds a row; blocks format: whether price_ticks still does (rows written
   * before the switch). At start, and with each maintenance.
   */
  async lookForBlocks(): Promise<void> {
    const open = this.writer.openBlocks;
    const table = open ? 'price_ticks' : 'price_blocks';
    const [row] = await this.db.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${table}) AS any`);
    if (open) open.rowsStored = row?.any === true;
    else this.blocksStored = row?.any === true;
  }

  /** Hands what the recorder holds to the writer and waits until it is written (tests; shutdown). */
  async flush(timeoutMs = 10_000): Promise<boolean> {
    const batch = this.recorder.cut();
    if (batch) this.writer.enqueue(batch);
    return this.writer.drain(timeoutMs);
  }

  /** ROLE=ingest, on taking the lead: what is gathered from now on is written under this fence (decision 146). */
  lead(fence: HistoryFence): void {
    // What an earlier lead of this instance gathered goes out under that lead's token.
    const batch = this.recorder.cut();
    if (batch) this.writer.enqueue(batch);
    this.writer.lead(fence);
  }

  /** Partitions ahead, retention and size cap now (the plugin runs it every 10 minutes). */
  async maintain(): Promise<void> {
    await this.writer.maintain();
    await this.lookForBlocks();
  }

  stats() {
    return { ...this.writer.stats(), pendingChanges: this.recorder.pendingRows };
  }

  async event(id: string): Promise<HistoryEvent | undefined> {
    const rows = await this.db.query<EventRowSql>(
      `SELECT ${EVENT_COLUMNS} FROM history_events WHERE event_id = $1`,
      [id],
    );
    return rows[0] ? toEvent(rows[0]) : undefined;
  }

  /** The events of these ids the history knows, by id: one statement for a whole batch (POST /v1/clv). */
  async events(ids: readonly string[]): Promise<Map<string, HistoryEvent>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.query<EventRowSql>(
      `SELECT ${EVENT_COLUMNS} FROM history_events WHERE event_id = ANY($1::text[])`,
      [[...new Set(ids)]],
    );
    return new Map(rows.map((row) => [row.event_id, toEvent(row)]));
  }

  /** Events whose final arrived at or after `since` (unix ms), the latest first, at most `limit` (the calibration report). */
  async completedSince(since: number, limit: number): Promise<HistoryEvent[]> {
    const rows = await this.db.query<EventRowSql>(completedSinceSql(EVENT_COLUMNS), [since, limit]);
    return rows.map(toEvent);
  }

  /**
   * The finals that arrived at or after `since` (unix ms), the latest first, at most `limit`, with only what a results
   * list and a prop's grading need: the public results feed (decisions 282, 283).
   */
  async finalsSince(since: number, limit: number): Promise<HistoryFinal[]> {
    const rows = await this.db.query<FinalRowSql>(completedSinceSql(FINAL_COLUMNS), [since, limit]);
    const missing = rows
      .filter((row) => row.box_score !== null && !this.finalPlayers.has(row.event_id))
      .map((row) => row.event_id);
    if (missing.length > 0) {
      const read = await this.propPlayers(missing);
      for (const id of missing) {
        this.finalPlayers.set(id, read.get(id) ?? []);
        if (this.finalPlayers.size > FINAL_PLAYERS_KEPT)
          this.finalPlayers.delete(this.finalPlayers.keys().next().value!);
      }
    }
    return rows.map((row) => {
      const box: BoxScore | null = row.box_score === null ? null : json(row.box_score);
      return {
        id: row.event_id,
        league: row.league,
        home: json(row.home),
        away: json(row.away),
        startsAt: Number(row.starts_at),
        finalScore: json(row.final_score),
        completedAt: Number(row.completed_at),
        periodsReported: row.periods_reported !== false,
        players:
          box === null
            ? null
            : (this.finalPlayers.get(row.event_id) ?? []).map((player) => ({
                id: player.id,
                name: player.name,
                team: player.team ?? '',
                played: Object.prototype.hasOwnProperty.call(box, player.id),
                periods: box[player.id] ?? {},
              })),
      };
    });
  }

  /**
   * The players priced on props of each event (their ids, and the names and teams the roster gave them when their
   * series were first seen): who a kept box score's figures belong to, and who in it did not play (decision 282).
   */
  private async propPlayers(eventIds: readonly string[]): Promise<Map<string, HistoryPlayer[]>> {
    const out = new Map<string, HistoryPlayer[]>();
    if (eventIds.length === 0) return out;
    const rows = await this.db.query<{
      event_id: string;
      player_id: string;
      player_name: string | null;
      player_team: string | null;
    }>(
      `SELECT DISTINCT ON (event_id, player_id) event_id, player_id, player_name, player_team FROM history_series
       WHERE event_id = ANY($1::text[]) AND player_id IS NOT NULL
       ORDER BY event_id, player_id`,
      [[...eventIds]],
    );
    for (const row of rows) {
      let players = out.get(row.event_id);
      if (!players) out.set(row.event_id, (players = []));
      players.push(playerOf(row.player_id, row.player_name, row.player_team)!);
    }
    return out;
  }

  /** Events of a league the history knew at `at` (first seen at or before it, not ended before it). */
  async eventsAt(league: string, at: number): Promise<HistoryEvent[]> {
    const rows = await this.db.query<EventRowSql>(
      `SELECT ${EVENT_COLUMNS} FROM history_events
       WHERE league = $1 AND first_seen_at <= ${AT(2)}
         AND (ended_at IS NULL OR ended_at > ${AT(2)})
       ORDER BY starts_at, event_id`,
      [league, at],
    );
    return rows.map(toEvent);
  }

  /**
   * A league's fixture arrivals and ends around `at` (unix ms): the latest strictly before it and the earliest
   * strictly after. With the ticks of the events known at `at`, they bound the board's previous and next change
   * (an event that appears, or ends, changes the board too). Index lookups on history_events.
   */
  async eventTimesAround(
    league: string,
    at: number,
  ): Promise<{ previous: number | null; next: number | null }> {
    const [row] = await this.db.query<{ previous: string | null; next: string | null }>(
      `SELECT
         (SELECT (extract(epoch from max(t)) * 1000)::int8::text FROM (
            SELECT max(first_seen_at) AS t FROM history_events WHERE league = $1 AND first_seen_at < ${AT(2)}
            UNION ALL SELECT max(ended_at) FROM history_events WHERE league = $1 AND ended_at < ${AT(2)}) AS b)
           AS previous,
         (SELECT (extract(epoch from min(t)) * 1000)::int8::text FROM (
            SELECT min(first_seen_at) AS t FROM history_events WHERE league = $1 AND first_seen_at > ${AT(2)}
            UNION ALL SELECT min(ended_at) FROM history_events WHERE league = $1 AND ended_at > ${AT(2)}) AS a)
           AS next`,
      [league, at],
    );
    return { previous: time(row?.previous ?? null), next: time(row?.next ?? null) };
  }

  /**
   * The league's changes around `at` (unix ms) from its index of changes (decision 311): the latest strictly before it
   * and the earliest strictly after, in ms as `changesAroundEvents` gives them, over every event of the league (with
   * `eventTimesAround`, what the walk over the events known at `at` answers). Null when the index does not answer:
   * the rows format (it is kept in blocks only), rows still stored (written by a writer that kept no index), no index
   * yet, or none of its changes before `at` (history older than the index: the walk).
   */
  async leagueChangesAround(
    league: string,
    at: number,
  ): Promise<{ previous: number | null; next: number | null } | null> {
    const open = this.writer.openBlocks;
    if (open === null || open.rowsStored) return null;
    let id = this.leagueIndexIds.get(league);
    if (id === undefined) {
      const [row] = await this.db.query<{ id: number }>(
        `SELECT id FROM history_series WHERE event_id = $1 AND market_key = $2 AND outcome = $3 AND book = $4`,
        [leagueIndexEvent(league), LEAGUE_INDEX_MARKET, LEAGUE_INDEX_OUTCOME, LEAGUE_INDEX_BOOK],
      );
      if (!row) return null;
      id = row.id;
      this.leagueIndexIds.set(league, id);
    }
    const around = await changesAroundSeries(this.db, open, [id], at * 1000, (at + 1) * 1000);
    if (around.previous === null) return null;
    return {
      previous: Math.floor(around.previous / 1000),
      next: around.next === null ? null : roundedMs(around.next),
    };
  }

  /** The event's series, in a stable order (market, outcome, book), narrowed by the filter. */
  async series(eventIds: string | readonly string[], filter: SeriesFilter = {}): Promise<HistorySeries[]> {
    const where = ['event_id = ANY($1::text[])'];
    const params: unknown[] = [typeof eventIds === 'string' ? [eventIds] : [...eventIds]];
    const add = (clause: string, value: unknown) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (filter.marketKey !== undefined) add('market_key = ?', filter.marketKey);
    if (filter.marketType !== undefined) add('market_type = ?', filter.marketType);
    if (filter.book !== undefined) add('book = ?', filter.book);
    if (filter.outcome !== undefined) add('outcome = ?', filter.outcome);
    if (filter.sideIds !== undefined) add('side_id = ANY(?::text[])', [...filter.sideIds]);
    if (filter.playerIds !== undefined) add('player_id = ANY(?::text[])', [...filter.playerIds]);
    if (filter.stats !== undefined) add('stat = ANY(?::text[])', [...filter.stats]);
    if (filter.gameLines) where.push('stat IS NULL');
    if (filter.markets !== undefined) {
      params.push([...filter.markets.keys], [...filter.markets.types]);
      where.push(
        `(market_key = ANY($${params.length - 1}::text[]) OR market_type = ANY($${params.length}::text[]))`,
      );
    }
    const rows = await this.db.query<SeriesRowSql>(
      `SELECT ${SERIES_COLUMNS} FROM history_series WHERE ${where.join(' AND ')}
       ORDER BY event_id, market_key, outcome, book`,
      params,
    );
    return rows.map(toSeries);
  }

  /**
   * One event's series in key order (market, outcome, book), at most `limit`, after the series `after` when given:
   * a range of the (event_id, market_key, outcome, book) index, so that a large event is read in statements of a
   * bounded size.
   */
  async seriesPage(eventId: string, after: SeriesKey | undefined, limit: number): Promise<SeriesIdentity[]> {
    const [row] = await this.db.query<{ rows: IdentityTuple[] | string }>(
      `SELECT coalesce(json_agg(json_build_array(${IDENTITY_TUPLE}) ORDER BY market_key, outcome, book), '[]') AS rows
       FROM (SELECT * FROM history_series
             WHERE event_id = $1 AND (market_key, outcome, book) > ($2, $3, $4)
             ORDER BY market_key, outcome, book LIMIT $5) AS s`,
      [eventId, after?.marketKey ?? '', after?.outcome ?? '', after?.book ?? '', limit],
    );
    return json(row!.rows).map(identityOfTuple);
  }

  /**
   * The ids of the events' players that `player` names: a player id, or a name compared after
   * `normalizePlayerName` (accents, case, punctuation and suffixes do not matter). Every player it names: two
   * players of one name are both kept (the answer names each series' player). Reads the players of the events'
   * prop series through the (event_id, player_id) index.
   */
  async playerIds(eventIds: string | readonly string[], player: string): Promise<string[]> {
    const rows = await this.db.query<{ player_id: string; player_name: string | null }>(
      `SELECT DISTINCT player_id, player_name FROM history_series
       WHERE event_id = ANY($1::text[]) AND player_id IS NOT NULL`,
      [typeof eventIds === 'string' ? [eventIds] : [...eventIds]],
    );
    const wanted = normalizePlayerName(player);
    const ids = new Set<string>();
    for (const row of rows) {
      if (
        row.player_id === player ||
        (wanted !== '' && row.player_name !== null && normalizePlayerName(row.player_name) === wanted)
      ) {
        ids.add(row.player_id);
      }
    }
    return [...ids].sort();
  }

  /** Per series, the last tick at or before `at` (unix ms), or at all when `at` is omitted. */
  async lastTicks(seriesIds: readonly number[], at?: number): Promise<Map<number, SeriesTick>> {
    if (seriesIds.length === 0) return new Map();
    if (this.readsBlocks()) {
      const found = await lastTicksBefore(
        this.db,
        this.writer.openBlocks,
        seriesIds,
        at === undefined ? null : (at + 1) * 1000,
      );
      return new Map([...found].map(([id, tick]) => [id, storedTick(tick)]));
    }
    const bound = at === undefined ? '' : `AND p.at < ${TZ(2)}`;
    const [row] = await this.db.query<{ rows: TickTuple[] | string }>(
      `SELECT coalesce(json_agg(json_build_array(s.id, t.at_us, t.american, t.decimal, t.state)), '[]') AS rows
       FROM unnest($1::int4[]) AS s(id)
       CROSS JOIN LATERAL (
         SELECT (extract(epoch from p.at) * 1000000)::int8 AS at_us, p.american, p.decimal, p.state FROM price_ticks p
         WHERE p.series_id = s.id ${bound} ORDER BY p.at DESC LIMIT 1
       ) AS t`,
      at === undefined ? [[...seriesIds]] : [[...seriesIds], msText(at + 1)],
    );
    const ticks = new Map<number, SeriesTick>();
    for (const [seriesId, atUs, american, decimal, state] of json(row!.rows))
      ticks.set(seriesId, toTick({ series_id: seriesId, at_us: atUs, american, decimal, state }));
    return ticks;
  }

  /** The first change of any of the series strictly after `at` (unix ms), or null. */
  async nextChangeAfter(seriesIds: readonly number[], at: number): Promise<number | null> {
    if (seriesIds.length === 0) return null;
    if (this.readsBlocks()) return this.firstChangeFrom(seriesIds, (at + 1) * 1000);
    const rows = await this.db.query<{ at: string | null }>(
      `SELECT ${MS('min(t.at)', 'at')} FROM unnest($1::int4[]) AS s(id)
       CROSS JOIN LATERAL (
         SELECT p.at FROM price_ticks p WHERE p.series_id = s.id AND p.at >= ${TZ(2)}
         ORDER BY p.at LIMIT 1
       ) AS t`,
      [[...seriesIds], msText(at + 1)],
    );
    return time(rows[0]?.at ?? null);
  }

  /**
   * Over one event's series in key order (at most `limit`, after the key `after` when given): the last change of any
   * of them strictly before `at` (unix ms) and the first strictly after it, or null (what lastTicks(ids, at − 1) and
   * nextChangeAfter(ids, at) say), with how many series it looked at and the last one's key, to continue. One
   * statement answering one row: /v1/historical/odds' walk over a league without reading its series.
   */
  async changesAround(
    eventId: string,
    at: number,
    after: SeriesKey | undefined,
    limit: number,
  ): Promise<{ previous: number | null; next: number | null; count: number; last: SeriesKey | null }> {
    if (this.readsBlocks()) return this.changesAroundBlocks(eventId, at, after, limit);
    const [row] = await this.db.query<{
      previous: string | null;
      next: string | null;
      count: number;
      market_key: string | null;
      outcome: string | null;
      book: string | null;
    }>(
      `WITH s AS MATERIALIZED (
         SELECT id, market_key, outcome, book FROM history_series
         WHERE event_id = $1 AND (market_key, outcome, book) > ($4, $5, $6)
         ORDER BY market_key, outcome, book LIMIT $7),
       last AS (SELECT market_key, outcome, book FROM s ORDER BY market_key DESC, outcome DESC, book DESC LIMIT 1)
       SELECT
         (SELECT count(*) FROM s)::int AS count,
         (SELECT market_key FROM last) AS market_key,
         (SELECT outcome FROM last) AS outcome,
         (SELECT book FROM last) AS book,
         (SELECT floor(extract(epoch from max(t.at)) * 1000)::int8::text FROM s
            CROSS JOIN LATERAL (
              SELECT p.at FROM price_ticks p WHERE p.series_id = s.id AND p.at < ${TZ(2)}
              ORDER BY p.at DESC LIMIT 1
            ) AS t) AS previous,
         (SELECT (extract(epoch from min(t.at)) * 1000)::int8::text FROM s
            CROSS JOIN LATERAL (
              SELECT p.at FROM price_ticks p WHERE p.series_id = s.id AND p.at >= ${TZ(3)}
              ORDER BY p.at LIMIT 1
            ) AS t) AS next`,
      [
        eventId,
        msText(at),
        msText(at + 1),
        after?.marketKey ?? '',
        after?.outcome ?? '',
        after?.book ?? '',
        limit,
      ],
    );
    return {
      previous: time(row?.previous ?? null),
      next: time(row?.next ?? null),
      count: row?.count ?? 0,
      last:
        row?.market_key == null
          ? null
          : { marketKey: row.market_key, outcome: row.outcome!, book: row.book! },
    };
  }

  /** How many series each of the events has (events without any are left out): the board's walk groups them. */
  async seriesCounts(eventIds: readonly string[]): Promise<Map<string, number>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.db.query<{ event_id: string; n: number }>(
      `SELECT event_id, count(*)::int AS n FROM history_series WHERE event_id = ANY($1::text[]) GROUP BY event_id`,
      [[...eventIds]],
    );
    return new Map(rows.map((row) => [row.event_id, row.n]));
  }

  /**
   * Over every series of the events: the last change strictly before `at` (unix ms) and the first strictly after it,
   * or null, in one statement: `changesAround` for whole events, so that the board's walk over a league of small
   * events takes a statement per group of them rather than one per event (decision 277).
   */
  async changesAroundEvents(
    eventIds: readonly string[],
    at: number,
  ): Promise<{ previous: number | null; next: number | null }> {
    if (eventIds.length === 0) return { previous: null, next: null };
    if (this.readsBlocks()) {
      const around = await changesAroundEvents(
        this.db,
        this.writer.openBlocks,
        eventIds,
        at * 1000,
        (at + 1) * 1000,
      );
      return {
        previous: around.previous === null ? null : Math.floor(around.previous / 1000),
        next: around.next === null ? null : roundedMs(around.next),
      };
    }
    const [row] = await this.db.query<{ previous: string | null; next: string | null }>(
      `WITH s AS MATERIALIZED (SELECT id FROM history_series WHERE event_id = ANY($1::text[]))
       SELECT
         (SELECT floor(extract(epoch from max(t.at)) * 1000)::int8::text FROM s
            CROSS JOIN LATERAL (
              SELECT p.at FROM price_ticks p WHERE p.series_id = s.id AND p.at < ${TZ(2)}
              ORDER BY p.at DESC LIMIT 1
            ) AS t) AS previous,
         (SELECT (extract(epoch from min(t.at)) * 1000)::int8::text FROM s
            CROSS JOIN LATERAL (
              SELECT p.at FROM price_ticks p WHERE p.series_id = s.id AND p.at >= ${TZ(3)}
              ORDER BY p.at LIMIT 1
            ) AS t) AS next`,
      [[...eventIds], msText(at), msText(at + 1)],
    );
    return { previous: time(row?.previous ?? null), next: time(row?.next ?? null) };
  }

  /**
   * Ticks of the series in [from, to] (unix ms, inclusive), ordered by series then time, at most `limit`, after
   * the cursor (series id, microseconds) when given.
   */
  async ticks(
    seriesIds: readonly number[],
    options: {
      from: number;
      to: number;
      limit: number;
      after?: { seriesId: number; atUs: number } | undefined;
    },
  ): Promise<SeriesTick[]> {
    if (seriesIds.length === 0) return [];
    const after = options.after ?? { seriesId: -1, atUs: 0 };
    if (this.readsBlocks()) {
      const found = await ticksBetween(this.db, this.writer.openBlocks, seriesIds, {
        fromUs: options.from * 1000,
        toUs: (options.to + 1) * 1000,
        limit: options.limit,
        after,
      });
      return found.map(storedTick);
    }
    const rows = await this.db.query<TickRowSql>(
      `SELECT p.series_id, ${US('p.at', 'at_us')}, p.american, p.decimal, p.state FROM price_ticks p
       WHERE p.series_id = ANY($1::int4[])
         AND p.at >= ${TZ(2)} AND p.at < ${TZ(3)}
         AND (p.series_id, p.at) > ($4::int4, ${TZ(5)})
       ORDER BY p.series_id, p.at
       LIMIT $6`,
      [
        [...seriesIds],
        msText(options.from),
        msText(options.to + 1),
        after.seriesId,
        usText(after.atUs),
        options.limit,
      ],
    );
    return rows.map(toTick);
  }

  /** Blocks: the first change of any of the series at or after `fromUs` (unix µs), in ms as the row reads give it. */
  private async firstChangeFrom(seriesIds: readonly number[], fromUs: number): Promise<number | null> {
    const first = await firstChangeFrom(this.db, this.writer.openBlocks, seriesIds, fromUs);
    return first === null ? null : roundedMs(first);
  }

  /** `changesAround` over rows and blocks, in one statement (price-blocks.ts). */
  private async changesAroundBlocks(
    eventId: string,
    at: number,
    after: SeriesKey | undefined,
    limit: number,
  ): Promise<{ previous: number | null; next: number | null; count: number; last: SeriesKey | null }> {
    const around = await changesAroundPage(
      this.db,
      this.writer.openBlocks,
      eventId,
      at * 1000,
      (at + 1) * 1000,
      after,
      limit,
    );
    return {
      ...around,
      previous: around.previous === null ? null : Math.floor(around.previous / 1000),
      next: around.next === null ? null : roundedMs(around.next),
    };
  }

  /** Stretches of time (unix ms) overlapping [from, to] whose changes the writer had to drop. */
  async gaps(from: number, to: number): Promise<HistoryGap[]> {
    const rows = await this.db.query<{
      from_at: string;
      to_at: string;
      dropped_changes: number;
      cause: HistoryGap['cause'];
    }>(
      `SELECT ${MS('from_at')}, ${MS('to_at')}, dropped_changes, cause FROM history_gaps
       WHERE to_at >= ${AT(1)} AND from_at <= ${AT(2)} ORDER BY from_at`,
      [from, to],
    );
    return rows.map((row) => ({
      from: Number(row.from_at),
      to: Number(row.to_at),
      droppedChanges: row.dropped_changes,
      cause: row.cause,
    }));
  }
}
