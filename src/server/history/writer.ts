import { BatchWriter, isDataError, WriteAbortedError } from './batch-sql.ts';
import { HistoryFencedError, stampFence, type HistoryFence } from './history-fence.ts';
import { OpenJournal } from './open-journal.ts';
import {
  insertBlocks,
  JOURNALED_SPREAD,
  JOURNALED_WINDOW_MS,
  lastTicksBefore,
  OpenBlocks,
  type SealedBlock,
} from './price-blocks.ts';
import type { HistoryBatch } from './recorder.ts';
import { Retention } from './retention.ts';
import type { SqlClient } from './sql-client.ts';
import { WriteQueue } from './write-queue.ts';

export type { HistoryFence } from './history-fence.ts';

// The history writer: a bounded queue of batches written in order, one transaction each, off the engine's call
// stack. A slow or unavailable database only grows the queue; past its bound new batches are dropped, counted,
// logged and recorded as gaps once the database is back. Writing resumes by itself (retries with backoff). A batch the
// database refuses for what its rows hold (a data or integrity error) is split until the refused rows are found: they
// are skipped and counted, the rest is written (decision 148).
//
// This file coordinates; each job has its module: write-queue.ts (the bounded queue and what it drops),
// history-fence.ts (the ingest leader's fence, checked inside each batch's transaction), batch-sql.ts (the statements
// of a batch, and the split of a refused one), retention.ts (partitions, retention and the size cap).

export interface WriterLog {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export interface HistoryWriterOptions {
  /** Changes the queue may hold before it drops new batches. */
  maxQueueRows: number;
  retentionDays: number;
  /** Bytes the ticks may take: past it, whole days (quarter-days, embedded) go oldest first, never the current one. */
  maxBytes: number;
  now: () => number;
  log: WriterLog;
  /** First retry delay after a failed write (doubles up to 30 s). */
  retryMs?: number;
  /** How changes are stored (decision 240): a price_ticks row each (the default), or series blocks (price_blocks). */
  format?: 'rows' | 'blocks';
  /**
   * Blocks format: a folder for the open blocks' journal (decision 300; the embedded database on disk). With it a
   * crash loses at most the batch being written, and blocks stay open JOURNALED_WINDOW_MS; without it a crash loses
   * the open blocks, and they stay open BLOCK_WINDOW_MS.
   */
  journalDir?: string;
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
  /**
   * Rows the database refused for what they hold (SQLSTATE class 22 or 23: an event, a series or a tick), skipped and
   * never retried, with the ticks of a refused series; and the last refusal's message.
   */
  refusedRows: number;
  lastRefusal: string | null;
  /** The window between the previous leader's last write and this lead's first change, as recorded (a gap). */
  takeoverGap: { from: string; to: string; ms: number } | null;
}

/** What the shutdown wrote and what it gave up (HistoryWriter.close). */
export interface HistoryCloseReport {
  /** The queue was written within the budget. */
  drained: boolean;
  /** Batches given up, and the price changes in them (recorded as gaps in history_gaps). */
  lostBatches: number;
  lostChanges: number;
  /** Every open block was written (blocks format; always true for rows). */
  sealed: boolean;
  /** Why the last transaction failed, if it did. */
  error: string | null;
  /** Past the budget: how long the transaction under way took to stop, and the last transaction took. */
  stopMs?: number;
  lastWriteMs?: number;
}

export class HistoryWriter {
  /** One object for /readyz: the queue, the batch writer and the upkeep count into it (each into its own fields). */
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
    refusedRows: 0,
    lastRefusal: null,
    takeoverGap: null,
  };
  private readonly queue: WriteQueue;
  private readonly batches: BatchWriter;
  private readonly retention: Retention;
  private pumping: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay: number;
  private stopped = false;
  private fence: HistoryFence | null = null;
  /** Blocks format: the series' changes not yet in a written block (the reads merge them). */
  readonly openBlocks: OpenBlocks | null;
  private readonly journal: OpenJournal | null;

  constructor(
    private readonly db: SqlClient,
    private readonly options: HistoryWriterOptions,
  ) {
    this.retryDelay = options.retryMs ?? 500;
    this.queue = new WriteQueue(options.maxQueueRows, this.stats_, options.log);
    this.openBlocks = options.format === 'blocks' ? new OpenBlocks() : null;
    this.journal =
      this.openBlocks && options.journalDir ? new OpenJournal(options.journalDir, options.now) : null;
    if (this.openBlocks && this.journal) {
      this.openBlocks.windowMs = JOURNALED_WINDOW_MS;
      this.openBlocks.spread = JOURNALED_SPREAD;
    }
    this.batches = new BatchWriter(
      db,
      this.queue.gaps,
      this.stats_,
      options.log,
      this.openBlocks,
      this.journal,
    );
    this.retention = new Retention(db, options, this.stats_);
  }

