import { boxSettles, gradeGameMarket, gradeProp, type GradeResult } from '#domain/grading.ts';
import { isGameMarketType, isLeagueKey, isPeriod, type OutcomeKey } from '#domain/markets.ts';
import { isPropStatKey } from '#domain/props.ts';
import { checkFence, fenceOf, firstChange, inheritFence, setFenceUpTo } from './history-fence.ts';
import {
  insertBlocks,
  lastTicksBefore,
  LEAGUE_INDEX_AMERICAN,
  LEAGUE_INDEX_BOOK,
  LEAGUE_INDEX_DECIMAL,
  LEAGUE_INDEX_MARKET,
  LEAGUE_INDEX_OUTCOME,
  leagueIndexEvent,
  type OpenBlocks,
  type SealedBlock,
  type StoredTick,
} from './price-blocks.ts';
import { emptyChanges, type JournalChanges, type OpenJournal } from './open-journal.ts';
import type { HistoryBatch, ResultRow, SeriesKey, TickStateCode } from './recorder.ts';
import type { SqlClient, SqlRunner } from './sql-client.ts';
import type { Gap, PendingGaps } from './write-queue.ts';
import type { WriterLog } from './writer.ts';

// What one batch of the odds history costs the database: one transaction (the fence check under ROLE=ingest, the
// queue's dropped stretches, events upserted, new series inserted with their opening lines, ticks inserted with one
// `unnest` statement per 500 rows, closing lines once an event's start has passed), and the series ids it learns. A
// batch the database refuses for what its rows hold (a data or integrity error) is split until the refused rows stand
// alone: they are skipped and counted, the rest is written (decision 148).

/**
 * Rows per INSERT statement: a batch larger than this (the first one holds every price of the board: tens of thousands
 * of series with player props) is written in several statements of one transaction. PGlite's WebAssembly heap keeps
 * the high-water mark of what one statement needed (it never shrinks), so one huge statement would cost its memory
 * for the life of the process (decision 121, docs/benchmarks.md). PGlite also runs each statement on the server's
 * thread: 500 rows take a few milliseconds, 2,000 took ~13, all of it a stall for every stream (issue 17).
 */
export const MAX_ROWS_PER_STATEMENT = 500;

/** A batch's transaction stopped by the shutdown (BatchWriter.abort): rolled back, nothing of it written. */
export class WriteAbortedError extends Error {
  constructor() {
    super('odds history write stopped by the shutdown');
    this.name = 'WriteAbortedError';
  }
}

const CLOSING_CHECK_MS = 1_000;
/** How often the open blocks are looked over for those past the window (blocks format). */
const SEAL_CHECK_MS = 1_000;

/** What writing batches counts (in the writer's stats, /readyz). */
export interface BatchCounters {
  /** Ticks whose series could not be resolved (never expected): counted as dropped rather than written wrongly. */
  droppedChanges: number;
  /** First sights skipped because the database already held the same price as the series' last tick. */
  unchangedSkipped: number;
  /** Rows the database refused (and later ticks of a refused series), and the last refusal's message. */
  refusedRows: number;
  lastRefusal: string | null;
  /** The window between the previous leader's last write and this lead's first change, as recorded (a gap). */
  takeoverGap: { from: string; to: string; ms: number } | null;
}

/** Ticks of a batch not written: of a refused series, of a series not resolved, or unchanged first sights. */
interface TickTally {
  refused: number;
  unresolved: number;
  unchanged: number;
}

export class BatchWriter {
  /**
   * Series key → id × 2 + (1 when its opening line is set), for series known to be in the database: one number per
   * series rather than an object (about 100,000 series on the simulator's board). Pruned when their event ends.
   */
  private readonly seriesIds = new Map<string, number>();
  /** Keys of series the database refused: their later ticks are counted as refused too (pruned like `seriesIds`). */
  private readonly refusedSeries = new Set<string>();
  private lastClosingCheck = 0;
  private lastSealCheck = 0;
  /** Blocks format with a journal: the changes this write put in open blocks (journaled once it commits). */
  private appended: JournalChanges = emptyChanges();
  /**
   * Blocks format: batches whose transaction seals every open block (shutdown). The batch itself, not "the next one
   * written": a seal asked for behind a backlog applies once the backlog's changes are in the open blocks.
   */
  private readonly sealBatches = new WeakSet<HistoryBatch>();
  /** Shutdown past its budget: the transaction under way rolls back at its next statement (decision 306). */
  private aborted = false;
  /**
   * Blocks format: per league, its index series (decision 311) and the time (unix µs) of the last change indexed, as
   * committed; `indexPending`: what the write under way changed of it (kept once its transaction commits).
   */
  private readonly leagueIndex = new Map<string, { id: number; lastUs: number }>();
  private indexPending = new Map<string, { id: number; lastUs: number }>();

