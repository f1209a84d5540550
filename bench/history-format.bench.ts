// History storage format benchmark (issue 59, decision 240): the market simulator's changes (a seeded replay, no
// clock of its own) recorded by a real app's history, stored as rows (HISTORY_FORMAT=rows, one price_ticks row per
// change) or as series blocks (HISTORY_FORMAT=blocks), on PGlite and on PostgreSQL. For each: the bytes the history
// takes on disk per change written (heap and indexes of every price_ticks and price_blocks partition ÷ changes
// written), the time the writer took (its drains, the engine's own work left out), and the median latency (wall, and
// this process's CPU) of a narrow historical read (`/v1/historical/odds`, one league, market and book, `limit=1`) and
// of a full league board (every page) at instants across the replay, the formats' reads alternating instant by instant.
//   BENCH_FORMATS=rows,blocks  BENCH_FORMAT_EVENTS=100  BENCH_FORMAT_MINUTES=5  BENCH_FORMAT_READS=15
// `blocks-journal` (PGlite only): blocks on an embedded database on disk, as `npm start` runs it: its open blocks are
// journaled and stay open JOURNALED_WINDOW_MS (decision 300) rather than BLOCK_WINDOW_MS.
//   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; `none` skips PostgreSQL)
// Writes bench/results/history-format.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';
import type { SqlRunner } from '#server/history/sql-client.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import { BENCH_DATABASE_URL, dropSchema, postgresReachable } from './lib/history-db.ts';

const FORMATS = (process.env.BENCH_FORMATS ?? 'rows,blocks').split(',');
const EVENTS = Number(process.env.BENCH_FORMAT_EVENTS ?? 100);
const MINUTES = Number(process.env.BENCH_FORMAT_MINUTES ?? 5);
const READS = Number(process.env.BENCH_FORMAT_READS ?? 15);
const T0 = Date.UTC(2026, 10, 23, 12);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
};

