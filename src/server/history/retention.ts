import type { SqlClient } from './sql-client.ts';
import type { WriterLog } from './writer.ts';

// The odds history's upkeep (decision 106): day partitions of price_ticks and price_blocks (decision 240) made ahead of the clock, whole days dropped
// past the retention (a DROP TABLE, no DELETE), then oldest first while the ticks take more than the size cap (never
// today's), and the events, series and gaps that no longer have ticks.

const DAY_MS = 86_400_000;
/** Day partitions kept ready ahead of the clock. */
const DAYS_AHEAD = 3;

export interface RetentionOptions {
  retentionDays: number;
  /** Bytes the ticks may take: past it, whole days are dropped oldest first (never today's). */
  maxBytes: number;
  now: () => number;
  log: WriterLog;
}

/** What the upkeep found (in the writer's stats, /readyz): the ticks' bytes at the last run, and whether over the cap. */
export interface RetentionCounters {
  storedBytes: number | null;
  overSizeCap: boolean;
}

export class Retention {
  constructor(
    private readonly db: SqlClient,
    private readonly options: RetentionOptions,
    private readonly counters: RetentionCounters,
  ) {}

  /**
   * Keeps day partitions ready from yesterday to DAYS_AHEAD days ahead, and drops what is past the retention
   * (whole partitions, then the events and series that no longer have ticks).
   */
  async maintain(): Promise<void> {
    const now = this.options.now();
    const today = Math.floor(now / DAY_MS);
    for (let day = today - 1; day <= today + DAYS_AHEAD; day += 1) {
      for (const table of TABLES) {
        const name = partitionName(day, table);
        try {
          await this.db.query(
            `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${table}
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
    }
    const cutoffDay = today - this.options.retentionDays;
    const days = (await tickPartitions(this.db))
      .map(({ name, bytes }) => ({ name, bytes, day: dayOfPartition(name) }))
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
    this.counters.storedBytes = total;
    this.counters.overSizeCap = total > this.options.maxBytes;
    if (this.counters.overSizeCap) {
      this.options.log.warn(
        { storedBytes: total, maxBytes: this.options.maxBytes },
        'odds history over its size cap with only today left: raise HISTORY_MAX_GB',
      );
    }
    const cutoff = cutoffDay * DAY_MS;
    await this.db.query(`DELETE FROM price_ticks_default WHERE at < to_timestamp($1 / 1000.0)`, [cutoff]);
    await this.db.query(`DELETE FROM price_blocks_default WHERE first_at < to_timestamp($1 / 1000.0)`, [
      cutoff,
    ]);
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

/** The day partitions of price_ticks and price_blocks and what each takes on disk (bytes, indexes and TOAST included). */
export async function tickPartitions(db: SqlClient): Promise<{ name: string; bytes: number }[]> {
  const rows = await db.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::int8::text AS bytes FROM pg_inherits i
     JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
     JOIN pg_namespace n ON n.oid = p.relnamespace
     WHERE p.relname IN ('price_ticks', 'price_blocks') AND n.nspname = current_schema()`,
  );
  return rows.map(({ name, bytes }) => ({ name, bytes: Number(bytes) }));
}

function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10) + ' 00:00:00+00';
}

/** The day-partitioned tables of the history: a row per change, and series blocks (decision 240). */
const TABLES = ['price_ticks', 'price_blocks'] as const;

export function partitionName(day: number, table: (typeof TABLES)[number] = 'price_ticks'): string {
  return `${table}_p${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

function dayOfPartition(name: string): number | null {
  const match = /^price_(?:ticks|blocks)_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  if (!match) return null;
  return Math.floor(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS);
}