  constructor(
    private readonly db: SqlClient,
    /** The queue's dropped stretches: each transaction records those not yet recorded. */
    private readonly gaps: PendingGaps,
    private readonly counters: BatchCounters,
    private readonly log: WriterLog,
    /** Blocks format (decision 240): the series' open blocks; null: a row per change (price_ticks). */
    private readonly open: OpenBlocks | null = null,
    /** Blocks format: the open blocks' journal (decision 300), or null (a crash loses the open blocks). */
    private readonly journal: OpenJournal | null = null,
  ) {}

  /** Blocks format: writing `batch` also writes every open block (shutdown: nothing stays in memory). */
  sealWith(batch: HistoryBatch): void {
    this.sealBatches.add(batch);
  }

  /**
   * Shutdown past its budget (`true`): a transaction under way throws WriteAbortedError before its next statement and
   * rolls back, and so does any later one until `abort(false)`. Each statement is short (at most
   * MAX_ROWS_PER_STATEMENT rows), so the database is free within one statement.
   */
  abort(on: boolean): void {
    this.aborted = on;
  }

  private guarded(tx: SqlRunner): SqlRunner {
    return {
      query: <T>(text: string, params?: unknown[]) => {
        if (this.aborted) return Promise.reject(new WriteAbortedError());
        return tx.query<T>(text, params);
      },
    };
  }

  /** Writes a batch in one transaction; `closings`: false for a part of a batch that more parts follow. */
  async write(batch: HistoryBatch, closings = true): Promise<void> {
    const added = new Map<string, number>();
    // Counted inside the transaction, added to the counters once it commits: a rolled-back attempt counts nothing.
    const tally: TickTally = { refused: 0, unresolved: 0, unchanged: 0 };
    const fence = fenceOf(batch);
    let takeover: { from: number; to: number } | null = null;
    const closing = closings && batch.upTo - this.lastClosingCheck >= CLOSING_CHECK_MS;
    const gaps = this.gaps.take();
    // Under a fence (window 0) every batch writes all its blocks; otherwise those a window old, once a second.
    const requested = this.sealBatches.has(batch);
    const sealAll = requested || this.open?.windowMs === 0;
    const sealing = this.open !== null && (sealAll || batch.upTo - this.lastSealCheck >= SEAL_CHECK_MS);
    // Under a fence (window 0) nothing stays open after a commit: nothing to journal.
    const journal = this.open !== null && this.open.windowMs > 0 ? this.journal : null;
    if (this.journal) this.appended = emptyChanges();
    if (this.indexPending.size > 0) this.indexPending = new Map();
    try {
      if (this.aborted) throw new WriteAbortedError();
      await this.db.transaction(async (raw) => {
        const tx = this.guarded(raw);
        if (fence) takeover = await checkFence(tx, fence, batch);
        if (gaps.length > 0) await this.writeGaps(tx, gaps);
        if (batch.events.length > 0) await this.writeEvents(tx, batch);
        await this.writeSeries(tx, batch, added);
        if (this.open) {
          await this.writeBlocks(
            tx,
            this.open,
            batch,
            added,
            tally,
            sealing ? (sealAll ? Infinity : batch.upTo) : null,
          );
          if (closing) await this.takeClosingsFromBlocks(tx, this.open, batch.upTo);
          // The history is complete up to just before the earliest change still in memory (a new leader's gap). Looked
          // for under a fence only: it runs through every open block (tens of thousands with props), each batch.
          const earliest = fence ? this.open.earliestUs() : null;
          if (fence && earliest !== null) {
            await setFenceUpTo(tx, fence, Math.min(batch.upTo, Math.floor(earliest / 1000) - 1));
          }
        } else {
          if (batch.ticks.key.length > 0) await this.writeTicks(tx, batch, added, tally);
          if (closing) await this.takeClosings(tx, batch.upTo);
        }
        if (batch.results.length > 0) await this.writeResults(tx, batch.results);
      });
    } catch (error) {
      this.open?.rollback();
      this.gaps.giveBack(gaps);
      throw error;
    }
    this.open?.commit();
    for (const [league, entry] of this.indexPending) this.leagueIndex.set(league, entry);
    // Journaled once committed (the changes are then in open blocks or in written ones); segments whose changes have
    // all left the open blocks are removed as the blocks are looked over (once a second).
    if (journal) journal.append(this.appended);
    if (sealing && this.journal) this.journal.prune(this.open!.earliestUs());
    if (sealing) this.lastSealCheck = batch.upTo;
    if (requested) this.sealBatches.delete(batch);
    this.counters.refusedRows += tally.refused;
    this.counters.droppedChanges += tally.unresolved;
    this.counters.unchangedSkipped += tally.unchanged;
    if (takeover) {
      const { from, to } = takeover as { from: number; to: number };
      this.counters.takeoverGap = {
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        ms: to - from,
      };
    }
    if (closing) this.lastClosingCheck = batch.upTo;
    for (const [key, value] of added) this.seriesIds.set(key, value);
    for (const event of batch.events) {
      if (event.endedAt === null) continue;
      const prefix = `${event.id}|`;
      for (const key of this.seriesIds.keys()) if (key.startsWith(prefix)) this.seriesIds.delete(key);
      for (const key of this.refusedSeries) if (key.startsWith(prefix)) this.refusedSeries.delete(key);
    }
  }

