import type { SqlClient } from './sql-client.ts';
import type { WriterLog } from './writer.ts';

// The odds history's upkeep (decision 106): day partitions of price_ticks and price_blocks (decision 240) made ahead of the clock, whole days dropped
// past the retention (a DROP TABLE, no DELETE), then oldest first while the ticks take more than the size cap, and the
// events, series and gaps that no longer have ticks.
//
// On the embedded database a day partition is itself partitioned in quarters (six hours, `_h00` … `_h18`; decision
// 279): a day of the simulator's history is several GB there, more than the 2 GiB default cap, so the cap empties
// the oldest quarters (TRUNCATE: the files go at once, and the quarter stays to take a late write) down to the current
// one, where it could only drop whole days before today. The reads bound their probes by the day as before (decision
// 277): the planner keeps the day's quarters those bounds allow. On PostgreSQL days stay whole.

const DAY_MS = 86_400_000;
/** Day partitions kept ready ahead of the clock. */
const DAYS_AHEAD = 3;
/** Parts of a day partition on the embedded database (decision 279). */
export const EMBEDDED_PARTS_A_DAY = 4;

export interface RetentionOptions {
  retentionDays: number;
  /** Bytes the ticks may take: past it, whole days (or quarters, embedded) are dropped oldest first, never the current one. */
  maxBytes: number;
  now: () => number;
  log: WriterLog;
}

/** What the upkeep found (in the writer's stats, /readyz): the ticks' bytes at the last run, and whether over the cap. */
export interface RetentionCounters {
  storedBytes: number | null;
  overSizeCap: boolean;
}

/** A piece the cap may free: a whole day partition (dropped) or a part of one (emptied). */
interface Piece {
  name: string;
  bytes: number;
  /** Nothing in its table (an emptied part keeps its indexes' first pages, nothing to free). */
  empty: boolean;
  day: number;
  startMs: number;
  endMs: number;
  part: boolean;
}

export class Retention {
  private readonly partsADay: number;

  constructor(
    private readonly db: SqlClient,
    private readonly options: RetentionOptions,
    private readonly counters: RetentionCounters,
  ) {
    this.partsADay = db.kind === 'pglite' ? EMBEDDED_PARTS_A_DAY : 1;
  }

