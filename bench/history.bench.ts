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
import { americanToDecimal, toAmericanOdds } from '#domain/odds.ts';
import { openDatabase } from '#server/db/database.ts';
import { HistoryRecorder } from '#server/history/recorder.ts';
import { sqlClient } from '#server/history/sql-client.ts';
import { HistoryWriter } from '#server/history/writer.ts';
import {
  BENCH_DATABASE_URL as DATABASE_URL,
  dropSchema,
  postgresReachable,
  TICK_BYTES_SQL,
  tickBytes,
  type TickBytes,
} from './lib/history-db.ts';
import { fixtureBuild, startServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_HISTORY_PORT ?? 4131);
const WARM_MS = Number(process.env.BENCH_HISTORY_WARM_S ?? 20) * 1000;
const SECONDS = Number(process.env.BENCH_HISTORY_SECONDS ?? 20);
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
      tickBytes: null as null | TickBytes,
    };
    if (record && database === 'postgres') {
      const client = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
      await client.connect();
      const row = (await client.query(TICK_BYTES_SQL)).rows[0] as { bytes: string; rows: string };
      await client.end();
      figures.tickBytes = tickBytes(row);
    }
    return { figures, server };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function pgliteTickBytes(dataDir: string) {
  const db = await PGlite.create(dataDir);
  const row = (await db.query<{ bytes: string; rows: string }>(TICK_BYTES_SQL)).rows[0]!;
  await db.close();
  return tickBytes(row);
}

/**
 * The writer's ceiling, beside what the simulator asks of it: batches of 1,000 changes over 600 series (a busy
 * publish tick) queued all at once, timed until written. In this process, no server.
 */
async function writerCapacity(database: 'pglite' | 'postgres') {
  const { mkdtempSync } = await import('node:fs');
  const schema = `bench_history_cap_${process.pid}`;
  const handle = await openDatabase({
    databaseUrl: database === 'postgres' ? DATABASE_URL : undefined,
    pgliteDir: `${mkdtempSync(`${os.tmpdir()}/sharpline-history-cap-`)}/pglite`,
    schemaName: database === 'postgres' ? schema : 'public',
  });
  let clock = Date.UTC(2026, 10, 23, 12);
  const now = () => clock;
  const writer = new HistoryWriter(sqlClient(handle.db, handle.kind), {
    maxQueueRows: 10_000_000,
    retentionDays: 30,
    maxBytes: Number.MAX_SAFE_INTEGER,
    now,
    log: { info: () => {}, warn: () => {} },
  });
  await writer.maintain();
  const recorder = new HistoryRecorder(now);
  const event = {
    id: 'cap-1',
    league: 'nba' as const,
    home: { id: 'h', name: 'Home', abbreviation: 'HOM' },
    away: { id: 'a', name: 'Away', abbreviation: 'AWY' },
    startsAt: clock + 86_400_000,
    live: false,
  };
  recorder.onEvent({ kind: 'upsert', event });
  const batches = 200;
  const perBatch = 1_000;
  for (let batch = 0; batch < batches; batch += 1) {
    for (let index = 0; index < perBatch; index += 1) {
      clock += 1;
      const series = (batch * perBatch + index) % 600;
      const point = -0.5 - (series % 30);
      const american = -110 - ((batch + index) % 20);
      const first = batch * perBatch + index < 600;
      recorder.onPrice({
        previous: first
          ? null
          : {
              book: 'fanduel',
              outcome: 'home',
              american: toAmericanOdds(-300),
              decimal: americanToDecimal(toAmericanOdds(-300)),
              links: { desktop: null, mobile: null },
              updatedAt: clock,
              receivedAt: clock,
              suspended: false,
            },
        eventId: event.id,
        marketKey: `cap-1|spread|full|${point}`,
        spec: { type: 'spread', period: 'full', point },
        price: {
          book: series < 300 ? 'fanduel' : 'draftkings',
          outcome: series % 2 ? 'home' : 'away',
          american: toAmericanOdds(american),
          decimal: americanToDecimal(toAmericanOdds(american)),
          links: { desktop: null, mobile: null },
          updatedAt: clock,
          receivedAt: clock,
          suspended: false,
        },
      });
    }
    writer.enqueue(recorder.cut()!);
  }
  const queued = writer.stats().queuedChanges;
  const started = performance.now();
  await writer.drain(600_000);
  const seconds = (performance.now() - started) / 1000;
  await handle.close();
  if (database === 'postgres') {
    await dropSchema(DATABASE_URL, schema);
  }
  return {
    changes: queued,
    seconds: Number(seconds.toFixed(2)),
    changesPerSecond: Math.round(queued / seconds),
  };
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
    const capacity = await writerCapacity(database);
    console.log(database, 'writer capacity', capacity);
    results[database] = {
      writerCapacity: capacity,
      off: off.figures,
      on: on.figures,
      feedRatioOnOverOff: Number(
        (on.figures.feedRequestsPerSecond / off.figures.feedRequestsPerSecond).toFixed(3),
      ),
    };
    console.log(JSON.stringify(results[database], null, 2));
  }
} finally {
  if (databases.includes('postgres')) {
    for (const suffix of ['on', 'off'])
      await dropSchema(DATABASE_URL, `bench_history_${process.pid}_${suffix}`);
  }
}
results.loadAverageAfter = os.loadavg().map((value) => Number(value.toFixed(2)));
console.log(JSON.stringify(results, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/history.json', `${JSON.stringify(results, null, 2)}\n`);