  /**
   * Writes a batch the database refused for what its rows hold (`first`: that refusal), in parts: halves, split again
   * while they are refused, in order (events, then series, then ticks), until the refused rows stand alone; those are
   * skipped and counted. Returns how many of its ticks were not written. Any other failure stops it: `keepRest` is
   * given the part not yet written (what was written stays written) with the ticks refused so far, and the error goes
   * on to the caller's retry.
   */
  async split(
    batch: HistoryBatch,
    first: unknown,
    keepRest: (rest: HistoryBatch, refusedTicks: number) => void,
  ): Promise<number> {
    const size = batch.events.length + batch.series.length + batch.ticks.key.length;
    const start = firstChange(batch);
    let refusedTicks = 0;
    // One row: it is the refused one. None (never cut so): nothing to skip, nothing to write.
    const pending: [number, number][] = size > 1 ? halves(0, size) : [];
    if (size === 1) refusedTicks += this.skipRow(batch, 0, first);
    while (pending.length > 0) {
      const [from, to] = pending[0]!;
      const part = partOf(batch, from, to, start);
      try {
        await this.write(part, to === size);
      } catch (error) {
        if (!isDataError(error)) {
          if (from > 0) {
            const rows = batch.events.length + batch.series.length + batch.ticks.key.length;
            keepRest(partOf(batch, from, rows, start), refusedTicks);
          }
          throw error;
        }
        pending.shift();
        if (to - from === 1) refusedTicks += this.skipRow(batch, from, error);
        else pending.unshift(...halves(from, to));
        continue;
      }
      pending.shift();
    }
    return refusedTicks;
  }

  /** Counts the row at `index` of the batch (events, then series, then ticks) as refused; returns 1 for a tick. */
  private skipRow(batch: HistoryBatch, index: number, error: unknown): number {
    const message = error instanceof Error ? error.message : String(error);
    const events = batch.events.length;
    const series = batch.series.length;
    let row: Record<string, unknown>;
    if (index < events) row = { event: batch.events[index]!.id };
    else if (index < events + series) {
      const key = batch.series[index - events]!.key;
      this.refusedSeries.add(key);
      row = { series: key };
    } else row = { tick: batch.ticks.key[index - events - series] };
    this.counters.refusedRows += 1;
    this.counters.lastRefusal = message;
    if (this.counters.refusedRows <= 10 || this.counters.refusedRows % 100 === 0) {
      this.log.warn(
        { ...row, error: message, refusedRows: this.counters.refusedRows },
        'odds history row refused by the database: skipped',
      );
    }
    return index >= events + series ? 1 : 0;
  }

  /**
   * Final scores (issue 57): kept on their events with the box score, and every series of those events graded from
   * them (docs/grading.md): game lines from the score (a period only when the source scores periods, decision 262),
   * props from the box score when the source gives one (decision 261); the others keep a null result.
   */
  private async writeResults(tx: SqlRunner, results: readonly ResultRow[]): Promise<void> {
    const rows = [...new Map(results.map((row) => [row.eventId, row])).values()];
    await tx.query(
      `UPDATE history_events e SET final_score = r.score::jsonb, completed_at = to_timestamp(r.at / 1000.0),
         box_score = r.box::jsonb, periods_reported = r.periods_reported
       FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::bool[]) AS r(id, score, at, box, periods_reported)
       WHERE e.event_id = r.id`,
      [
        rows.map((row) => row.eventId),
        rows.map((row) => JSON.stringify(row.periods)),
        rows.map((row) => row.completedAt),
        rows.map((row) => (row.boxScore === null ? null : JSON.stringify(row.boxScore))),
        rows.map((row) => row.periodScores),
      ],
    );
    const byEvent = new Map(rows.map((row) => [row.eventId, row]));
    const series = await tx.query<SeriesToGrade>(
      `SELECT id, event_id, market_type, period, line, outcome, stat, player_id FROM history_series
       WHERE event_id = ANY($1::text[])`,
      [rows.map((row) => row.eventId)],
    );
    const ids: number[] = [];
    const grades: string[] = [];
    for (const row of series) {
      const result = gradeSeries(row, byEvent.get(row.event_id)!);
      if (result === null) continue;
      ids.push(row.id);
      grades.push(result);
    }
    for (let start = 0; start < ids.length; start += MAX_ROWS_PER_STATEMENT) {
      const end = start + MAX_ROWS_PER_STATEMENT;
      await tx.query(
        `UPDATE history_series s SET result = r.result
         FROM unnest($1::int4[], $2::text[]) AS r(id, result) WHERE s.id = r.id`,
        [ids.slice(start, end), grades.slice(start, end)],
      );
    }
  }

