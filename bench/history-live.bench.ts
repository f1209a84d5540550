// Issue 59's two read aims on a live server (the way the issue words them: reads against a server that has been
// writing history, the simulator running, so they compete with the writer): a narrow historical read
// (`GET /v1/historical/odds`, one league, market and book, `limit=1`) under 150 ms median, and a full league historical
// board (every page of the same route for the league, nothing filtered) under 1 s.
//
// For each engine (the embedded default, PGlite; then PostgreSQL when BENCH_DATABASE_URL answers) the server is started
// exactly as `npm start` does (bench/lib/npm-start.ts: fresh DATA_DIR, market simulator, its default history format),
// left to write history for BENCH_LIVE_WARM_S seconds, then read over HTTP on loopback with Enterprise keys made
// through the admin route. Each round reads at two instants: one spread over the recorded span (a past minute, in
// sealed blocks) and one a second ago (the newest minute, still in open blocks on the embedded default). A baseline in
// the same rounds: `GET /v1/odds` for the same league, market and book (the live board from memory, no history), so a
// loaded machine shows in it too. Every figure is wall time of the whole answer at the client; 503s
// (`read-budget-exceeded`) are counted, not timed. Beside it, the server's own CPU a read (from /proc, less the
// background rate of its simulator and writer measured over the warm-up's last 30 s): less dependent on the machine's
// load than the wall. A server that gets less CPU than its idle work needs (its background rate is printed) answers
// no history read within the 5 s budget: read such a run as "not measured".
//
//   BENCH_LIVE_ENGINES=pglite,postgres  BENCH_LIVE_WARM_S=300  BENCH_LIVE_ROUNDS=20  BENCH_LIVE_PORT=4520
//   BENCH_LIVE_LEAGUE (default: the league with the most events)  BENCH_LIVE_MARKET=spread  BENCH_LIVE_BOOK=fanduel
//   BENCH_LIVE_ENCODING=identity (what the client sends as accept-encoding; `gzip, br` as most clients do)
//   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; `none` skips PostgreSQL)
// Writes bench/results/history-live.json. Run it with nothing else on the machine for the issue's figures.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_DATABASE_URL, dropSchema, postgresReachable } from './lib/history-db.ts';
import { sleep, startLikeNpmStart } from './lib/npm-start.ts';
import { cpuSeconds } from './lib/server.ts';

const ENGINES = (process.env.BENCH_LIVE_ENGINES ?? 'pglite,postgres').split(',');
const WARM_S = Number(process.env.BENCH_LIVE_WARM_S ?? 300);
const ROUNDS = Number(process.env.BENCH_LIVE_ROUNDS ?? 20);
const PORT = Number(process.env.BENCH_LIVE_PORT ?? 4520);
const MARKET = process.env.BENCH_LIVE_MARKET ?? 'spread';
const BOOK = process.env.BENCH_LIVE_BOOK ?? 'fanduel';
const ENCODING = process.env.BENCH_LIVE_ENCODING ?? 'identity';
/** Enterprise keys the reads rotate over: a board page counts 10 of a key's 2,000 a minute. */
const KEYS = 4;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const loadAverage = () => os.loadavg().map((value) => Number(value.toFixed(2)));

function summary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0
      ? null
      : Number(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!.toFixed(1));
  return { count: sorted.length, medianMs: at(0.5), p95Ms: at(0.95), maxMs: at(1) };
}

interface Timed {
  ms: number[];
  /** The server's CPU during each read less its background rate over the read's wall time (ms). */
  cpuMs: number[];
  refused: number;
  pages: number[];
}
const timed = (): Timed => ({ ms: [], cpuMs: [], refused: 0, pages: [] });

