import pg from 'pg';

// What the benches on PostgreSQL (the two history benches, bench/trial.bench.ts) share about their databases: the
// PostgreSQL they use (BENCH_DATABASE_URL), whether it answers, dropping their schemas, and what the ticks take on disk.

export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** False when BENCH_DATABASE_URL is `none` or does not answer within 2 s. */
export async function postgresReachable(url = BENCH_DATABASE_URL): Promise<boolean> {
  if (url === 'none') return false;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

/**
 * Bytes of every ticks partition (heap and indexes; every leaf: on PGlite a day partition is in quarters, decision
 * 279) and the ticks' count, in the current schema.
 */
export const TICK_BYTES_SQL = `SELECT COALESCE(SUM(pg_total_relation_size(t.relid)), 0)::int8::text AS bytes,
  (SELECT count(*) FROM price_ticks)::int8::text AS rows
  FROM pg_partition_tree(to_regclass(quote_ident(current_schema()) || '.price_ticks')) t
  WHERE t.isleaf AND t.level > 0`;

export interface TickBytes {
  bytes: number;
  rows: number;
  bytesPerChange: number;
}

export function tickBytes(row: { bytes: string; rows: string }): TickBytes {
  const bytes = Number(row.bytes);
  const rows = Number(row.rows);
  return { bytes, rows, bytesPerChange: rows ? Math.round(bytes / rows) : 0 };
}