  private async writeGaps(tx: SqlRunner, gaps: Gap[]): Promise<void> {
    await tx.query(
      `INSERT INTO history_gaps (from_at, to_at, dropped_changes)
       SELECT to_timestamp(f / 1000.0), to_timestamp(t / 1000.0), n
       FROM unnest($1::int8[], $2::int8[], $3::int4[]) AS g(f, t, n)`,
      [gaps.map((gap) => gap.from), gaps.map((gap) => gap.to), gaps.map((gap) => gap.changes)],
    );
  }

  private async writeEvents(tx: SqlRunner, batch: HistoryBatch): Promise<void> {
    // The last row of an event in the batch wins (rows are in the order the engine saw them).
    const rows = [...new Map(batch.events.map((event) => [event.id, event])).values()];
    await tx.query(
      `INSERT INTO history_events AS e (event_id, league, home, away, starts_at, first_seen_at, live_at, ended_at)
       SELECT id, league, home::jsonb, away::jsonb, to_timestamp(starts / 1000.0), to_timestamp(seen / 1000.0),
              to_timestamp(live / 1000.0), to_timestamp(ended / 1000.0)
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[])
         AS r(id, league, home, away, starts, seen, live, ended)
       ON CONFLICT (event_id) DO UPDATE SET
         league = EXCLUDED.league, home = EXCLUDED.home, away = EXCLUDED.away, starts_at = EXCLUDED.starts_at,
         live_at = COALESCE(e.live_at, EXCLUDED.live_at),
         ended_at = COALESCE(EXCLUDED.ended_at, e.ended_at),
         -- A start moved later than the closing taken: the closing line is taken again at the new start.
         closed_at = CASE WHEN EXCLUDED.starts_at > e.starts_at THEN NULL ELSE e.closed_at END`,
      [
        rows.map((row) => row.id),
        rows.map((row) => row.league),
        rows.map((row) => JSON.stringify(row.home)),
        rows.map((row) => JSON.stringify(row.away)),
        rows.map((row) => row.startsAt),
        rows.map((row) => row.seenAt),
        rows.map((row) => row.liveAt),
        rows.map((row) => row.endedAt),
      ],
    );
  }

  /** Resolves the ids of the batch's series (inserting new ones) and sets opening lines not yet known. */
  private async writeSeries(tx: SqlRunner, batch: HistoryBatch, added: Map<string, number>): Promise<void> {
    // Opening candidates: each series' first open tick in this batch.
    const firstOpen = new Map<string, number>();
    const { key, state } = batch.ticks;
    for (let index = 0; index < key.length; index += 1) {
      if (state[index] === 0 && !firstOpen.has(key[index]!)) firstOpen.set(key[index]!, index);
    }
    const unknown = new Map<string, SeriesKey>();
    for (const series of batch.series) if (!this.seriesIds.has(series.key)) unknown.set(series.key, series);
    const unknownRows = [...unknown.values()];
    for (let from = 0; from < unknownRows.length; from += MAX_ROWS_PER_STATEMENT) {
      const rows = unknownRows.slice(from, from + MAX_ROWS_PER_STATEMENT);
      const opening = rows.map((series) => firstOpen.get(series.key));
      const result = await tx.query<{
        id: number;
        event_id: string;
        market_key: string;
        outcome: string;
        book: string;
        has_opening: boolean;
      }>(
        `INSERT INTO history_series AS s (event_id, market_key, market_type, period, line, outcome, book, side_id,
                                          opening_at, opening_american, opening_decimal,
                                          stat, player_id, player_name, player_team)
         SELECT event_id, market_key, market_type, period, line, outcome, book, side_id,
                timestamptz 'epoch' + oat * interval '1 microsecond', oam, ode, stat, pid, pname, pteam
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::text[], $7::text[], $8::text[],
                     $9::int8[], $10::float8[], $11::float8[], $12::text[], $13::text[], $14::text[], $15::text[])
           AS r(event_id, market_key, market_type, period, line, outcome, book, side_id, oat, oam, ode,
                stat, pid, pname, pteam)
         ON CONFLICT (event_id, market_key, outcome, book) DO UPDATE SET
           opening_at = COALESCE(s.opening_at, EXCLUDED.opening_at),
           opening_american = CASE WHEN s.opening_at IS NULL THEN EXCLUDED.opening_american ELSE s.opening_american END,
           opening_decimal = CASE WHEN s.opening_at IS NULL THEN EXCLUDED.opening_decimal ELSE s.opening_decimal END
         RETURNING id, event_id, market_key, outcome, book, opening_at IS NOT NULL AS has_opening`,
        [
          rows.map((series) => series.eventId),
          rows.map((series) => series.marketKey),
          rows.map((series) => series.marketType),
          rows.map((series) => series.period),
          rows.map((series) => series.line),
          rows.map((series) => series.outcome),
          rows.map((series) => series.book),
          rows.map((series) => series.sideId),
          opening.map((index) => (index === undefined ? null : batch.ticks.atUs[index])),
          opening.map((index) => (index === undefined ? null : batch.ticks.american[index])),
          opening.map((index) => (index === undefined ? null : batch.ticks.decimal[index])),
          rows.map((series) => series.stat),
          rows.map((series) => series.playerId),
          rows.map((series) => series.playerName),
          rows.map((series) => series.playerTeam),
        ],
      );
      for (const row of result) {
        added.set(`${row.market_key}|${row.outcome}|${row.book}`, seriesEntry(row.id, row.has_opening));
      }
    }
    // Known series without an opening line yet (first seen suspended) that have an open tick now.
    const late: number[] = [];
    for (const [seriesKey, index] of firstOpen) {
      const known = this.seriesIds.get(seriesKey);
      if (known !== undefined && !hasOpening(known)) late.push(index);
    }
    if (late.length > 0) {
      const ids = late.map((index) => idOf(this.seriesIds.get(key[index]!)!));
      await tx.query(
        `UPDATE history_series s SET opening_at = timestamptz 'epoch' + r.oat * interval '1 microsecond',
                opening_american = r.oam, opening_decimal = r.ode
         FROM unnest($1::int4[], $2::int8[], $3::float8[], $4::float8[]) AS r(id, oat, oam, ode)
         WHERE s.id = r.id AND s.opening_at IS NULL`,
        [
          ids,
          late.map((index) => batch.ticks.atUs[index]),
          late.map((index) => batch.ticks.american[index]),
          late.map((index) => batch.ticks.decimal[index]),
        ],
      );
      for (const index of late)
        added.set(key[index]!, seriesEntry(idOf(this.seriesIds.get(key[index]!)!), true));
    }
  }

