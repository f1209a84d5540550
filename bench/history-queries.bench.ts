// History query benchmark (issue 13): latency of the paid history routes for an event with a day of ticks (600
// series, a change a minute each: 864,000 ticks) in a ticks table of at least 10 million rows, on PGlite and on
// PostgreSQL, through the real server (HTTP, an Enterprise key, one request at a time). Also the bytes per stored
// change at that size. Writes bench/results/history-queries.json.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; `none` skips PostgreSQL).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { BENCH_DATABASE_URL as DATABASE_URL, dropSchema, postgresReachable } from './lib/history-db.ts';
import { seedHistory, TARGET_EVENT, type SeedResult } from './lib/history-seed.ts';
import { fixtureBuild, startServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_HISTORY_PORT ?? 4132);
const FILLER_EVENTS = Number(process.env.BENCH_HISTORY_FILLER_EVENTS ?? 2_000);
const FILLER_TICKS = Number(process.env.BENCH_HISTORY_FILLER_TICKS ?? 46);
const REQUESTS = Number(process.env.BENCH_HISTORY_REQUESTS ?? 100);

function replayFile(dir: string): string {
  const file = path.join(dir, 'one-event.jsonl');
  const lines = [
    { replay: 1, keepalive: true, loop: false },
    {
      kind: 'event',
      sourceEventId: 'q-1',
      league: 'nhl',
      home: { name: 'Boston Bruins', abbreviation: 'BOS' },
      away: { name: 'New York Rangers', abbreviation: 'NYR' },
      startsIn: 3_600_000,
    },
    {
      kind: 'price',
      sourceEventId: 'q-1',
      book: 'fanduel',
      market: 'moneyline',
      outcome: 'home',
      american: -120,
    },
  ];
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return file;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(url: string, key: string) {
  const times: number[] = [];
  let bytes = 0;
  for (let index = 0; index < REQUESTS; index += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { 'x-api-key': key, 'accept-encoding': 'gzip' } });
    const body = await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200)
      throw new Error(`${url}: ${response.status} ${Buffer.from(body).toString()}`);
    bytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  return {
    p50Ms: Number(percentile(times, 50).toFixed(1)),
    p99Ms: Number(percentile(times, 99).toFixed(1)),
    maxMs: Number(times.at(-1)!.toFixed(1)),
    bodyBytes: bytes,
  };
}

async function run(database: 'pglite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-history-q-'));
  const schema = `bench_history_q_${process.pid}`;
  const now = Date.now();
  console.log(
    `${database}: seeding ${FILLER_EVENTS} filler events × 100 series × ${FILLER_TICKS} ticks + the target`,
  );
  const seed: SeedResult = await seedHistory({
    ...(database === 'postgres' ? { databaseUrl: DATABASE_URL } : {}),
    pgliteDir: path.join(dataDir, 'pglite'),
    schema: database === 'postgres' ? schema : 'public',
    now,
    fillerEvents: FILLER_EVENTS,
    fillerTicks: FILLER_TICKS,
  });
  console.log(`${database}: seeded`, seed);
  const server = await startServer(PORT, {
    DATA_DIR: dataDir,
    BUILD_DIR: fixtureBuild(),
    ODDS_SOURCE: `replay:${replayFile(dataDir)}`,
    HISTORY_RECORD: 'false',
    ...(database === 'postgres' ? { DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
  });
  try {
    const token = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const created = await fetch(`${server.origin}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'enterprise', email: 'bench@example.com' }),
    });
    if (!created.ok) throw new Error(`key creation failed: ${created.status} ${await created.text()}`);
    const key = ((await created.json()) as { key: string }).key;
    const event = encodeURIComponent(TARGET_EVENT);
    const base = `${server.origin}/v1/events/${event}`;
    const market = encodeURIComponent(`${TARGET_EVENT}|spread|full|-3.5`);
    const routes = {
      movementFirstPage: `${base}/movement`,
      movementOneMarketDay: `${base}/movement?market=${market}&limit=5000`,
      movementOneBookLastHour: `${base}/movement?book=fanduel&from=${new Date(now - 3_600_000).toISOString()}`,
      movementCandles5m: `${base}/movement?interval=5m&market=${market}`,
      lines: `${base}/lines`,
    };
    const figures: Record<string, unknown> = {};
    for (const [name, url] of Object.entries(routes)) {
      figures[name] = await measure(url, key);
      console.log(database, name, figures[name]);
    }
    return { seed, routes: figures };
  } finally {
    await server.stop();
    if (database === 'postgres') await dropSchema(DATABASE_URL, schema);
  }
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
  requestsPerRoute: REQUESTS,
};
const databases: ('pglite' | 'postgres')[] = ['pglite'];
if (await postgresReachable()) databases.push('postgres');
for (const database of databases) results[database] = await run(database);
results.loadAverageAfter = os.loadavg().map((value) => Number(value.toFixed(2)));
console.log(JSON.stringify(results, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/history-queries.json', `${JSON.stringify(results, null, 2)}\n`);
