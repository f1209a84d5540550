// The CPU a /v1/middles or /v1/ev request costs the server (issue 55). Writes bench/results/middles-answers.json.
// The app as tests build it (`buildTestApp`, the hand-fed engine), fed the simulator's board with player props
// (BENCH_ANSWERS_EVENTS fixtures, default 110 as `npm start`, for BENCH_ANSWERS_MINUTES of virtual time), then requests
// through `app.inject()` with an Enterprise key and `accept-encoding: gzip, br` (as real clients send) while the
// virtual clock stands still: every request reads the same quantum's board, so what is measured is what a request
// costs once its board exists (filters, serialisation, compression, or the kept answer), not the board's pass.
// Once the app's background work is done (`settle`), per request, process.cpuUsage() (user + system, every thread of
// the process: compression runs on libuv's pool), the median and the worst over BENCH_ANSWERS_RUNS requests, after the
// first one of each case (reported apart):
// - `middles repeated`: `/v1/middles?limit=1000` again and again;
// - `middles equivalent`: one question spelled four ways (parameter order, a list reordered or repeated, defaults written
//   out);
// - `middles new questions`: a question not asked before every time (`min_ev` -100, -99.999, …: the same thousand
//   middles), so each request filters, serialises and compresses;
// - `ev repeated`: `/v1/ev?limit=1000`;
// - `three at once`: three different middles questions started together (CPU and wall time of the three);
// - `middles power` and `ev power` (when the server knows `devig`): a de-vig method other than the default.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { summary } from './lib/finder-board.ts';

const EVENTS = Number(process.env.BENCH_ANSWERS_EVENTS ?? 110);
const MINUTES = Number(process.env.BENCH_ANSWERS_MINUTES ?? 2);
const RUNS = Number(process.env.BENCH_ANSWERS_RUNS ?? 40);
const STEP_MS = 250;

const clock = virtualClock(Date.UTC(2026, 10, 22, 18));
const app = await buildTestApp({ now: clock.now });
await app.ready();
app.engine.stop();
const sim = new MarketSimulator({
  seed: 7,
  startMs: clock.now(),
  events: EVENTS,
  stepMs: STEP_MS,
  props: true,
});
for (const message of sim.initial()) app.engine.ingest(message);
app.engine.tick();
for (let tick = 0; tick < (MINUTES * 60_000) / STEP_MS; tick += 1) {
  clock.advance(STEP_MS);
  for (const message of sim.step()) app.engine.ingest(message);
  app.engine.tick();
}
const key = await createKey(app, 'enterprise');
const headers = { 'x-api-key': key, 'accept-encoding': 'gzip, br' };
await app.inject({ url: '/healthz' });

const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/**
 * Waits until the app's own background work (the history writer's backlog of two minutes of prices, the feed
 * snapshots' compression) is done: process.cpuUsage() counts every thread, so a request measured before would carry
 * some of it. Settled when half a second passes with under 10 ms of CPU, or after 60 s.
 */
async function settle() {
  for (let round = 0; round < 120; round += 1) {
    const start = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (cpuMs(start) < 10) return round;
  }
  return -1;
}

async function request(url: string) {
  const response = await app.inject({ url, headers });
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response;
}

/** CPU per request over `urls` taken in turn, the first apart. */
async function perRequest(urls: readonly string[]) {
  const firstStart = process.cpuUsage();
  const first = await request(urls[0]!);
  const firstMs = cpuMs(firstStart);
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const start = process.cpuUsage();
    await request(urls[(run + 1) % urls.length]!);
    samples.push(cpuMs(start));
  }
  const identity = await app.inject({ url: urls[0]!, headers: { 'x-api-key': key } });
  return {
    firstCpuMs: Number(firstMs.toFixed(2)),
    cpu: summary(samples),
    bytes: first.rawPayload.length,
    encoding: first.headers['content-encoding'] ?? 'identity',
    identityBytes: identity.rawPayload.length,
  };
}

async function threeAtOnce() {
  const rounds: { cpuMs: number; wallMs: number }[] = [];
  for (let round = 0; round < 5; round += 1) {
    const start = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      ['', '&markets=props', '&markets=spread,total'].map((filter) =>
        request(`/v1/middles?limit=1000${filter}`),
      ),
    );
    rounds.push({ cpuMs: cpuMs(start), wallMs: performance.now() - started });
  }
  return {
    cpu: summary(rounds.map((round) => round.cpuMs)),
    wall: summary(rounds.map((round) => round.wallMs)),
  };
}

const totalOf = async (url: string) =>
  ((await app.inject({ url, headers: { 'x-api-key': key } })).json() as { total: number }).total;
const middlesTotal = await totalOf('/v1/middles?limit=1');
const evTotal = await totalOf('/v1/ev?limit=1');
const settledAfter = await settle();
const knowsDevig = (await app.inject({ url: '/v1/ev?devig=nonsense', headers })).statusCode === 400;
const results = {
  at: new Date().toISOString(),
  loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
  events: EVENTS,
  minutes: MINUTES,
  runs: RUNS,
  settledAfterHalfSeconds: settledAfter,
  middles: middlesTotal,
  evPrices: evTotal,
  middlesRepeated: await perRequest(['/v1/middles?limit=1000']),
  middlesEquivalent: await perRequest([
    '/v1/middles?limit=1000&markets=spread,total',
    '/v1/middles?markets=total,spread&limit=1000',
    '/v1/middles?markets=total&markets=spread&limit=1000.0',
    '/v1/middles?limit=1000&markets=spread,total&devig=multiplicative&reference=consensus',
  ]),
  middlesNewQuestions: await perRequest(
    Array.from(
      { length: RUNS + 1 },
      (_, n) => `/v1/middles?limit=1000&min_ev=${(-100 + n / 1000).toFixed(3)}`,
    ),
  ),
  evRepeated: await perRequest(['/v1/ev?limit=1000']),
  threeAtOnce: await threeAtOnce(),
  ...(knowsDevig
    ? {
        middlesPower: await perRequest(['/v1/middles?limit=1000&devig=power']),
        evPower: await perRequest(['/v1/ev?limit=1000&devig=power']),
      }
    : {}),
  loadAverageAfter: loadavg().map((value) => Number(value.toFixed(2))),
};
console.log(JSON.stringify(results, null, 2));
await app.close();
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/middles-answers.json', `${JSON.stringify(results, null, 2)}\n`);
