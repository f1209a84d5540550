// The finder boards' benches (bench/ev.bench.ts, bench/middles.bench.ts): the simulator's board after some minutes of
// virtual time, and the median and worst of a number of timed runs.
import { OddsEngine } from '#engine/engine.ts';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';

export const STEP_MS = 250;
export const T0 = Date.UTC(2026, 10, 22, 18);

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** The median and the worst of samples in ms, to 2 places. */
export function summary(samples: number[]): { medianMs: number; maxMs: number } {
  return {
    medianMs: Number(percentile(samples, 0.5).toFixed(2)),
    maxMs: Number(Math.max(...samples).toFixed(2)),
  };
}

/** `fn` timed `runs` times. */
export function timed(runs: number, fn: () => void): { medianMs: number; maxMs: number } {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    fn();
    samples.push(performance.now() - started);
  }
  return summary(samples);
}

/**
 * An engine fed by the simulator (seed 7) for `minutes` of virtual time, ticking every 250 ms: `step()` advances one
 * more tick, `now()` is its clock.
 */
export function simulatedBoard(events: number, props: boolean, minutes: number) {
  let now = T0;
  const engine = new OddsEngine({ source: 'simulator', now: () => now, historyMs: 130_000 });
  engine.markReady();
  const sim = new MarketSimulator({ seed: 7, startMs: T0, events, stepMs: STEP_MS, props });
  for (const message of sim.initial()) engine.ingest(message);
  engine.tick();
  let updates = 0;
  const step = () => {
    now += STEP_MS;
    const batch = sim.step();
    updates += batch.length;
    for (const message of batch) engine.ingest(message);
    engine.tick();
  };
  for (let tick = 0; tick < (minutes * 60_000) / STEP_MS; tick += 1) step();
  return { engine, step, now: () => now, updates: () => updates };
}
