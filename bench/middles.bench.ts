// Middles board benchmark (issue 36, decision 167). Writes bench/results/middles.json.
// GET /v1/middles computes the board from the engine's store on request (src/server/middles/board.ts), at most once per
// quantum (250 ms real time, 1 s per delayed horizon), so the engine's ingest and scan are untouched.
// What a request can cost beyond authentication, on two boards of the simulator after 2 minutes of virtual time:
// - `server default`: what `npm start` runs (110 fixtures with player props, the default SIM_EVENTS);
// - `2,000 events`: the engine bench's board (game lines), far larger than any real board.
// Figures, each the median and the worst of RUNS passes, in this one process:
// - `pass`: one full pass over the board (the request that finds the quantum's board missing pays it);
// - `delayed pass`: the same at now − 120 s (the Starter plan: each price's version read from the version ring);
// - `cached request`: a request that finds the board: the filters (league) and 200 rows serialised to JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { OddsEngine } from '#engine/engine.ts';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';
import { filterMiddles, MiddlesBoard } from '#server/middles/board.ts';

const STEP_MS = 250;
const MINUTES = Number(process.env.BENCH_MIDDLES_MINUTES ?? 2);
const RUNS = Number(process.env.BENCH_MIDDLES_RUNS ?? 20);
const T0 = Date.UTC(2026, 10, 22, 18);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function timed(fn: () => void): { medianMs: number; maxMs: number } {
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    fn();
    samples.push(performance.now() - started);
  }
  return {
    medianMs: Number(percentile(samples, 0.5).toFixed(2)),
    maxMs: Number(Math.max(...samples).toFixed(2)),
  };
}

function board(name: string, events: number, props: boolean) {
  let now = T0;
  const engine = new OddsEngine({ source: 'simulator', now: () => now, historyMs: 130_000 });
  engine.markReady();
  const sim = new MarketSimulator({ seed: 7, startMs: T0, events, stepMs: STEP_MS, props });
  for (const message of sim.initial()) engine.ingest(message);
  engine.tick();
  let updates = 0;
  for (let step = 0; step < (MINUTES * 60_000) / STEP_MS; step += 1) {
    now += STEP_MS;
    const batch = sim.step();
    updates += batch.length;
    for (const message of batch) engine.ingest(message);
    engine.tick();
  }
  const middles = new MiddlesBoard(engine, { maxAgePreMatchMs: 60_000, maxAgeLiveMs: 10_000 });
  const result = middles.compute(undefined, now);
  const pass = timed(() => middles.compute(undefined, now));
  const delayed = timed(() => middles.compute(now - 120_000, now));
  const league = result.rows[0]?.league;
  const cached = timed(() => {
    const rows = filterMiddles(result.rows, { league });
    JSON.stringify(rows.slice(0, 200).map((row) => row.dto));
  });
  const figures = {
    events: engine.store.eventCount,
    middles: result.rows.length,
    positiveEv: result.rows.filter((row) => row.evPct > 0).length,
    updatesIngested: updates,
    pass,
    delayedPass: delayed,
    cachedRequest: cached,
  };
  console.log(name, JSON.stringify(figures));
  return figures;
}

const results = {
  at: new Date().toISOString(),
  loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
  runs: RUNS,
  minutes: MINUTES,
  serverDefault: board('server default', 110, true),
  twoThousandEvents: board('2,000 events', 2000, false),
};
console.log(`load average ${results.loadAverage.join(' ')}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/middles.json', `${JSON.stringify(results, null, 2)}\n`);
