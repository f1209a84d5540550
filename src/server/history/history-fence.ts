import type { HistoryBatch } from './recorder.ts';
import type { SqlRunner } from './sql-client.ts';

// The ingest leader's fence on the odds history (decision 146): every batch is stamped with the fence current when it
// was queued, and its transaction starts by locking the history_fence row and comparing tokens. An older token than
// the stored one is refused (a newer leader writes now); a newer one is this lead's first write, which records the
// window since the previous leader's last write as a takeover gap. ROLE=all writes without a fence (no statement).

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

/** Batches are written under the fence that was current when they were queued (a lead they were gathered in). */
const batchFences = new WeakMap<HistoryBatch, HistoryFence>();

/** Parts of a batch being split: when the whole batch's first change happened (a takeover gap ends there). */
const batchStarts = new WeakMap<HistoryBatch, number>();

/** Writes `batch` under `fence` (the lead it was gathered in). */
export function stampFence(batch: HistoryBatch, fence: HistoryFence): void {
  batchFences.set(batch, fence);
}

/** The fence `batch` is written under (none: ROLE=all, or gathered before any lead). */
export function fenceOf(batch: HistoryBatch): HistoryFence | undefined {
  return batchFences.get(batch);
}

/**
 * `part` (rows taken from `whole`) is written under `whole`'s fence; given `start`, its takeover gap ends there (the
 * whole batch's first change) rather than at its own first tick.
 */
export function inheritFence(part: HistoryBatch, whole: HistoryBatch, start?: number): void {
  const fence = batchFences.get(whole);
  if (fence) batchFences.set(part, fence);
  if (start !== undefined) batchStarts.set(part, start);
}

/** When a batch's first change happened (unix ms): its first tick, or its `upTo` when it has none. */
export function firstChange(batch: HistoryBatch): number {
  const start = batchStarts.get(batch);
  if (start !== undefined) return start;
  let first = batch.upTo;
  for (const at of batch.ticks.atUs) first = Math.min(first, Math.floor(at / 1000));
  return first;
}

/**
 * Inside the batch's transaction: locks the fence row (one writer at a time) and checks the batch's token against it.
 * Older → refused (`HistoryFencedError`); newer → this lead's first write, which records the window since the previous
 * leader's last write as a gap and returns it; equal → moves on. The row then holds the batch's token and `upTo`.
 */
export async function checkFence(
  tx: SqlRunner,
  fence: HistoryFence,
  batch: HistoryBatch,
): Promise<{ from: number; to: number } | null> {
  const [row] = await tx.query<{ token: string; up_to: string | null }>(
    `SELECT token::text AS token, (extract(epoch from up_to) * 1000)::int8::text AS up_to
     FROM history_fence WHERE id = 1 FOR UPDATE`,
  );
  const current = row ? Number(row.token) : 0;
  if (current > fence.token) throw new HistoryFencedError(fence.token, current);
  let gap: { from: number; to: number } | null = null;
  if (current < fence.token && row?.up_to) {
    const first = firstChange(batch);
    const from = Number(row.up_to);
    if (first > from) {
      gap = { from, to: first };
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

/**
 * Inside the batch's transaction, after `checkFence` locked the row: the history is complete up to `upTo` (unix ms)
 * and no further. The writer in blocks holds changes in memory until their block is written (decision 240): its
 * `upTo` is then just before the earliest of them, so that a new leader's takeover gap covers what it never wrote.
 */
export async function setFenceUpTo(tx: SqlRunner, fence: HistoryFence, upTo: number): Promise<void> {
  await tx.query(`UPDATE history_fence SET up_to = to_timestamp($2 / 1000.0) WHERE id = 1 AND token = $1`, [
    fence.token,
    upTo,
  ]);
}
