import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../db/database.ts';

// The statements on key_usage_daily (migration 0010, docs/decisions/155-usage-counting-and-key-rotation.md): the
// batched upsert each instance's flush issues, the reads of GET /v1/me/usage, and the 90-day retention.

export interface UsageDelta {
  /** The first key of the key's rotated line (ApiKeyRecord.ledgerId). */
  ledgerId: number;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** `req:<family>`, `stream_minutes` or `sgp_credits`. */
  metric: string;
  count: number;
}

/**
 * Adds the deltas to the stored counts in one statement (`count = count + excluded.count`), so that instances adding
 * their own deltas never overwrite each other's. The rows go in key order (ORDER BY): two instances' flushes lock the rows
 * they share in the same order and cannot deadlock. The deltas travel as one JSON parameter, whatever their number.
 */
export async function addUsage(db: Database, deltas: readonly UsageDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const json = JSON.stringify(
    deltas.map((delta) => ({ k: delta.ledgerId, d: delta.day, m: delta.metric, n: delta.count })),
  );
  await db.execute(sql`
    INSERT INTO key_usage_daily (ledger_key_id, day, metric, count)
    SELECT r.k, r.d, r.m, r.n
    FROM jsonb_to_recordset(${json}::jsonb) AS r(k bigint, d date, m text, n bigint)
    ORDER BY r.k, r.d, r.m
    ON CONFLICT (ledger_key_id, day, metric) DO UPDATE SET count = key_usage_daily.count + excluded.count`);
}

/** The stored counts of a key line from `from` to `to` (UTC days, `YYYY-MM-DD`, both included). */
export async function readUsage(
  db: Database,
  ledgerId: number,
  from: string,
  to: string,
): Promise<UsageDelta[]> {
  const rows = rowsOf<{ day: string; metric: string; count: string | number }>(
    await db.execute(sql`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, metric, count FROM key_usage_daily
      WHERE ledger_key_id = ${ledgerId} AND day BETWEEN ${from}::date AND ${to}::date`),
  );
  return rows.map((row) => ({ ledgerId, day: row.day, metric: row.metric, count: Number(row.count) }));
}

/** Deletes the days before `keepFrom` (`YYYY-MM-DD`); returns how many rows went. */
export async function pruneUsage(db: Database, keepFrom: string): Promise<number> {
  const rows = rowsOf<{ day: string }>(
    await db.execute(sql`DELETE FROM key_usage_daily WHERE day < ${keepFrom}::date RETURNING day`),
  );
  return rows.length;
}