async function run(engine: 'pglite' | 'postgres') {
  const saved = process.env.DATABASE_URL;
  if (engine === 'postgres') process.env.DATABASE_URL = BENCH_DATABASE_URL;
  else delete process.env.DATABASE_URL;
  const name = `live${engine}`;
  const startedAt = Date.now();
  const server = await startLikeNpmStart(PORT, name).finally(() => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  });
  const origin = `http://127.0.0.1:${PORT}`;
  try {
    const readyAt = Date.now();
    const token = readFileSync(path.join(server.dataDir, 'admin-token'), 'utf8').trim();
    const keys: string[] = [];
    for (let index = 0; index < KEYS; index += 1) {
      const response = await fetch(`${origin}/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'enterprise', email: `bench+live${index}@example.com` }),
      });
      if (!response.ok) throw new Error(`key creation: ${response.status} ${await response.text()}`);
      keys.push(((await response.json()) as { key: string }).key);
    }
    let turn = 0;
    const get = async (url: string) => {
      const key = keys[turn++ % keys.length]!;
      const started = performance.now();
      const response = await fetch(`${origin}${url}`, {
        headers: { 'x-api-key': key, 'accept-encoding': ENCODING },
      });
      const body = await response.text();
      return { ms: performance.now() - started, status: response.status, body };
    };

    let league = process.env.BENCH_LIVE_LEAGUE;
    if (!league) {
      const events = JSON.parse((await get('/v1/events')).body) as { events: { league: string }[] };
      const counts = new Map<string, number>();
      for (const event of events.events) counts.set(event.league, (counts.get(event.league) ?? 0) + 1);
      league = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    }
    console.log(`${engine}: ready after ${Math.round((readyAt - startedAt) / 1000)} s; league ${league}`);
    const warmUntil = readyAt + WARM_S * 1000;
    const pid = server.child.pid!;
    let sampled = { at: Date.now(), cpu: cpuSeconds(pid) };
    /** The server's own CPU a second of wall over the last warm-up sample, with no read (its simulator and writer). */
    let background = 0;
    while (Date.now() < warmUntil) {
      await sleep(Math.min(30_000, warmUntil - Date.now()));
      const now = { at: Date.now(), cpu: cpuSeconds(pid) };
      background = (now.cpu - sampled.cpu) / ((now.at - sampled.at) / 1000);
      sampled = now;
      const ready = (await (await fetch(`${origin}/readyz`)).json()) as {
        checks?: { history?: { details?: { writtenChanges?: number } } };
      };
      console.log(
        `${engine}: ${Math.round((Date.now() - readyAt) / 1000)} s after ready, ` +
          `${ready.checks?.history?.details?.writtenChanges} changes written, server CPU ` +
          `${(background * 100).toFixed(1)} % of a core, load ${loadAverage().join(' ')}`,
      );
    }

    const narrowUrl = (at: string) =>
      `/v1/historical/odds?league=${league}&at=${at}&markets=${MARKET}&books=${BOOK}&limit=1`;
    const figures = {
      narrowPast: timed(),
      narrowRecent: timed(),
      boardPast: timed(),
      boardRecent: timed(),
      liveBaseline: timed(),
    };
    /** The server's CPU (ms) during `ms` of wall, less its background. */
    const ownCpu = (cpuBefore: number, ms: number) => (cpuSeconds(pid) - cpuBefore) * 1000 - background * ms;
    const narrow = async (at: string, into: Timed) => {
      const cpu = cpuSeconds(pid);
      const answer = await get(narrowUrl(at));
      if (answer.status === 503) into.refused += 1;
      else if (answer.status !== 200) throw new Error(`${answer.status} ${answer.body.slice(0, 300)}`);
      else {
        into.ms.push(answer.ms);
        into.cpuMs.push(ownCpu(cpu, answer.ms));
      }
    };
    const board = async (at: string, into: Timed) => {
      const cpu = cpuSeconds(pid);
      let total = 0;
      let pages = 0;
      let cursor: string | null = null;
      do {
        const answer = await get(
          `/v1/historical/odds?league=${league}&at=${at}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        if (answer.status === 503) {
          into.refused += 1;
          return;
        }
        if (answer.status !== 200) throw new Error(`${answer.status} ${answer.body.slice(0, 300)}`);
        total += answer.ms;
        pages += 1;
        cursor = (JSON.parse(answer.body) as { next_cursor: string | null }).next_cursor;
      } while (cursor);
      into.ms.push(total);
      into.cpuMs.push(ownCpu(cpu, total));
      into.pages.push(pages);
    };
    const loadBefore = loadAverage();
    const readsFrom = Date.now();
    for (let round = 0; round < ROUNDS; round += 1) {
      // A past instant, spread over the span written (from 30 s after ready to a minute ago).
      const from = readyAt + 30_000;
      const to = readsFrom - 60_000;
      const past = new Date(from + ((round + 0.5) / ROUNDS) * (to - from)).toISOString();
      const baseline = await get(`/v1/odds?league=${league}&markets=${MARKET}&books=${BOOK}`);
      if (baseline.status !== 200) throw new Error(`baseline ${baseline.status}`);
      figures.liveBaseline.ms.push(baseline.ms);
      await narrow(past, figures.narrowPast);
      await board(past, figures.boardPast);
      await narrow(new Date(Date.now() - 1000).toISOString(), figures.narrowRecent);
      await board(new Date(Date.now() - 1000).toISOString(), figures.boardRecent);
    }
    const loadAfter = loadAverage();
    const result = {
      engine,
      league,
      market: MARKET,
      book: BOOK,
      acceptEncoding: ENCODING,
      warmSeconds: WARM_S,
      rounds: ROUNDS,
      readSeconds: Math.round((Date.now() - readsFrom) / 1000),
      serverBackgroundCpuPct: Number((background * 100).toFixed(1)),
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
      narrow: summary([...figures.narrowPast.ms, ...figures.narrowRecent.ms]),
      narrowPast: summary(figures.narrowPast.ms),
      narrowRecent: summary(figures.narrowRecent.ms),
      narrowRefused: figures.narrowPast.refused + figures.narrowRecent.refused,
      /** The server's own CPU a narrow read, less its background (ms; /proc's 10 ms ticks: a median over many). */
      narrowServerCpu: summary([...figures.narrowPast.cpuMs, ...figures.narrowRecent.cpuMs]),
      board: summary([...figures.boardPast.ms, ...figures.boardRecent.ms]),
      boardPast: summary(figures.boardPast.ms),
      boardRecent: summary(figures.boardRecent.ms),
      boardRefused: figures.boardPast.refused + figures.boardRecent.refused,
      boardServerCpu: summary([...figures.boardPast.cpuMs, ...figures.boardRecent.cpuMs]),
      boardPages: Math.max(0, ...figures.boardPast.pages, ...figures.boardRecent.pages),
      liveBaseline: summary(figures.liveBaseline.ms),
    };
    console.log(
      `${engine} (${league}; load ${loadBefore.join(' ')} → ${loadAfter.join(' ')}): narrow median ` +
        `${result.narrow.medianMs} ms, p95 ${result.narrow.p95Ms} (aim < 150 ms median; ${result.narrowRefused} ` +
        `refused); board median ${result.board.medianMs} ms, p95 ${result.board.p95Ms} (aim < 1 s; ` +
        `${result.boardRefused} refused); /v1/odds baseline median ${result.liveBaseline.medianMs} ms; server CPU ` +
        `a read, less its background ${result.serverBackgroundCpuPct} %: narrow ${result.narrowServerCpu.medianMs} ms, ` +
        `board ${result.boardServerCpu.medianMs} ms`,
    );
    return result;
  } finally {
    await server.stop();
    if (engine === 'postgres') await dropSchema(BENCH_DATABASE_URL, `bench_${name}_${process.pid}`);
  }
}

const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version };
for (const engine of ENGINES) {
  if (engine === 'postgres' && !(await postgresReachable())) {
    console.log('postgres: BENCH_DATABASE_URL does not answer; skipped');
    continue;
  }
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);
  results[engine] = await run(engine);
}
console.log(JSON.stringify(results, null, 2));
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/history-live.json'), `${JSON.stringify(results, null, 2)}\n`);
