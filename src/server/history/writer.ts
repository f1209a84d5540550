import type { HistoryBatch, SeriesKey } from './recorder.ts';
import type { SqlClient, SqlRunner } from './sql-client.ts';

// The history writer: a bounded queue of batches written in order, one transaction each, off the engine's call
// stack. A slow or unavailable database only grows the queue; past its bound new batches are dropped, counted,
// logged and recorded as gaps once the database is back. Writing resumes by itself (retries with backoff).

/**
 * Rows per INSERT statement: a batch larger than this (the first one holds every price of the board: tens of thousands
 * of series with player props) is written in several statements of one transaction. PGlite's WebAssembly heap keeps
 * the high-water mark of what one statement needed (it never shrinks), so one huge statement would cost its memory
 * for the life of the process (decision 121, docs/benchmarks.md). PGlite also runs each statement on the server's
 * thread: 500 rows take a few milliseconds, 2,000 took ~13, all of it a stall for every stream (issue 17).
 */
export const MAX_ROWS_PER_STATEMENT = 500;

export interface WriterLog {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export interface HistoryWriterOptions {
  /** Changes the queue may hold before it drops new batches. */
  maxQueueRows: number;
  retentionDays: number;
  /** Bytes the ticks may take: past it, whole days are dropped oldest first (never today's). */
  maxBytes: number;
  now: () => number;
  log: WriterLog;
  /** First retry delay after a failed write (doubles up to 30 s). */
  retryMs?: number;
}

/** The ingest leader's right to write (ROLE=ingest): its lease's fencing token, and who it is. */
export interface HistoryFence {
  token: number;
  holder: string;
}

/** A batch was cut under a fencing token older than the one the database holds: a newer leader writes now. */
export class HistoryFencedError extends Error {
  constructor(
    readonly token: number,
    readonly current: number,
  ) {
    super(`odds history fenced: token ${token} is older than the database's ${current}`);
  }
}

export interface HistoryWriterStats {
  queuedBatches: number;
  queuedChanges: number;
  droppedBatches: number;
  droppedChanges: number;
  writtenBatches: number;
  writtenChanges: number;
  lastWriteAt: string | null;
  /** Every change received up to this instant is written (or counted as dropped): the last written batch's `upTo`. */
  writtenUpTo: string | null;
  /** What the ticks took at the last maintenance (bytes, indexes included), and whether that was over the cap. */
  storedBytes: number | null;
  overSizeCap: boolean;
  /** Set while writes fail: since when, and the last error's message. */
  failingSince: string | null;
  lastError: string | null;
  /** ROLE=ingest: the fence this instance writes under (null: ROLE=all, or never led). */
  fence: HistoryFence | null;
  /** Batches (and their changes) refused because a newer leader had written: never retried. */
  fencedBatches: number;
  fencedChanges: number;
  /** First sights skipped because the database already held the same price as the series' last tick. */
  unchangedSkipped: number;
  /** The window between the previous leader's last write and this lead's first change, as recorded (a gap). */
  takeoverGap: { from: string; to: string; ms: number } | null;
}

interface Gap {
  from: number;
  to: number;
  changes: number;
}

/** Batches are written under the fence that was current when they were queued (a lead they were gathered in). */
const batchFences = new WeakMap<HistoryBatch, HistoryFence>();

const DAY_MS = 86_400_000;
/** Day partitions kept ready ahead of the clock. */
const DAYS_AHEAD = 3;
const CLOSING_CHECK_MS = 1_000;

export class HistoryWriter {
  private readonly queue: HistoryBatch[] = [];
  private queuedChanges = 0;
  /**
   * Series key → id × 2 + (1 when its opening line is set), for series known to be in the database: one number per
   * series rather than an object (about 100,000 series on the simulator's board). Pruned when their event ends.
   */
  private readonly seriesIds = new Map<string, number>();
  private readonly pendingGaps: Gap[] = [];
  private pumping: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay: number;
  private stopped = false;
  private lastClosingCheck = 0;
  private stats_: HistoryWriterStats = {
    queuedBatches: 0,
    queuedChanges: 0,
    droppedBatches: 0,
    droppedChanges: 0,
    writtenBatches: 0,
    writtenChanges: 0,
    lastWriteAt: null,
    writtenUpTo: null,
    storedBytes: null,
    overSizeCap: false,
    failingSince: null,
    lastError: null,
    fence: null,
    fencedBatches: 0,
    fencedChanges: 0,
    unchangedSkipped: 0,
    takeoverGap: null,
  };
  private fence: HistoryFence | null = null;