  private async writeTicks(
    tx: SqlRunner,
    batch: HistoryBatch,
    added: Map<string, number>,
    tally: TickTally,
  ): Promise<void> {
    const { key, atUs, american, decimal, state } = batch.ticks;
    const ids: number[] = [];
    const at: number[] = [];
    const am: number[] = [];
    const de: number[] = [];
    const st: number[] = [];
    const fresh = new Set(batch.fresh);
    const first: { ids: number[]; at: number[]; am: number[]; de: number[]; st: number[] } = {
      ids: [],
      at: [],
      am: [],
      de: [],
      st: [],
    };
    for (let index = 0; index < key.length; index += 1) {
      const series = added.get(key[index]!) ?? this.seriesIds.get(key[index]!);
      // A tick of a series the database refused is counted as refused too. Otherwise never expected (a dropped batch
      // hands its new series to the next one), but a tick whose series could not be resolved is counted as dropped
      // rather than written under a wrong series.
      if (series === undefined) {
        if (this.refusedSeries.has(key[index]!)) tally.refused += 1;
        else tally.unresolved += 1;
        continue;
      }
      if (fresh.has(index)) {
        first.ids.push(idOf(series));
        first.at.push(atUs[index]!);
        first.am.push(american[index]!);
        first.de.push(decimal[index]!);
        first.st.push(state[index]!);
        continue;
      }
      ids.push(idOf(series));
      at.push(atUs[index]!);
      am.push(american[index]!);
      de.push(decimal[index]!);
      st.push(state[index]!);
    }
    for (let from = 0; from < ids.length; from += MAX_ROWS_PER_STATEMENT) {
      const to = from + MAX_ROWS_PER_STATEMENT;
      await tx.query(
        `INSERT INTO price_ticks (at, american, decimal, series_id, state)
         SELECT timestamptz 'epoch' + a * interval '1 microsecond', am, de, id, st
         FROM unnest($1::int8[], $2::float8[], $3::float8[], $4::int4[], $5::int2[]) AS r(a, am, de, id, st)`,
        [at.slice(from, to), am.slice(from, to), de.slice(from, to), ids.slice(from, to), st.slice(from, to)],
      );
    }
    // First sights (this process's start, or a new lead): written unless the series' last tick before them already
    // holds the same price and state, which a restart or the previous leader wrote (one index probe each).
    for (let from = 0; from < first.ids.length; from += MAX_ROWS_PER_STATEMENT) {
      const to = from + MAX_ROWS_PER_STATEMENT;
      const [written] = await tx.query<{ n: number }>(
        `WITH r AS (
           SELECT timestamptz 'epoch' + a * interval '1 microsecond' AS at, am, de, id, st
           FROM unnest($1::int8[], $2::float8[], $3::float8[], $4::int4[], $5::int2[]) AS r(a, am, de, id, st)
         ), ins AS (
           INSERT INTO price_ticks (at, american, decimal, series_id, state)
           SELECT r.at, r.am, r.de, r.id, r.st FROM r
           WHERE NOT EXISTS (
             SELECT 1 FROM (
               SELECT p.american, p.decimal, p.state FROM price_ticks p
               WHERE p.series_id = r.id AND p.at <= r.at ORDER BY p.at DESC LIMIT 1
             ) AS last
             WHERE last.american = r.am AND last.decimal = r.de AND last.state = r.st
           )
           RETURNING 1
         )
         SELECT count(*)::int AS n FROM ins`,
        [
          first.at.slice(from, to),
          first.am.slice(from, to),
          first.de.slice(from, to),
          first.ids.slice(from, to),
          first.st.slice(from, to),
        ],
      );
      const rows = Math.min(to, first.ids.length) - from;
      tally.unchanged += rows - Number(written?.n ?? rows);
    }
  }