  /**
   * Writes what a previous process left in the open blocks' journal (it ended without writing its open blocks: a
   * crash) as blocks, then empties the journal: per series, the journaled changes after its last stored one (a series'
   * blocks are written in the order of its changes, so those are the ones never written). Call before the first batch.
   * Returns how many changes it wrote.
   */
  async recover(): Promise<number> {
    if (!this.journal) return 0;
    const left = this.journal.read();
    let written = 0;
    if (left.seriesId.length > 0) {
      // Only series the database holds (a journal beside another database's copy names series it does not know).
      const known = await this.db.query<{ id: number }>(
        'SELECT id FROM history_series WHERE id = ANY($1::int4[])',
        [[...new Set(left.seriesId)]],
      );
      const ids = known.map((row) => row.id);
      const stored = await lastTicksBefore(this.db, null, ids, null);
      const kept = new Set(ids);
      const blocks = new OpenBlocks();
      const sealed: SealedBlock[] = [];
      for (let index = 0; index < left.seriesId.length; index += 1) {
        const id = left.seriesId[index]!;
        const atUs = left.atUs[index]!;
        const last = stored.get(id);
        if (!kept.has(id) || (last && atUs <= last.atUs) || !Number.isSafeInteger(atUs) || atUs < 0) continue;
        const full = blocks.append(id, atUs, left.american[index]!, left.decimal[index]!, left.state[index]!);
        if (full) sealed.push(full);
        written += 1;
      }
      sealed.push(...blocks.sealOlder());
      if (sealed.length > 0) await this.db.transaction((tx) => insertBlocks(tx, sealed));
      this.options.log.warn(
        { journaled: left.seriesId.length, written },
        'odds history: the open blocks a previous run left (it did not shut down cleanly) written from their journal',
      );
    }
    this.journal.clear();
    return written;
  }

  stats(): HistoryWriterStats {
    return { ...this.stats_, queuedBatches: this.queue.length, queuedChanges: this.queue.queuedChanges };
  }

  /**
   * ROLE=ingest, on taking the lead: later batches are written under `fence`. Losing the lead changes nothing here:
   * what was gathered while leading is still written under the old token, and refused once a newer leader has written.
   */
  lead(fence: HistoryFence): void {
    this.fence = fence;
    // Blocks format under a fence: each batch writes its blocks (decision 240: api instances and a next leader read
    // only what is written).
    if (this.openBlocks) {
      this.openBlocks.windowMs = 0;
      this.openBlocks.spread = 0;
    }
    this.stats_.fence = fence;
  }

  /** Queues a batch (never waits). Returns false when the queue was full and the batch was dropped. */
  enqueue(batch: HistoryBatch): boolean {
    if (this.stopped) return false;
    if (this.fence) stampFence(batch, this.fence);
    if (!this.queue.add(batch)) return false;
    this.kick();
    return true;
  }

