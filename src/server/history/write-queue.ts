import { inheritFence } from './history-fence.ts';
import type { HistoryBatch } from './recorder.ts';
import type { WriterLog } from './writer.ts';

// The history writer's queue (decision 106): batches in the order they were cut, bounded by the changes (ticks) they
// hold. A batch that would overflow it is dropped: counted, logged, and remembered as a gap that the next transaction
// records in history_gaps. Its events and new series are kept for a later batch, so only its ticks are lost.

/** A stretch of time whose changes were dropped (unix ms), and how many. */
export interface Gap {
  from: number;
  to: number;
  changes: number;
}

/**
 * Dropped stretches not yet recorded in history_gaps. A batch's transaction takes them and records them (batch-sql.ts);
 * if it fails it gives them back. What is dropped meanwhile starts stretches of its own, left for a later transaction.
 */
export class PendingGaps {
  private readonly gaps: Gap[] = [];

  /** A dropped stretch, merged into the last one when it starts less than 5 s after that one ends. */
  add(from: number, to: number, changes: number): void {
    const last = this.gaps[this.gaps.length - 1];
    if (last && from - last.to < 5_000) {
      last.to = Math.max(last.to, to);
      last.changes += changes;
    } else {
      this.gaps.push({ from, to, changes });
    }
  }

  /** The stretches for a transaction to record. */
  take(): Gap[] {
    return this.gaps.splice(0);
  }

  /** Stretches taken by a transaction that failed: recorded by a later one, first. */
  giveBack(gaps: Gap[]): void {
    this.gaps.unshift(...gaps);
  }
}

/** What the queue counts (in the writer's stats, /readyz). */
export interface QueueCounters {
  droppedBatches: number;
  droppedChanges: number;
}

export class WriteQueue {
  private readonly batches: HistoryBatch[] = [];
  private changes = 0;
  /** Dropped stretches not yet recorded in history_gaps. */
  readonly gaps = new PendingGaps();

  constructor(
    /** Changes the queue may hold before it drops new batches. */
    private readonly maxChanges: number,
    private readonly counters: QueueCounters,
    private readonly log: WriterLog,
  ) {}

  /** Batches queued. */
  get length(): number {
    return this.batches.length;
  }

  /** Changes (ticks) queued. */
  get queuedChanges(): number {
    return this.changes;
  }

  /** The batch to write next. */
  head(): HistoryBatch | undefined {
    return this.batches[0];
  }

  /** Queues a batch at the tail; returns false when it would overflow the queue and was dropped instead. */
  add(batch: HistoryBatch): boolean {
    const rows = batch.ticks.key.length;
    if (this.changes + rows > this.maxChanges && rows > 0) {
      this.drop(batch);
      return false;
    }
    this.batches.push(batch);
    this.changes += rows;
    return true;
  }

  /** Removes the head (written, or refused by the fence). */
  shift(): void {
    const batch = this.batches.shift();
    if (batch) this.changes -= batch.ticks.key.length;
  }

  /**
   * The head was written in part: `rest` (what is not written yet) replaces it. Returns how many of its changes are
   * done (written or refused) and so no longer queued.
   */
  replaceHead(rest: HistoryBatch): number {
    const done = this.batches[0]!.ticks.key.length - rest.ticks.key.length;
    this.batches[0] = rest;
    this.changes -= done;
    return done;
  }

  /**
   * Shutdown past its budget (decision 306): every queued batch is given up. Their changes (ticks, and the new series
   * they open) are counted as dropped and become gaps; their events and results are returned, for the last
   * transaction to write (a few rows each). Returns the batches that held changes, and how many.
   */
  abandon(): {
    batches: number;
    changes: number;
    events: HistoryBatch['events'];
    results: HistoryBatch['results'];
  } {
    const given = this.batches.splice(0);
    const events: HistoryBatch['events'] = [];
    const results: HistoryBatch['results'] = [];
    let changes = 0;
    let batches = 0;
    for (const batch of given) {
      const rows = batch.ticks.key.length;
      events.push(...batch.events);
      results.push(...batch.results);
      if (rows === 0) continue; // a batch of nothing (the seal) loses nothing
      batches += 1;
      changes += rows;
      this.counters.droppedBatches += 1;
      this.counters.droppedChanges += rows;
      this.gapOf(batch);
    }
    this.changes = 0;
    return { batches, changes, events, results };
  }

  /** The batch's ticks as a dropped stretch. */
  private gapOf(batch: HistoryBatch): void {
    let first = Infinity;
    let to = 0;
    for (const at of batch.ticks.atUs) {
      first = Math.min(first, Math.floor(at / 1000));
      to = Math.max(to, Math.floor(at / 1000));
    }
    this.gaps.add(first, to, batch.ticks.key.length);
  }

  private drop(batch: HistoryBatch): void {
    const rows = batch.ticks.key.length;
    this.counters.droppedBatches += 1;
    this.counters.droppedChanges += rows;
    this.gapOf(batch);
    // Events and new series of a dropped batch are kept for a later batch: only its ticks are lost. Never the head's:
    // it may be being written (its statements read it one at a time, a split counts its rows by position), and what
    // is added to it then would be lost or misplaced.
    const next = this.batches.length > 1 ? this.batches[this.batches.length - 1] : undefined;
    if (next) {
      next.events.push(...batch.events);
      next.series.push(...batch.series);
      next.results.push(...batch.results);
    } else if (batch.events.length > 0 || batch.series.length > 0 || batch.results.length > 0) {
      const kept: HistoryBatch = {
        ...batch,
        ticks: { key: [], atUs: [], american: [], decimal: [], state: [], league: [] },
        fresh: [],
      };
      inheritFence(kept, batch);
      this.batches.push(kept);
    }
    if (this.counters.droppedBatches === 1 || this.counters.droppedBatches % 100 === 0) {
      this.log.warn(
        {
          droppedBatches: this.counters.droppedBatches,
          droppedChanges: this.counters.droppedChanges,
          queuedChanges: this.changes,
        },
        'odds history queue full: batch dropped',
      );
    }
  }
}