  /**
   * Blocks format: the batch's ticks go to their series' open blocks (first sights that repeat the series' last stored
   * change are skipped, as in `writeTicks`); blocks full, of another day, or (when `sealBefore` is given) whose first
   * change is a window older than it, are written as price_blocks rows.
   */
  private async writeBlocks(
    tx: SqlRunner,
    open: OpenBlocks,
    batch: HistoryBatch,
    added: Map<string, number>,
    tally: TickTally,
    sealBefore: number | null,
  ): Promise<void> {
    const { key, atUs, american, decimal, state, league } = batch.ticks;
    const fresh = new Set(batch.fresh);
    const ids: number[] = [];
    /** Per league, the milliseconds in which a change was appended, each with its earliest microsecond. */
    const marks = new Map<string, Map<number, number>>();
    for (let index = 0; index < key.length; index += 1) {
      const series = added.get(key[index]!) ?? this.seriesIds.get(key[index]!);
      if (series === undefined) {
        if (this.refusedSeries.has(key[index]!)) tally.refused += 1;
        else tally.unresolved += 1;
        ids.push(-1);
        continue;
      }
      // Never given by the recorder; a block could not hold it (a time is a whole, non-negative microsecond).
      if (!Number.isSafeInteger(atUs[index]) || atUs[index]! < 0) {
        tally.refused += 1;
        ids.push(-1);
        continue;
      }
      ids.push(idOf(series));
    }
    // First sights: the series' last change at or before them, wherever it is stored (one probe per series).
    const firstSights = batch.fresh.filter((index) => ids[index]! >= 0);
    let lastStored = new Map<number, StoredTick>();
    if (firstSights.length > 0) {
      lastStored = await lastTicksBefore(
        tx,
        open,
        firstSights.map((index) => ids[index]!),
        firstSights.map((index) => atUs[index]! + 1),
      );
    }
    const sealed: SealedBlock[] = [];
    for (let index = 0; index < key.length; index += 1) {
      const id = ids[index]!;
      if (id < 0) continue;
      if (fresh.has(index)) {
        const last = lastStored.get(id);
        if (
          last &&
          last.atUs <= atUs[index]! &&
          last.american === american[index] &&
          last.decimal === decimal[index] &&
          last.state === state[index]
        ) {
          tally.unchanged += 1;
          continue;
        }
      }
      const full = open.append(
        id,
        atUs[index]!,
        american[index]!,
        decimal[index]!,
        state[index] as TickStateCode,
      );
      if (full) sealed.push(full);
      if (this.journal)
        this.journalAppended(id, atUs[index]!, american[index]!, decimal[index]!, state[index]!);
      const of = league[index];
      if (of) {
        let byMs = marks.get(of);
        if (!byMs) marks.set(of, (byMs = new Map()));
        const us = atUs[index]!;
        const ms = Math.floor(us / 1000);
        const held = byMs.get(ms);
        if (held === undefined || us < held) byMs.set(ms, us);
      }
    }
    if (marks.size > 0) await this.indexLeagues(tx, open, marks, sealed);
    if (sealBefore !== null) sealed.push(...open.sealDue(sealBefore));
    if (sealed.length > 0) await insertBlocks(tx, sealed);
  }

  private journalAppended(id: number, atUs: number, american: number, decimal: number, state: TickStateCode) {
    const appended = this.appended;
    appended.seriesId.push(id);
    appended.atUs.push(atUs);
    appended.american.push(american);
    appended.decimal.push(decimal);
    appended.state.push(state);
  }

