// History write benchmark (issue 13, docs/decisions/106-odds-history-storage.md): the real server on the market
// simulator (its full default load), once recording the odds history and once not (HISTORY_RECORD=false), on PGlite
// and on PostgreSQL. For each: the history's sustained writes per second while autocannon loads GET /tools/arbs.json
// (gzip, 50 connections), the feed's requests per second beside it, the deepest write queue seen, and the bytes the
// ticks take per stored change. The aim: recording costs the feed at most 10 %.
// Writes bench/results/history.json. PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
// in a schema of its own, dropped after; set BENCH_DATABASE_URL=none to skip it.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { fixtureBuild, startServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_HISTORY_PORT ?? 4131);
const WARM_MS = Number(process.env.BENCH_HISTORY_WARM_S ?? 20) * 1000;
const SECONDS = Number(process.env.BENCH_HISTORY_SECONDS ?? 20);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SETTINGS = { connections: 50, duration: SECONDS, pipelining: 1 };

interface HistoryDetails {
  recording: boolean;
  writtenChanges?: number;
  queuedChanges?: number;
  droppedChanges?: number;
}

async function readiness(origin: string): Promise<{ history: HistoryDetails; accepted: number }> {
  const body = (await (await fetch(`${origin}/readyz`)).json()) as {
    checks: { history: { details: HistoryDetails }; engine: { details: { accepted: number } } };
  };
  return { history: body.checks.history.details, accepted: body.checks.engine.details.accepted };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const TICK_BYTES_SQL = `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::int8::text AS bytes,
  (SELECT count(*) FROM price_ticks)::int8::text AS rows
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
  JOIN pg_namespace n ON n.oid = p.relnamespace WHERE p.relname = 'price_ticks' AND n.nspname = current_schema()`;

async function run(database: 'pglite' | 'postgres', record: boolean) {
  const schema = `bench_history_${process.pid}_${record ? 'on' : 'off'}`;
  const env: Record<string, string> = {
    ODDS_SOURCE: 'simulator',
    BUILD_DIR: fixtureBuild(),
    HISTORY_RECORD: String(record),
  };
  if (database === 'postgres') Object.assign(env, { DATABASE_URL, DATABASE_SCHEMA: schema });
  const server = await startServer(PORT, env);
  try {
    await sleep(WARM_MS);
    const before = await readiness(server.origin);
    const started = Date.now();
    let deepest = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        await sleep(1_000);
        const now = await readiness(server.origin).catch(() => undefined);
        deepest = Math.max(deepest, now?.history.queuedChanges ?? 0);
      }
    })();
    console.log(`${database}, recording ${record}: autocannon /tools/arbs.json for ${SECONDS} s`);
    const result = await autocannon({
      url: `${server.origin}/tools/arbs.json?t=1`,
      headers: { 'accept-encoding': 'gzip' },
      ...SETTINGS,
    });
    sampling = false;
    await sampler;
    const after = await readiness(server.origin);
    const seconds = (Date.now() - started) / 1000;
    const figures = {
      feedRequestsPerSecond: Math.round(result.requests.average),
      feedLatencyP99Ms: result.latency.p99,
      feedNon2xx: result.non2xx,
      acceptedPerSecond: Math.round((after.accepted - before.accepted) / seconds),
      historyWritesPerSecond: record
        ? Math.round(((after.history.writtenChanges ?? 0) - (before.history.writtenChanges ?? 0)) / seconds)
        : null,
      deepestQueue: record ? deepest : null,
      dropped: record ? (after.history.droppedChanges ?? 0) : null,
      tickBytes: null as null | { bytes: number; rows: number; bytesPerChange: number },
    };
    if (record && database === 'postgres') {
      const client = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
      await client.connect();
      const row = (await client.query(TICK_BYTES_SQL)).rows[0] as { bytes: string; rows: string };
      await client.end();
      figures.tickBytes = sizes(row);
    }
    return { figures, server };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

function sizes(row: { bytes: string; rows: string }) {
  const bytes = Number(row.bytes);
  const rows = Number(row.rows);
  return { bytes, rows, bytesPerChange: rows ? Math.round(bytes / rows) : 0 };
}

async function pgliteTickBytes(dataDir: string) {
  const db = await PGlite.create(dataDir);
  const row = (await db.query<{ bytes: string; rows: string }>(TICK_BYTES_SQL)).rows[0]!;
  await db.close();
  return sizes(row);
}

async function postgresReachable(): Promise<boolean> {
  if (DATABASE_URL === 'none') return false;
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function dropSchemas() {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  for (const suffix of ['on', 'off']) {
    await client.query(`DROP SCHEMA IF EXISTS bench_history_${process.pid}_${suffix} CASCADE`);
  }
  await client.end();
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
  settings: { ...SETTINGS, warmSeconds: WARM_MS / 1000 },
};
const databases: ('pglite' | 'postgres')[] = ['pglite'];
if (await postgresReachable()) databases.push('postgres');
try {
  for (const database of databases) {
    const off = await run(database, false);
    await off.server.stop();
    const on = await run(database, true);
    await on.server.stop();
    if (database === 'pglite') on.figures.tickBytes = await pgliteTickBytes(`${on.server.dataDir}/pglite`);
    results[database] = {
      off: off.figures,
      on: on.figures,
      feedRatioOnOverOff: Number(
        (on.figures.feedRequestsPerSecond / off.figures.feedRequestsPerSecond).toFixed(3),
      ),
    };
    console.log(JSON.stringify(results[database], null, 2));
  }
} finally {
  if (databases.includes('postgres')) await dropSchemas();
}
results.loadAverageAfter = os.loadavg().map((value) => Number(value.toFixed(2)));
console.log(JSON.stringify(results, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/history.json', `${JSON.stringify(results, null, 2)}\n`);