  /**
   * Keeps day partitions ready ahead of the clock, and drops what is past the retention or over the size cap
   * (retention.ts).
   */
  maintain(): Promise<void> {
    return this.retention.maintain();
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
      const batch = this.queue.head()!;
      let refusedTicks = 0;
      try {
        try {
          await this.batches.write(batch);
        } catch (error) {
          if (!isDataError(error)) throw error;
          refusedTicks = await this.batches.split(batch, error, (rest, refused) =>
            this.keepRest(rest, refused),
          );
        }
      } catch (error) {
        if (error instanceof HistoryFencedError) {
          this.refuse(this.queue.head()!, error);
          continue;
        }
        this.failed(error);
        return;
      }
      this.queue.shift();
      const rows = batch.ticks.key.length;
      this.stats_.writtenBatches += 1;
      this.stats_.writtenChanges += rows - refusedTicks;
      this.stats_.lastWriteAt = new Date(this.options.now()).toISOString();
      this.stats_.writtenUpTo = new Date(batch.upTo).toISOString();
      if (this.stats_.failingSince) {
        this.options.log.info(
          { failingSince: this.stats_.failingSince, queuedChanges: this.queue.queuedChanges },
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
    this.stats_.fencedBatches += 1;
    this.stats_.fencedChanges += rows;
    if (this.stats_.fencedBatches === 1 || this.stats_.fencedBatches % 100 === 0) {
      this.options.log.warn(
        { token: error.token, current: error.current, fencedBatches: this.stats_.fencedBatches },
        'odds history batch refused: a newer leader writes the history',
      );
    }
  }

  /**
   * A failure other than a refusal while splitting: `rest` (the rows not written yet) replaces the batch at the head of
   * the queue, and the counters take what is done.
   */
  private keepRest(rest: HistoryBatch, refusedTicks: number): void {
    const done = this.queue.replaceHead(rest);
    this.stats_.writtenChanges += done - refusedTicks;
  }

  private failed(error: unknown): void {
    // Stopped by the shutdown (close): nothing to retry; close says what was not written.
    if (this.stopped || error instanceof WriteAbortedError) return;
    const message = error instanceof Error ? error.message : String(error);
    if (!this.stats_.failingSince) {
      this.stats_.failingSince = new Date(this.options.now()).toISOString();
      this.options.log.warn(
        { error: message, queuedChanges: this.queue.queuedChanges },
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

  /**
   * Waits until the queue is written. `timeoutMs` bounds the wait only while writes fail (retries): a pump that is
   * writing is waited for, however long the backlog (tests on a loaded machine rely on it). Returns whether it emptied.
   * The shutdown's wait is bounded by the clock instead (close).
   */
  async drain(timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length > 0 || this.pumping) {
      if (Date.now() >= deadline) return false;
      this.retryNow();
      await (this.pumping ?? new Promise((resolve) => setTimeout(resolve, 20)));
    }
    return true;
  }

  private retryNow(): void {
    if (!this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.kick();
  }

  /**
   * Waits until the queue is written or `timeoutMs` passes on the machine's clock, whatever is under way: `pumping`
   * settles only once the whole queue is written, so it is raced against the time left. Returns whether it emptied.
   */
  private async drainWithin(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length > 0 || this.pumping) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      this.retryNow();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const pause = new Promise((resolve) => {
        timer = setTimeout(resolve, this.pumping ? left : Math.min(20, left));
      });
      await Promise.race([this.pumping ?? pause, pause]);
      clearTimeout(timer);
    }
    return true;
  }

  private emptyBatch(): HistoryBatch {
    return {
      events: [],
      series: [],
      ticks: { key: [], atUs: [], american: [], decimal: [], state: [], league: [] },
      fresh: [],
      results: [],
      upTo: this.options.now(),
    };
  }

  /**
   * Blocks format: queues a batch of nothing that also writes every open block, once the batches queued before it are
   * in them (shutdown: what is gathered in memory goes to the database). Rows format: nothing to do.
   */
  sealBlocks(): void {
    if (!this.openBlocks || this.stopped) return;
    const batch = this.emptyBatch();
    this.batches.sealWith(batch);
    this.enqueue(batch);
  }

  /**
   * Shutdown (decision 306): writes the queue for at most `budgetMs`; past it, the transaction under way rolls back at
   * its next statement and the queued batches are given up (their changes recorded as gaps in history_gaps, their
   * events and results kept). Then one last transaction writes every open block (blocks format) and the gaps, and the
   * writer stops. Never rejects: what could not be written is in the report (and was logged by the caller).
   */
  async close(budgetMs: number): Promise<HistoryCloseReport> {
    try {
      return await this.closeWithin(budgetMs);
    } finally {
      // The journal's segment being written is closed; its files stay unless the last seal pruned them (decision 300).
      this.journal?.close();
    }
  }

  private async closeWithin(budgetMs: number): Promise<HistoryCloseReport> {
    const report: HistoryCloseReport = {
      drained: true,
      lostBatches: 0,
      lostChanges: 0,
      sealed: true,
      error: null,
    };
    if (this.stopped) return report;
    report.drained = await this.drainWithin(budgetMs);
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (!report.drained) {
      const stopping = performance.now();
      this.batches.abort(true);
      await this.pumping;
      this.batches.abort(false);
      report.stopMs = Math.round(performance.now() - stopping);
      const given = this.queue.abandon();
      report.lostBatches = given.batches;
      report.lostChanges = given.changes;
      const last = this.emptyBatch();
      last.events = given.events;
      last.results = given.results;
      if (this.openBlocks) this.batches.sealWith(last);
      const writing = performance.now();
      try {
        await this.batches.write(last);
      } catch (error) {
        report.sealed = false;
        report.error = error instanceof Error ? error.message : String(error);
      }
      report.lastWriteMs = Math.round(performance.now() - writing);
      return report;
    }
    // Drained: the seal batch (sealBlocks, queued by the caller) is written; a failing one is retried no more.
    report.sealed = this.openBlocks === null || this.openBlocks.size === 0;
    if (!report.sealed) report.error = this.stats_.lastError;
    return report;
  }

  /** Stops writing (after the caller drained what it could). */
  stop(): void {
    this.stopped = true;
    this.journal?.close();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
