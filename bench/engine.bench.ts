// Engine benchmark (docs/decisions/040-044): replays ≥ 1,000,000 price updates of the simulator over 2,000 events × 15 books
// through ingestion, the store and the arb scanner, ticking (publishing) every 250 ms of virtual time.
// BENCH_ENGINE_PROPS=true replays the simulator with its player props (decision 122: about six times the markets per
// event, props matched to rosters at ingestion): `npm run bench -- engine` runs the game lines alone by default, so
// its figures stay comparable with earlier runs; the props figures are recorded beside them (docs/benchmarks.md).
// Figures: updates processed per second (ingest + incremental scans + snapshots, one core), p50/p99 time from an
// update's ingestion to the end of the tick that publishes its effect (processing only; production adds up to one
// 250 ms publish period), and the same replay with a full rescan on every tick, as a ratio (decision 096).
// Writes bench/results/engine.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { OddsEngine } from '#engine/engine.ts';
import type { SourceMessage } from '#engine/messages.ts';
import { arbsJson, feedBody } from '#engine/publisher.ts';
import { DEFAULT_SCAN_OPTIONS, rankArbs, rescanAll, type MarketResult } from '#engine/scanner.ts';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';
import type { OddsStore } from '#engine/store.ts';

const EVENTS = Number(process.env.BENCH_ENGINE_EVENTS ?? 2000);
const TARGET_UPDATES = Number(process.env.BENCH_ENGINE_UPDATES ?? 1_000_000);
const PROPS = process.env.BENCH_ENGINE_PROPS === 'true';
const STEP_MS = 250;
const MAX_ARBS = 300;
const T0 = Date.UTC(2026, 0, 1);

console.log(
  `generating ${TARGET_UPDATES} updates over ${EVENTS} events × 15 books${PROPS ? ', with player props' : ''}...`,
);
// With props, every fixture has them from its listing (propsPostedMs: Infinity): the heavy case, about six times the
// markets of the game lines, rather than the server's default of props only within 3 hours of the start.
const sim = new MarketSimulator({
  seed: 2026,
  startMs: T0,
  events: EVENTS,
  stepMs: STEP_MS,
  props: PROPS,
  propsPostedMs: Infinity,
});
const batches: SourceMessage[][] = [sim.initial()];
let total = 0;
while (total < TARGET_UPDATES) {
  const batch = sim.step();
  total += batch.filter((m) => m.kind === 'price').length;
  batches.push(batch);
}
console.log(
  `${total} price updates after the initial state, in ${batches.length - 1} ticks of ${STEP_MS} ms`,
);

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/**
 * The baseline's tick: the engine's tick with every market re-scanned instead of the changed ones, then the same
 * publishing (rank, JSON, body when the arbs changed). The engine only ingests; this keeps its own results.
 */
function fullRescanTicker(store: OddsStore, now: () => number) {
  const results = new Map<string, MarketResult>();
  let json: string | null = null;
  let scans = 0;
  let published = 0;
  let arbs = 0;
  return {
    tick() {
      const at = now();
      scans += store.marketCount;
      if (!rescanAll(store, at, DEFAULT_SCAN_OPTIONS, results) && json !== null) return;
      const ranked = rankArbs(results.values(), MAX_ARBS);
      const next = arbsJson(ranked);
      if (next === json) return;
      json = next;
      feedBody(at, 'replay', next);
      published += 1;
      arbs = ranked.length;
    },
    stats: () => ({ scans, published, arbs }),
  };
}

function run(mode: 'incremental' | 'full rescan') {
  let now = T0;
  const engine = new OddsEngine({ source: 'replay', now: () => now, maxArbs: MAX_ARBS });
  engine.markReady();
  const full = mode === 'full rescan' ? fullRescanTicker(engine.store, () => now) : null;
  const tick = full ? full.tick : () => engine.tick();
  // Per-update latency: all updates of a batch share the tick that publishes them; an update's latency is the
  // time from its own ingestion to that tick's end. Stored per batch as (count, sum-less) samples in one array.
  const latencies = new Float64Array(total + batches.length * 8);
  let samples = 0;
  const stamps = new Float64Array(Math.max(...batches.map((b) => b.length)));
  // The initial state (every book's first quote of every market) is a bulk load, timed on its own.
  const loadStarted = performance.now();
  for (const message of batches[0]!) engine.ingest(message);
  tick();
  const initialLoadMs = performance.now() - loadStarted;
  now += STEP_MS;
  let updates = 0;
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  for (let index = 1; index < batches.length; index += 1) {
    const batch = batches[index]!;
    let n = 0;
    for (const message of batch) {
      if (message.kind === 'price') stamps[n++] = performance.now();
      engine.ingest(message);
    }
    updates += n;
    tick();
    const done = performance.now();
    for (let k = 0; k < n; k += 1) latencies[samples++] = done - stamps[k]!;
    now += STEP_MS;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const sorted = latencies.subarray(0, samples).sort();
  const stats = engine.stats();
  const scanned = full ? full.stats() : { scans: stats.scans, published: stats.published, arbs: stats.arbs };
  return {
    initialLoad: {
      updates: batches[0]!.filter((m) => m.kind === 'price').length,
      ms: Math.round(initialLoadMs),
    },
    updates,
    seconds: Number(seconds.toFixed(2)),
    updatesPerSecond: Math.round(updates / seconds),
    // Process CPU time (main thread + GC helpers): less sensitive than wall time to other load on the machine.
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
    updatesPerCpuSecond: Math.round(updates / cpuSeconds),
    loadAverage: Number(loadavg()[0]!.toFixed(1)),
    latencyMs: {
      p50: Number(percentile(sorted, 0.5).toFixed(2)),
      p99: Number(percentile(sorted, 0.99).toFixed(2)),
    },
    scans: scanned.scans,
    published: scanned.published,
    arbsInLastSnapshot: scanned.arbs,
    markets: stats.markets,
    dropped: stats.dropped,
  };
}

// The first run warms up the JIT; the figures come from the second.
run('incremental');
const incremental = run('incremental');
console.log('incremental', incremental);
const rescan = run('full rescan');
console.log('full rescan', rescan);
const results = {
  date: new Date().toISOString(),
  node: process.version,
  props: PROPS,
  events: EVENTS,
  books: 15,
  ticks: batches.length,
  incremental,
  fullRescan: rescan,
  speedup: Number((incremental.updatesPerSecond / rescan.updatesPerSecond).toFixed(2)),
  speedupCpu: Number((incremental.updatesPerCpuSecond / rescan.updatesPerCpuSecond).toFixed(2)),
};
console.log(
  `incremental ${incremental.updatesPerSecond} updates/s, p99 ${incremental.latencyMs.p99} ms; full rescan ${rescan.updatesPerSecond} updates/s; ratio ${results.speedup}×`,
);
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/engine${PROPS ? '-props' : ''}.json`, `${JSON.stringify(results, null, 2)}\n`);
