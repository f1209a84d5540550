// Positive-EV board benchmark (issue 36, decision 163). Writes bench/results/ev.json.
// GET /v1/ev and GET /tools/ev.json compute the board from the engine's store on request (src/server/ev/board.ts), at
// most once per quantum (250 ms real time, 1 s per delayed horizon), so the engine's ingest and scan are untouched.
// What a request can cost beyond authentication, on two boards of the simulator after 2 minutes of virtual time:
// - `server default`: what `npm start` runs (110 fixtures with player props, the default SIM_EVENTS);
// - `2,000 events`: the engine bench's board (game lines), far larger than any real board.
// Figures, each the median and the worst of RUNS passes, in this one process:
// - `coldPass`: a pass judging every market (a new board);
// - `pass`: a real-time pass after 250 ms of the simulator's updates (the request that finds the quantum's board
//   missing pays it): only the markets that changed or turned stale are judged again;
// - `delayed pass`: the same at now − 120 s (the Starter plan: each price's version read from the version ring);
// - `cached request`: a request that finds the board: the filters (league) and 200 rows serialised to JSON.
// Then over HTTP, on the real server (`node src/server/server.ts`, the simulator, its default board) with autocannon on
// loopback (BENCH_EV_CONNECTIONS, 10 connections, BENCH_EV_SECONDS, 10 s each), requests/s and p50/p99 latency of:
// GET /v1/leagues (authentication and quota only: the floor of every /v1 request), GET /v1/ev (Elite, real time,
// best 200), and GET /tools/ev.json with EV_PUBLIC_DELAY_S=15 (a delayed board, one pass a second). Elite requests
// rotate over enough keys that none reaches its 250 a minute.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { EvBoard, filterEv } from '#server/ev/board.ts';
import { evPriceDto } from '#domain/ev-dto.ts';
import { simulatedBoard, summary, timed } from './lib/finder-board.ts';
import { fixtureBuild, startServer } from './lib/server.ts';
import { adminToken, createKeys, waitReady } from './lib/sse-pool.ts';

const MINUTES = Number(process.env.BENCH_EV_MINUTES ?? 2);
const RUNS = Number(process.env.BENCH_EV_RUNS ?? 20);

function board(name: string, events: number, props: boolean) {
  const replay = simulatedBoard(events, props, MINUTES);
  const engine = replay.engine;
  let now = replay.now();
  const scan = { maxAgePreMatchMs: 60_000, maxAgeLiveMs: 10_000 };
  const ev = new EvBoard(engine, scan);
  let result = ev.judgeAll(now);
  // Cold: every market judged (a new board, as after a start); incremental: 250 ms of the simulator's updates
  // ingested between passes, as a real-time reader asking every quantum sees them.
  const cold = timed(RUNS, () => new EvBoard(engine, scan).judgeAll(now));
  const incrementalSamples: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    replay.step();
    now = replay.now();
    const started = performance.now();
    result = ev.judgeAll(now);
    incrementalSamples.push(performance.now() - started);
  }
  const pass = summary(incrementalSamples);
  const delayed = timed(RUNS, () => ev.judgeAll(now - 120_000));
  const league = result.rows[0]?.league;
  const cached = timed(RUNS, () => {
    const rows = filterEv(result.rows, { league });
    JSON.stringify(rows.slice(0, 200).map(evPriceDto));
  });
  const figures = {
    events: engine.store.eventCount,
    markets: result.markets,
    marketsWithFair: result.fairMarkets,
    positiveEvPrices: result.rows.length,
    updatesIngested: replay.updates(),
    coldPass: cold,
    pass,
    delayedPass: delayed,
    cachedRequest: cached,
  };
  console.log(name, JSON.stringify(figures));
  return figures;
}

const PORT = Number(process.env.BENCH_EV_PORT ?? 4470);
const SECONDS = Number(process.env.BENCH_EV_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_EV_CONNECTIONS ?? 10);

async function http() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-bench-ev-'));
  const server = await startServer(PORT, {
    DATA_DIR: dataDir,
    BUILD_DIR: fixtureBuild(),
    SIM_SEED: '7',
    EV_PUBLIC_DELAY_S: '15',
  });
  try {
    await waitReady(server);
    const keys = await createKeys(server, adminToken(dataDir), 'elite', 300);
    // The public feed's delayed board needs 15 s of prices behind it.
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    let next = 0;
    const key = () => ({ 'x-api-key': keys[(next += 1) % keys.length]! });
    const cannon = async (url: string, headers: () => Record<string, string>) => {
      const result = await autocannon({
        url,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { 'accept-encoding': 'gzip' },
        requests: [
          { setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...headers() } }) },
        ],
      });
      return {
        requestsPerSecond: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        bytesPerResponse: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
      };
    };
    const figures = {
      leagues: await cannon(`${server.origin}/v1/leagues`, key),
      ev: await cannon(`${server.origin}/v1/ev`, key),
      publicFeed: await cannon(`${server.origin}/tools/ev.json`, () => ({})),
    };
    console.log('HTTP', JSON.stringify(figures));
    return figures;
  } finally {
    await server.stop();
  }
}

const results = {
  at: new Date().toISOString(),
  loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
  runs: RUNS,
  minutes: MINUTES,
  serverDefault: board('server default', 110, true),
  twoThousandEvents: board('2,000 events', 2000, false),
  http: await http(),
};
console.log(`load average ${results.loadAverage.join(' ')}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/ev.json', `${JSON.stringify(results, null, 2)}\n`);