  constructor(
    private readonly db: SqlClient,
    private readonly options: HistoryWriterOptions,
  ) {
    this.retryDelay = options.retryMs ?? 500;
  }

  stats(): HistoryWriterStats {
    return { ...this.stats_, queuedBatches: this.queue.length, queuedChanges: this.queuedChanges };
  }

  /**
   * ROLE=ingest, on taking the lead: later batches are written under `fence`. Losing the lead changes nothing here:
   * what was gathered while leading is still written under the old token, and refused once a newer leader has written.
   */
  lead(fence: HistoryFence): void {
    this.fence = fence;
    this.stats_.fence = fence;
  }

  /** Queues a batch (never waits). Returns false when the queue was full and the batch was dropped. */
  enqueue(batch: HistoryBatch): boolean {
    const rows = batch.ticks.key.length;
    if (this.stopped) return false;
    if (this.fence) batchFences.set(batch, this.fence);
    if (this.queuedChanges + rows > this.options.maxQueueRows && rows > 0) {
      this.drop(batch);
      return false;
    }
    this.queue.push(batch);
    this.queuedChanges += rows;
    this.kick();
    return true;
  }

  private drop(batch: HistoryBatch): void {
    const rows = batch.ticks.key.length;
    this.stats_.droppedBatches += 1;
    this.stats_.droppedChanges += rows;
    let first = Infinity;
    let to = 0;
    for (const at of batch.ticks.atUs) {
      first = Math.min(first, Math.floor(at / 1000));
      to = Math.max(to, Math.floor(at / 1000));
    }
    const last = this.pendingGaps[this.pendingGaps.length - 1];
    if (last && first - last.to < 5_000) {
      last.to = Math.max(last.to, to);
      last.changes += rows;
    } else {
      this.pendingGaps.push({ from: first, to, changes: rows });
    }
    // Events and new series of a dropped batch are kept for the next batch: only its ticks are lost.
    const next = this.queue[this.queue.length - 1];
    if (next) {
      next.events.push(...batch.events);
      next.series.push(...batch.series);
    } else if (batch.events.length > 0 || batch.series.length > 0) {
      const kept: HistoryBatch = {
        ...batch,
        ticks: { key: [], atUs: [], american: [], decimal: [], state: [] },
        fresh: [],
      };
      const fence = batchFences.get(batch);
      if (fence) batchFences.set(kept, fence);
      this.queue.push(kept);
    }
    if (this.stats_.droppedBatches === 1 || this.stats_.droppedBatches % 100 === 0) {
      this.options.log.warn(
        {
          droppedBatches: this.stats_.droppedBatches,
          droppedChanges: this.stats_.droppedChanges,
          queuedChanges: this.queuedChanges,
        },
        'odds history queue full: batch dropped',
      );
    }
  }

