// The market simulator's own cost per generated price update (issue 59): the engine bench's board (2,000 events, its
// seed) with player props, stepped BENCH_SIM_STEPS times (default 400, ~100 s of simulated time) with nothing
// ingesting, timed, and the bytes it allocated counted from V8's GC profile (each collection's heap before it, less the
// heap after the one before; plus the growth since the last). It also prints a digest of every message generated, so
// that a change meant to cost less can be checked to generate the same numbers (run it before and after: the digest
// must not move). Writes bench/results/simulator.json.
//   npm run bench -- simulator            BENCH_SIM_STEPS=100 BENCH_SIM_EVENTS=300 npm run bench -- simulator
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { GCProfiler } from 'node:v8';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';

const STEPS = Number(process.env.BENCH_SIM_STEPS ?? 400);
const EVENTS = Number(process.env.BENCH_SIM_EVENTS ?? 2000);
const PROPS = process.env.BENCH_SIM_PROPS !== 'false';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const sim = new MarketSimulator({
  seed: 2026,
  startMs: Date.UTC(2026, 0, 1),
  events: EVENTS,
  stepMs: 250,
  props: PROPS,
});
const digest = createHash('sha256');
const initial = sim.initial();
digest.update(JSON.stringify(initial));
const initialPrices = initial.filter((message) => message.kind === 'price').length;

// Each step's messages are digested after the measured part; the digest's own JSON is not counted (it is made after
// the profiler stopped for that step).
globalThis.gc?.();
let updates = 0;
let stepMs = 0;
let allocated = 0;
for (let index = 0; index < STEPS; index += 1) {
  const profiler = new GCProfiler();
  profiler.start();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const batch = sim.step();
  stepMs += performance.now() - started;
  const heapAfter = process.memoryUsage().heapUsed;
  const profile = profiler.stop();
  let previous = heapBefore;
  for (const entry of profile.statistics) {
    const before = entry.beforeGC.heapStatistics.usedHeapSize;
    allocated += Math.max(0, before - previous);
    previous = entry.afterGC.heapStatistics.usedHeapSize;
  }
  allocated += Math.max(0, heapAfter - previous);
  for (const message of batch) if (message.kind === 'price') updates += 1;
  digest.update(JSON.stringify(batch));
}
const result = {
  events: EVENTS,
  props: PROPS,
  steps: STEPS,
  initialPrices,
  updates,
  microsPerUpdate: Number(((stepMs * 1000) / updates).toFixed(3)),
  bytesPerUpdate: Math.round(allocated / updates),
  allocatedMB: Math.round(allocated / 1e6),
  digest: digest.digest('hex').slice(0, 16),
  loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
};
console.log(
  `simulator: ${result.updates} price updates in ${STEPS} steps of ${EVENTS} events${PROPS ? ' with props' : ''}:` +
    ` ${result.microsPerUpdate} µs and ${result.bytesPerUpdate} bytes allocated per update (${result.allocatedMB} MB);` +
    ` digest ${result.digest}; load average ${result.loadAverage.join(' ')}`,
);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/simulator.json'), `${JSON.stringify(result, null, 2)}\n`);