/** One format's app with the replay written: its write figures, and a timed read of the board. */
async function written(database: 'pglite' | 'postgres', format: string) {
  const schema = `bench_format_${process.pid}_${format}`;
  const journaled = format === 'blocks-journal';
  const env: Record<string, string> = { HISTORY_FORMAT: journaled ? 'blocks' : format };
  const diskDir = journaled ? mkdtempSync(path.join(os.tmpdir(), 'sharpline-format-')) : null;
  if (diskDir) env.PGLITE_DIR = path.join(diskDir, 'pglite');
  if (database === 'postgres')
    Object.assign(env, { DATABASE_URL: BENCH_DATABASE_URL, DATABASE_SCHEMA: schema });
  const clock = virtualClock(T0);
  const app: FastifyInstance = await buildTestApp({ now: clock.now, config: trialTestConfig(env) });
  await app.ready();
  app.engine.stop();
  const close = async () => {
    await app.close();
    if (database === 'postgres') await dropSchema(BENCH_DATABASE_URL, schema);
    if (diskDir) rmSync(diskDir, { recursive: true, force: true });
  };
  try {
    const sim = new MarketSimulator({ seed: 7, startMs: T0, events: EVENTS, stepMs: 250, props: false });
    for (const message of sim.initial()) app.engine.ingest(message);
    let writeMs = 0;
    const flush = async () => {
      const started = performance.now();
      if (!(await app.history.flush(600_000))) throw new Error('history not written');
      writeMs += performance.now() - started;
    };
    await flush();
    const steps = (MINUTES * 60_000) / 250;
    for (let step = 0; step < steps; step += 1) {
      clock.advance(250);
      for (const message of sim.step()) app.engine.ingest(message);
      await flush(); // a batch every 250 ms of the replay, as HISTORY_FLUSH_MS cuts them
    }
    // What is still in memory (blocks) is written, as at shutdown.
    const writer = (app.history as unknown as { writer: { sealBlocks?: () => void } }).writer;
    writer.sealBlocks?.();
    await flush();
    const db = (app.history as unknown as { db: SqlRunner }).db;
    const [size] = await db.query<{ bytes: string }>(
      // Every leaf partition: on PGlite a day partition is in quarters (decision 279).
      `SELECT COALESCE(SUM(pg_total_relation_size(t.relid)), 0)::int8::text AS bytes
       FROM unnest(ARRAY['price_ticks', 'price_blocks']) AS r(name)
       CROSS JOIN LATERAL pg_partition_tree(to_regclass(quote_ident(current_schema()) || '.' || r.name)) t
       WHERE t.isleaf AND t.level > 0`,
    );
    const written = app.history.stats().writtenChanges;
    const bytes = Number(size!.bytes);
    await app.analyzeDatabase();

    const key = await createKey(app, 'enterprise');
    /** A read's wall time and this process's CPU time (PGlite runs in it; PostgreSQL's own CPU is not counted). */
    const get = async (url: string) => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const response = await app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
      const used = process.cpuUsage(cpu);
      if (response.statusCode !== 200)
        throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      return {
        ms: performance.now() - started,
        cpuMs: (used.user + used.system) / 1000,
        body: response.json() as { next_cursor?: string | null },
      };
    };
    const league = app.engine.store.events()[0]!.league;
    const narrow = { ms: [] as number[], cpuMs: [] as number[] };
    const board = { ms: [] as number[], cpuMs: [] as number[] };
    /** The narrow read and the full board at the replay's `read`-th instant. */
    const read = async (index: number) => {
      const at = new Date(T0 + ((index + 1) / (READS + 1)) * MINUTES * 60_000).toISOString();
      const one = await get(
        `/v1/historical/odds?league=${league}&at=${at}&markets=spread&books=fanduel&limit=1`,
      );
      narrow.ms.push(one.ms);
      narrow.cpuMs.push(one.cpuMs);
      let total = 0;
      let cpu = 0;
      let cursor: string | null | undefined;
      do {
        const page = await get(
          `/v1/historical/odds?league=${league}&at=${at}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        total += page.ms;
        cpu += page.cpuMs;
        cursor = page.body.next_cursor;
      } while (cursor);
      board.ms.push(total);
      board.cpuMs.push(cpu);
    };
    const figures = () => ({
      changesWritten: written,
      storedBytes: bytes,
      bytesPerChange: written ? Number((bytes / written).toFixed(1)) : null,
      writeSeconds: Number((writeMs / 1000).toFixed(2)),
      writeMicrosecondsPerChange: written ? Number(((writeMs * 1000) / written).toFixed(2)) : null,
      narrowReadMedianMs: median(narrow.ms),
      narrowReadMedianCpuMs: median(narrow.cpuMs),
      fullBoardMedianMs: median(board.ms),
      fullBoardMedianCpuMs: median(board.cpuMs),
    });
    return { read, figures, close };
  } catch (error) {
    await close();
    throw error;
  }
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
  settings: { events: EVENTS, minutes: MINUTES, reads: READS },
};
const databases: ('pglite' | 'postgres')[] = ['pglite'];
if (await postgresReachable()) databases.push('postgres');
for (const database of databases) {
  const apps = [];
  for (const format of FORMATS) {
    if (format === 'blocks-journal' && database !== 'pglite') continue;
    apps.push({ format, ...(await written(database, format)) });
  }
  try {
    // The formats' reads alternate, instant by instant, so that both meet the same load on a shared machine.
    for (let index = 0; index < READS; index += 1) for (const app of apps) await app.read(index);
    for (const app of apps) {
      results[`${database}/${app.format}`] = app.figures();
      console.log(database, app.format, JSON.stringify(app.figures()));
    }
  } finally {
    for (const app of apps) await app.close();
  }
}
results.loadAverageAfter = os.loadavg().map((value) => Number(value.toFixed(2)));
console.log(JSON.stringify(results, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/history-format.json', `${JSON.stringify(results, null, 2)}\n`);