  private kick(): void {
    if (this.pumping || this.retryTimer || this.stopped) return;
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      if (this.queue.length > 0 && !this.retryTimer && !this.stopped) this.kick();
    });
  }

  private async pump(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      const batch = this.queue[0]!;
      try {
        await this.write(batch);
      } catch (error) {
        if (error instanceof HistoryFencedError) {
          this.refuse(batch, error);
          continue;
        }
        this.failed(error);
        return;
      }
      this.queue.shift();
      const rows = batch.ticks.key.length;
      this.queuedChanges -= rows;
      this.stats_.writtenBatches += 1;
      this.stats_.writtenChanges += rows;
      this.stats_.lastWriteAt = new Date(this.options.now()).toISOString();
      this.stats_.writtenUpTo = new Date(batch.upTo).toISOString();
      if (this.stats_.failingSince) {
        this.options.log.info(
          { failingSince: this.stats_.failingSince, queuedChanges: this.queuedChanges },
          'odds history writes resumed',
        );
        this.stats_.failingSince = null;
        this.stats_.lastError = null;
      }
      this.retryDelay = this.options.retryMs ?? 500;
    }
  }

  /** A newer leader writes the history now: the batch is dropped (no gap: the new leader has the market). */
  private refuse(batch: HistoryBatch, error: HistoryFencedError): void {
    this.queue.shift();
    const rows = batch.ticks.key.length;
    this.queuedChanges -= rows;
    this.stats_.fencedBatches += 1;
    this.stats_.fencedChanges += rows;
    if (this.stats_.fencedBatches === 1 || this.stats_.fencedBatches % 100 === 0) {
      this.options.log.warn(
        { token: error.token, current: error.current, fencedBatches: this.stats_.fencedBatches },
        'odds history batch refused: a newer leader writes the history',
      );
    }
  }

  private failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (!this.stats_.failingSince) {
      this.stats_.failingSince = new Date(this.options.now()).toISOString();
      this.options.log.warn(
        { error: message, queuedChanges: this.queuedChanges },
        'odds history write failed; retrying',
      );
    }
    this.stats_.lastError = message;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.kick();
    }, this.retryDelay);
    this.retryTimer.unref?.();
    this.retryDelay = Math.min(this.retryDelay * 2, 30_000);
  }

  /** Waits until the queue is written (or `timeoutMs` passes). Returns whether it emptied. */
  async drain(timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length > 0 || this.pumping) {
      if (Date.now() >= deadline) return false;
      if (this.retryTimer) {
        clearTimeout(this.retryTimer);
        this.retryTimer = null;
        this.kick();
      }
      await (this.pumping ?? new Promise((resolve) => setTimeout(resolve, 20)));
    }
    return true;
  }

  /** Stops writing (after the caller drained what it could). */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private async write(batch: HistoryBatch): Promise<void> {
    const added = new Map<string, number>();
    const fence = batchFences.get(batch);
    let takeover: Gap | null = null;
    await this.db.transaction(async (tx) => {
      if (fence) takeover = await this.checkFence(tx, fence, batch);
      if (this.pendingGaps.length > 0) await this.writeGaps(tx);
      if (batch.events.length > 0) await this.writeEvents(tx, batch);
      await this.writeSeries(tx, batch, added);
      if (batch.ticks.key.length > 0) await this.writeTicks(tx, batch, added);
      if (batch.upTo - this.lastClosingCheck >= CLOSING_CHECK_MS) await this.takeClosings(tx, batch.upTo);
    });
    this.pendingGaps.length = 0;
    if (takeover) {
      const { from, to } = takeover as Gap;
      this.stats_.takeoverGap = {
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        ms: to - from,
      };
    }
    if (batch.upTo - this.lastClosingCheck >= CLOSING_CHECK_MS) this.lastClosingCheck = batch.upTo;
    for (const [key, value] of added) this.seriesIds.set(key, value);
    for (const event of batch.events) {
      if (event.endedAt === null) continue;
      const prefix = `${event.id}|`;
      for (const key of this.seriesIds.keys()) if (key.startsWith(prefix)) this.seriesIds.delete(key);
    }
  }

  /**
   * Locks the fence row (one writer at a time) and checks the batch's token against it: older → refused; newer → this
   * lead's first write, which records the window since the previous leader's last write as a gap; equal → moves on.
   */
  private async checkFence(tx: SqlRunner, fence: HistoryFence, batch: HistoryBatch): Promise<Gap | null> {
    const [row] = await tx.query<{ token: string; up_to: string | null }>(
      `SELECT token::text AS token, (extract(epoch from up_to) * 1000)::int8::text AS up_to
       FROM history_fence WHERE id = 1 FOR UPDATE`,
    );
    const current = row ? Number(row.token) : 0;
    if (current > fence.token) throw new HistoryFencedError(fence.token, current);
    let gap: Gap | null = null;
    if (current < fence.token && row?.up_to) {
      let first = batch.upTo;
      for (const at of batch.ticks.atUs) first = Math.min(first, Math.floor(at / 1000));
      const from = Number(row.up_to);
      if (first > from) {
        gap = { from, to: first, changes: 0 };
        await tx.query(
          `INSERT INTO history_gaps (from_at, to_at, dropped_changes, cause)
           VALUES (to_timestamp($1 / 1000.0), to_timestamp($2 / 1000.0), 0, 'takeover')`,
          [from, first],
        );
      }
    }
    await tx.query(
      `INSERT INTO history_fence AS f (id, token, holder, since, up_to)
       VALUES (1, $1, $2, now(), to_timestamp($3 / 1000.0))
       ON CONFLICT (id) DO UPDATE SET token = EXCLUDED.token, up_to = EXCLUDED.up_to,
         holder = EXCLUDED.holder, since = CASE WHEN f.token = EXCLUDED.token THEN f.since ELSE EXCLUDED.since END`,
      [fence.token, fence.holder, batch.upTo],
    );
    return gap;
  }

  private async writeGaps(tx: SqlRunner): Promise<void> {
    const gaps = this.pendingGaps;
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

  private async writeTicks(tx: SqlRunner, batch: HistoryBatch, added: Map<string, number>): Promise<void> {
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
      // Never expected (a dropped batch hands its new series to the next one), but a tick whose series could not be
      // resolved is counted as dropped rather than written under a wrong series.
      if (series === undefined) {
        this.stats_.droppedChanges += 1;
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
      this.stats_.unchangedSkipped += rows - Number(written?.n ?? rows);
    }
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

  /**
   * Keeps day partitions ready from yesterday to DAYS_AHEAD days ahead, and drops what is past the retention
   * (whole partitions, then the events and series that no longer have ticks).
   */
  async maintain(): Promise<void> {
    const now = this.options.now();
    const today = Math.floor(now / DAY_MS);
    for (let day = today - 1; day <= today + DAYS_AHEAD; day += 1) {
      const name = partitionName(day);
      try {
        await this.db.query(
          `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF price_ticks
           FOR VALUES FROM ('${isoDay(day)}') TO ('${isoDay(day + 1)}')`,
        );
      } catch (error) {
        // Rows of that day already sit in the default partition (a clock jump): they stay there, still queried.
        this.options.log.warn(
          { partition: name, error: error instanceof Error ? error.message : String(error) },
          'odds history partition not created',
        );
      }
    }
    const cutoffDay = today - this.options.retentionDays;
    const partitions = await this.db.query<{ name: string; bytes: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid)::int8::text AS bytes FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace
       WHERE p.relname = 'price_ticks' AND n.nspname = current_schema()`,
    );
    const days = partitions
      .map(({ name, bytes }) => ({ name, bytes: Number(bytes), day: dayOfPartition(name) }))
      .sort((a, b) => (a.day ?? -Infinity) - (b.day ?? -Infinity));
    let total = days.reduce((sum, partition) => sum + partition.bytes, 0);
    for (const partition of days) {
      if (partition.day === null) continue;
      const expired = partition.day < cutoffDay;
      const overCap = total > this.options.maxBytes && partition.day < today;
      if (!expired && !overCap) continue;
      await this.db.query(`DROP TABLE IF EXISTS ${partition.name}`);
      total -= partition.bytes;
      if (!expired) {
        this.options.log.warn(
          { partition: partition.name, bytes: partition.bytes, maxBytes: this.options.maxBytes },
          'odds history over its size cap: oldest day dropped before its retention',
        );
      }
    }
    this.stats_.storedBytes = total;
    this.stats_.overSizeCap = total > this.options.maxBytes;
    if (this.stats_.overSizeCap) {
      this.options.log.warn(
        { storedBytes: total, maxBytes: this.options.maxBytes },
        'odds history over its size cap with only today left: raise HISTORY_MAX_GB',
      );
    }
    const cutoff = cutoffDay * DAY_MS;
    await this.db.query(`DELETE FROM price_ticks_default WHERE at < to_timestamp($1 / 1000.0)`, [cutoff]);
    await this.db.query(
      `DELETE FROM history_series WHERE event_id IN (SELECT event_id FROM history_events
         WHERE COALESCE(ended_at, starts_at) < to_timestamp($1 / 1000.0))`,
      [cutoff],
    );
    await this.db.query(
      `DELETE FROM history_events WHERE COALESCE(ended_at, starts_at) < to_timestamp($1 / 1000.0)`,
      [cutoff],
    );
    await this.db.query(`DELETE FROM history_gaps WHERE to_at < to_timestamp($1 / 1000.0)`, [cutoff]);
  }
}

const seriesEntry = (id: number, opened: boolean): number => id * 2 + (opened ? 1 : 0);
const idOf = (entry: number): number => Math.floor(entry / 2);
const hasOpening = (entry: number): boolean => entry % 2 === 1;

function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10) + ' 00:00:00+00';
}

export function partitionName(day: number): string {
  return `price_ticks_p${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

function dayOfPartition(name: string): number | null {
  const match = /^price_ticks_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  if (!match) return null;
  return Math.floor(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS);
}
