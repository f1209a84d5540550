import { SPORTSBOOK_KEYS } from '#domain/sportsbooks.ts';
import { openDatabase } from '#server/db/database.ts';
import { sqlClient } from '#server/history/sql-client.ts';
import { HistoryWriter } from '#server/history/writer.ts';
import { TICK_BYTES_SQL, tickBytes } from './history-db.ts';

// Fills an odds-history database for the query benchmark: one target event with a day of ticks on every series (20
// markets × 2 outcomes × 15 books = 600 series, one change a minute each: 864,000 ticks) among `fillerEvents` other
// events (100 series each, `fillerTicks` ticks per series), written with generate_series inside the database.

export const TARGET_EVENT = 'bench-target-nba';
export const TARGET_MARKETS = 20;
const DAY_MS = 86_400_000;

export interface SeedOptions {
  /** Unset: PGlite at `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir: string;
  schema: string;
  now: number;
  fillerEvents: number;
  fillerTicks: number;
}

export interface SeedResult {
  rows: number;
  seconds: number;
  tickBytes: number;
  bytesPerChange: number;
}

const TEAM = (name: string) =>
  JSON.stringify({ id: name.toLowerCase(), name, abbreviation: name.slice(0, 3) });

export async function seedHistory(options: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  const handle = await openDatabase({
    databaseUrl: options.databaseUrl,
    pgliteDir: options.pgliteDir,
    schemaName: options.schema,
  });
  const db = sqlClient(handle.db, handle.kind);
  const log = { info: () => {}, warn: (details: unknown, message: string) => console.warn(message, details) };
  await new HistoryWriter(db, {
    maxQueueRows: 1,
    retentionDays: 30,
    maxBytes: Number.MAX_SAFE_INTEGER,
    now: () => options.now,
    log,
  }).maintain();
  const from = options.now - DAY_MS + 60_000;
  const books = `ARRAY[${SPORTSBOOK_KEYS.map((book) => `'${book}'`).join(',')}]`;
  await db.query(
    `INSERT INTO history_events (event_id, league, home, away, starts_at, first_seen_at)
     SELECT CASE WHEN g = 0 THEN '${TARGET_EVENT}' ELSE 'bench-filler-' || g END, 'nba', $1::jsonb, $2::jsonb,
            to_timestamp($3 / 1000.0), to_timestamp($4 / 1000.0)
     FROM generate_series(0, $5::int) g`,
    [TEAM('Home'), TEAM('Away'), options.now + 3_600_000, from, options.fillerEvents],
  );
  // Target: market 0 a moneyline, 1–9 spreads, 10–19 totals; every book prices both outcomes.
  await db.query(
    `INSERT INTO history_series (event_id, market_key, market_type, period, line, outcome, book, side_id,
                                 opening_at, opening_american, opening_decimal)
     SELECT '${TARGET_EVENT}', '${TARGET_EVENT}|' || t.type || '|full|' || COALESCE(t.line::text, ''), t.type, 'full',
            t.line, CASE WHEN t.type = 'total' THEN (ARRAY['over','under'])[o] ELSE (ARRAY['away','home'])[o] END,
            b.book, b.book || '-' || m || '-' || o, to_timestamp($1 / 1000.0), -110, 1.9090
     FROM generate_series(0, ${TARGET_MARKETS - 1}) m
     CROSS JOIN LATERAL (SELECT CASE WHEN m = 0 THEN 'moneyline' WHEN m < 10 THEN 'spread' ELSE 'total' END AS type,
                                CASE WHEN m = 0 THEN NULL WHEN m < 10 THEN -0.5 - m ELSE 210.5 + m END AS line) t
     CROSS JOIN generate_series(1, 2) o
     CROSS JOIN unnest(${books}) AS b(book)`,
    [from],
  );
  await db.query(
    `INSERT INTO history_series (event_id, market_key, market_type, period, line, outcome, book, side_id,
                                 opening_at, opening_american, opening_decimal)
     SELECT 'bench-filler-' || e, 'bench-filler-' || e || '|total|full|' || (200.5 + m), 'total', 'full', 200.5 + m,
            (ARRAY['over','under'])[o], 'fanduel', 'f-' || e || '-' || m || '-' || o, to_timestamp($1 / 1000.0), -110,
            1.9090
     FROM generate_series(1, $2::int) e CROSS JOIN generate_series(0, 49) m CROSS JOIN generate_series(1, 2) o`,
    [from, options.fillerEvents],
  );
  // Ticks: a random walk around −110 (American) with its decimal, one a minute for the target's series, spread over
  // the day for the fillers'.
  const tickSql = (where: string, count: string, step: string) => `
    INSERT INTO price_ticks (at, american, decimal, series_id, state)
    SELECT to_timestamp($1 / 1000.0) + k * ${step} + (s.id % 60) * interval '1 second',
           a.american, CASE WHEN a.american > 0 THEN 1 + a.american / 100.0 ELSE 1 + 100.0 / -a.american END,
           s.id, CASE WHEN k % 97 = 96 THEN 1 ELSE 0 END
    FROM history_series s CROSS JOIN generate_series(0, ${count}) k
    CROSS JOIN LATERAL (SELECT CASE WHEN v >= 0 THEN 100 + v ELSE -100 + v END AS american
                        FROM (SELECT ((s.id * 7 + k * 13) % 41) - 30 AS v) x) a
    WHERE ${where}`;
  await db.query(tickSql(`s.event_id = '${TARGET_EVENT}'`, '1439', `interval '1 minute'`), [from]);
  await db.query(
    tickSql(
      `s.event_id <> '${TARGET_EVENT}'`,
      String(options.fillerTicks - 1),
      `interval '1 minute' * 1439 / ${options.fillerTicks}`,
    ),
    [from],
  );
  await db.query('ANALYZE');
  const [size] = await db.query<{ bytes: string; rows: string }>(TICK_BYTES_SQL);
  await handle.close();
  const sizes = tickBytes(size!);
  return {
    rows: sizes.rows,
    seconds: Math.round((Date.now() - started) / 1000),
    tickBytes: sizes.bytes,
    bytesPerChange: sizes.bytesPerChange,
  };
}