  /**
   * Keeps day partitions ready from yesterday to DAYS_AHEAD days ahead, drops what is past the retention (whole
   * partitions, then the events and series that no longer have ticks), and frees the oldest days or parts of days
   * while the ticks take more than the cap (never the current day, or on the embedded database the current quarter).
   */
  async maintain(): Promise<void> {
    const now = this.options.now();
    const today = Math.floor(now / DAY_MS);
    const kinds = await relationKinds(this.db);
    for (let day = today - 1; day <= today + DAYS_AHEAD; day += 1) {
      for (const table of TABLES) await this.makeDay(table, day, today, kinds);
    }
    const cutoffDay = today - this.options.retentionDays;
    const leaves = (await tickPartitions(this.db)).map((leaf) => ({
      ...leaf,
      ...pieceOfPartition(leaf.name),
    }));
    let total = leaves.reduce((sum, leaf) => sum + leaf.bytes, 0);
    const dropped = new Set<string>();
    for (const leaf of leaves) {
      if (leaf.day === null || leaf.day >= cutoffDay || dropped.has(leaf.dayName)) continue;
      await this.db.query(`DROP TABLE IF EXISTS ${leaf.dayName}`);
      dropped.add(leaf.dayName);
    }
    const pieces = piecesOf(leaves.filter((leaf) => leaf.day !== null && !dropped.has(leaf.dayName)));
    total = leaves.filter((leaf) => !dropped.has(leaf.dayName)).reduce((sum, leaf) => sum + leaf.bytes, 0);
    let freed = false;
    for (const piece of pieces) {
      if (total <= this.options.maxBytes) break;
      // Never the day (or part) the clock is in: it is being written.
      if (piece.endMs > now || (piece.part && piece.empty)) continue;
      await this.db.query(piece.part ? `TRUNCATE ${piece.name}` : `DROP TABLE IF EXISTS ${piece.name}`);
      total -= piece.bytes;
      freed = true;
      this.options.log.warn(
        { partition: piece.name, bytes: piece.bytes, maxBytes: this.options.maxBytes },
        piece.part
          ? 'odds history over its size cap: oldest part of a day emptied before its retention'
          : 'odds history over its size cap: oldest day dropped before its retention',
      );
    }
    if (freed) total = (await tickPartitions(this.db)).reduce((sum, leaf) => sum + leaf.bytes, 0);
    this.counters.storedBytes = total;
    this.counters.overSizeCap = total > this.options.maxBytes;
    if (this.counters.overSizeCap) {
      this.options.log.warn(
        { storedBytes: total, maxBytes: this.options.maxBytes },
        this.partsADay > 1
          ? 'odds history over its size cap with only the current quarter of a day left: raise HISTORY_MAX_GB'
          : 'odds history over its size cap with only today left: raise HISTORY_MAX_GB',
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

  /**
   * Makes `day`'s partition of `table` when missing: in parts on the embedded database. A whole (unparted) day made
   * before decision 279 stays as it is, unless it is a day ahead with nothing in it yet: that one is made again in parts.
   */
  private async makeDay(table: Table, day: number, today: number, kinds: Map<string, string>): Promise<void> {
    const name = partitionName(day, table);
    const parts = this.partsADay;
    try {
      const kind = kinds.get(name);
      if (kind === 'r' && parts > 1 && day > today) {
        const rows = await this.db.query<{ empty: boolean }>(
          `SELECT NOT EXISTS (SELECT 1 FROM ${name}) AS empty`,
        );
        if (rows[0]?.empty) {
          await this.db.query(`DROP TABLE ${name}`);
          kinds.delete(name);
        }
      }
      if (kinds.get(name) === 'r' || (kinds.has(name) && parts === 1)) return;
      const range = `FOR VALUES FROM ('${isoAt(day * DAY_MS)}') TO ('${isoAt((day + 1) * DAY_MS)}')`;
      if (parts === 1) {
        await this.db.query(`CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${table} ${range}`);
        return;
      }
      await this.db.query(
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${table} ${range} PARTITION BY RANGE (${KEYS[table]})`,
      );
      const partMs = DAY_MS / parts;
      for (let part = 0; part < parts; part += 1) {
        const from = day * DAY_MS + part * partMs;
        await this.db.query(
          `CREATE TABLE IF NOT EXISTS ${partName(name, from)} PARTITION OF ${name}
           FOR VALUES FROM ('${isoAt(from)}') TO ('${isoAt(from + partMs)}')`,
        );
      }
    } catch (error) {
      // Rows of that day already sit in the default partition (a clock jump): they stay there, still queried.
      this.options.log.warn(
        { partition: name, error: error instanceof Error ? error.message : String(error) },
        'odds history partition not created',
      );
    }
  }
}

/** The pieces the cap may free, oldest first: whole days, and the parts of the days made in parts. */
function piecesOf(
  leaves: {
    name: string;
    bytes: number;
    tableBytes: number;
    day: number | null;
    dayName: string;
    partMs: number | null;
  }[],
): Piece[] {
  const pieces: Piece[] = [];
  for (const leaf of leaves) {
    if (leaf.day === null) continue;
    const startMs = leaf.partMs ?? leaf.day * DAY_MS;
    const endMs = leaf.partMs === null ? (leaf.day + 1) * DAY_MS : startMs + partLengthMs(leaf.name, leaves);
    pieces.push({
      name: leaf.name,
      bytes: leaf.bytes,
      empty: leaf.tableBytes === 0,
      day: leaf.day,
      startMs,
      endMs,
      part: leaf.partMs !== null,
    });
  }
  return pieces.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/** A part runs to the next part of its day (or the day's end). */
function partLengthMs(
  name: string,
  leaves: { name: string; dayName: string; partMs: number | null }[],
): number {
  const own = leaves.find((leaf) => leaf.name === name)!;
  const next = leaves
    .filter((leaf) => leaf.dayName === own.dayName && leaf.partMs !== null && leaf.partMs > own.partMs!)
    .reduce((min, leaf) => Math.min(min, leaf.partMs!), Number.POSITIVE_INFINITY);
  const dayEnd = (Math.floor(own.partMs! / DAY_MS) + 1) * DAY_MS;
  return Math.min(next, dayEnd) - own.partMs!;
}

/** pg_class.relkind of the history's day partitions ('r' a table, 'p' a table in parts). */
async function relationKinds(db: SqlClient): Promise<Map<string, string>> {
  const rows = await db.query<{ name: string; kind: string }>(
    `SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relname ~ '^price_(ticks|blocks)_p[0-9]{8}$'`,
  );
  return new Map(rows.map((row) => [row.name, row.kind]));
}

/**
 * The partitions of price_ticks and price_blocks that hold rows (a day's, a part of a day's on the embedded database,
 * the default ones) and what each takes on disk (bytes: indexes and TOAST included; tableBytes: its rows' pages).
 */
export async function tickPartitions(
  db: SqlClient,
): Promise<{ name: string; bytes: number; tableBytes: number }[]> {
  const rows = await db.query<{ name: string; bytes: string; table_bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::int8::text AS bytes,
       pg_relation_size(c.oid)::int8::text AS table_bytes
     FROM unnest(ARRAY['price_ticks', 'price_blocks']) AS r(name)
     CROSS JOIN LATERAL pg_partition_tree(to_regclass(quote_ident(current_schema()) || '.' || r.name)) t
     JOIN pg_class c ON c.oid = t.relid
     WHERE t.isleaf AND t.level > 0`,
  );
  return rows.map(({ name, bytes, table_bytes }) => ({
    name,
    bytes: Number(bytes),
    tableBytes: Number(table_bytes),
  }));
}

function isoAt(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('.000Z', '+00');
}

/** The day-partitioned tables of the history: a row per change, and series blocks (decision 240), with their keys. */
const TABLES = ['price_ticks', 'price_blocks'] as const;
type Table = (typeof TABLES)[number];
const KEYS: Record<Table, string> = { price_ticks: 'at', price_blocks: 'first_at' };

export function partitionName(day: number, table: Table = 'price_ticks'): string {
  return `${table}_p${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** A part of a day partition, named by its first hour (UTC): `price_blocks_p20261206_h18`. */
export function partName(dayName: string, fromMs: number): string {
  return `${dayName}_h${new Date(fromMs).toISOString().slice(11, 13)}`;
}

/** The day of a partition (null: a default one), its day partition's name, and a part's start (null: a whole day). */
function pieceOfPartition(name: string): { day: number | null; dayName: string; partMs: number | null } {
  const match = /^(price_(?:ticks|blocks)_p(\d{4})(\d{2})(\d{2}))(?:_h(\d{2}))?$/.exec(name);
  if (!match) return { day: null, dayName: name, partMs: null };
  const dayMs = Date.UTC(Number(match[2]), Number(match[3]) - 1, Number(match[4]));
  return {
    day: Math.floor(dayMs / DAY_MS),
    dayName: match[1]!,
    partMs: match[5] === undefined ? null : dayMs + Number(match[5]) * 3_600_000,
  };
}