  /**
   * The leagues' index of changes (decision 311): for each millisecond in which a league had a change appended (and
   * no earlier change of it was indexed in that millisecond or later), a tick of the league's index series at the
   * millisecond's earliest microsecond written. The index series is made on a league's first change (and its last
   * indexed change read, to continue after it: a restart, a new leader).
   */
  private async indexLeagues(
    tx: SqlRunner,
    open: OpenBlocks,
    marks: Map<string, Map<number, number>>,
    sealed: SealedBlock[],
  ): Promise<void> {
    const unknown = [...marks.keys()].filter(
      (league) => !this.indexPending.has(league) && !this.leagueIndex.has(league),
    );
    if (unknown.length > 0) {
      const rows = await tx.query<{ id: number; event_id: string }>(
        `INSERT INTO history_series AS s (event_id, market_key, market_type, period, outcome, book, side_id)
         SELECT e, $2, $2, 'full', $3, $4, e || '|' || $2 FROM unnest($1::text[]) AS r(e)
         ON CONFLICT (event_id, market_key, outcome, book) DO UPDATE SET side_id = s.side_id
         RETURNING id, event_id`,
        [unknown.map(leagueIndexEvent), LEAGUE_INDEX_MARKET, LEAGUE_INDEX_OUTCOME, LEAGUE_INDEX_BOOK],
      );
      const last = await lastTicksBefore(
        tx,
        open,
        rows.map((row) => row.id),
        null,
      );
      for (const league of unknown) {
        const row = rows.find((candidate) => candidate.event_id === leagueIndexEvent(league));
        if (row) this.indexPending.set(league, { id: row.id, lastUs: last.get(row.id)?.atUs ?? -1 });
      }
    }
    for (const [league, byMs] of marks) {
      const known = this.indexPending.get(league) ?? this.leagueIndex.get(league);
      if (!known) continue;
      const entry = { ...known };
      for (const ms of [...byMs.keys()].sort((a, b) => a - b)) {
        // A millisecond indexed already (a batch before, a restart within it), or before it (a clock that went back).
        if (ms <= Math.floor(entry.lastUs / 1000)) continue;
        const us = byMs.get(ms)!;
        const full = open.append(entry.id, us, LEAGUE_INDEX_AMERICAN, LEAGUE_INDEX_DECIMAL, 0);
        if (full) sealed.push(full);
        if (this.journal) this.journalAppended(entry.id, us, LEAGUE_INDEX_AMERICAN, LEAGUE_INDEX_DECIMAL, 0);
        entry.lastUs = us;
      }
      this.indexPending.set(league, entry);
    }
  }

  /**
   * Blocks format: closing lines of events whose start has passed, as `takeClosings` takes them (per series, the last
   * open price at or before the start), read from the rows, the stored blocks and the open blocks.
   */
  private async takeClosingsFromBlocks(tx: SqlRunner, open: OpenBlocks, upTo: number): Promise<void> {
    const due = await tx.query<{ event_id: string }>(
      `SELECT event_id FROM history_events WHERE closed_at IS NULL AND starts_at <= to_timestamp($1 / 1000.0)`,
      [upTo],
    );
    if (due.length === 0) return;
    const events = due.map((row) => row.event_id);
    await tx.query(
      `UPDATE history_series SET closing_at = NULL, closing_american = NULL, closing_decimal = NULL
       WHERE event_id = ANY($1::text[]) AND closing_at IS NOT NULL`,
      [events],
    );
    const series = await tx.query<{ id: number; starts_us: string }>(
      `SELECT x.id, (extract(epoch from e.starts_at) * 1000000)::int8::text AS starts_us
       FROM history_series x JOIN history_events e ON e.event_id = x.event_id
       WHERE e.event_id = ANY($1::text[])`,
      [events],
    );
    const closing = await lastTicksBefore(
      tx,
      open,
      series.map((row) => row.id),
      series.map((row) => Number(row.starts_us) + 1),
      true,
    );
    const ticks = [...closing.values()];
    for (let from = 0; from < ticks.length; from += MAX_ROWS_PER_STATEMENT) {
      const rows = ticks.slice(from, from + MAX_ROWS_PER_STATEMENT);
      await tx.query(
        `UPDATE history_series s SET closing_at = timestamptz 'epoch' + r.a * interval '1 microsecond',
                closing_american = r.am, closing_decimal = r.de
         FROM unnest($1::int4[], $2::int8[], $3::float8[], $4::float8[]) AS r(id, a, am, de)
         WHERE s.id = r.id`,
        [
          rows.map((tick) => tick.seriesId),
          rows.map((tick) => tick.atUs),
          rows.map((tick) => tick.american),
          rows.map((tick) => tick.decimal),
        ],
      );
    }
    await tx.query(
      `UPDATE history_events SET closed_at = to_timestamp($2 / 1000.0) WHERE event_id = ANY($1::text[])`,
      [events, upTo],
    );
  }

  /**
   * Closing lines of events whose start has passed, once every change up to the start is written: per series, the
   * last open price at or before the start (an index lookup per series on (series_id, at)).
   */
  private async takeClosings(tx: SqlRunner, upTo: number): Promise<void> {
    const due = await tx.query<{ event_id: string }>(
      `SELECT event_id FROM history_events WHERE closed_at IS NULL AND starts_at <= to_timestamp($1 / 1000.0)`,
      [upTo],
    );
    if (due.length === 0) return;
    const events = due.map((row) => row.event_id);
    await tx.query(
      `UPDATE history_series SET closing_at = NULL, closing_american = NULL, closing_decimal = NULL
       WHERE event_id = ANY($1::text[]) AND closing_at IS NOT NULL`,
      [events],
    );
    await tx.query(
      `UPDATE history_series s SET closing_at = c.at, closing_american = c.american, closing_decimal = c.decimal
       FROM (
         SELECT x.id, t.at, t.american, t.decimal
         FROM history_series x JOIN history_events e ON e.event_id = x.event_id
         CROSS JOIN LATERAL (
           SELECT p.at, p.american, p.decimal FROM price_ticks p
           WHERE p.series_id = x.id AND p.at <= e.starts_at AND p.state = 0
           ORDER BY p.at DESC LIMIT 1
         ) AS t
         WHERE e.event_id = ANY($1::text[])
       ) AS c
       WHERE s.id = c.id`,
      [events],
    );
    await tx.query(
      `UPDATE history_events SET closed_at = to_timestamp($2 / 1000.0) WHERE event_id = ANY($1::text[])`,
      [events, upTo],
    );
  }
}

/**
 * Whether a failed write was refused for what its rows hold rather than for the database's state: SQLSTATE class 22
 * (data exception: a NUL in text, a number out of range) or 23 (integrity constraint violation). The same rows would be
 * refused again, so retrying them is no use. Anything else (a lost connection, a missing table, a timeout) is retried.
 */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

/** The two halves of the rows [from, to) of a batch, in order. */
function halves(from: number, to: number): [number, number][] {
  const middle = from + Math.ceil((to - from) / 2);
  return [
    [from, middle],
    [middle, to],
  ];
}

/**
 * The rows [from, to) of a batch, counted events first, then series, then ticks, as a batch of their own: under the
 * batch's fence, and its first change as `start`. Its `upTo` is the batch's when no tick follows it; otherwise the
 * first tick after it: once it is written, the history is complete up to there and no further (the fence row records
 * it, and a new leader's takeover gap starts there, decision 146).
 */
function partOf(batch: HistoryBatch, from: number, to: number, start: number): HistoryBatch {
  const events = batch.events.length;
  const series = batch.series.length;
  const clip = (offset: number, length: number): [number, number] => [
    Math.min(Math.max(from - offset, 0), length),
    Math.min(Math.max(to - offset, 0), length),
  ];
  const [e0, e1] = clip(0, events);
  const [s0, s1] = clip(events, series);
  const [t0, t1] = clip(events + series, batch.ticks.key.length);
  const { ticks } = batch;
  let upTo = batch.upTo;
  for (let index = t1; index < ticks.atUs.length; index += 1)
    upTo = Math.min(upTo, Math.floor(ticks.atUs[index]! / 1000));
  const part: HistoryBatch = {
    events: batch.events.slice(e0, e1),
    series: batch.series.slice(s0, s1),
    ticks: {
      key: ticks.key.slice(t0, t1),
      atUs: ticks.atUs.slice(t0, t1),
      american: ticks.american.slice(t0, t1),
      decimal: ticks.decimal.slice(t0, t1),
      state: ticks.state.slice(t0, t1),
      league: ticks.league.slice(t0, t1),
    },
    fresh: batch.fresh.filter((index) => index >= t0 && index < t1).map((index) => index - t0),
    // Results go with the part that ends the batch (after every row their series may need).
    results: to >= events + series + ticks.key.length ? batch.results : [],
    upTo,
  };
  inheritFence(part, batch, start);
  return part;
}

interface SeriesToGrade {
  id: number;
  event_id: string;
  market_type: string;
  period: string;
  line: number | null;
  outcome: string;
  stat: string | null;
  player_id: string | null;
}

/**
 * A series' result against a final; null when it cannot be graded: a line off the grid, a period of a game whose
 * source gives only its score, a prop without a box score or whose player's figure of that period and stat is not in
 * it (a player missing from the box score did not play: void).
 */
function gradeSeries(row: SeriesToGrade, result: ResultRow): GradeResult | null {
  if (!isPeriod(row.period)) return null;
  try {
    if (row.market_type === 'prop') {
      const box = result.boxScore;
      if (box === null || row.stat === null || row.player_id === null) return null;
      if (!isPropStatKey(row.stat) || !isLeagueKey(result.league)) return null;
      if (!boxSettles(box, row.player_id, row.period, row.stat)) return null;
      return gradeProp(
        result.league,
        { type: 'prop', stat: row.stat, period: row.period, playerId: row.player_id, point: row.line },
        row.outcome as OutcomeKey,
        box,
      );
    }
    if (!isGameMarketType(row.market_type)) return null;
    if (!result.periodScores && row.period !== 'full') return null;
    return gradeGameMarket(
      { type: row.market_type, period: row.period, point: row.line },
      row.outcome as OutcomeKey,
      { periods: result.periods },
    );
  } catch {
    return null;
  }
}

const seriesEntry = (id: number, opened: boolean): number => id * 2 + (opened ? 1 : 0);
const idOf = (entry: number): number => Math.floor(entry / 2);
const hasOpening = (entry: number): boolean => entry % 2 === 1;
