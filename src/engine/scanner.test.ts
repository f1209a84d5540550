import { describe, expect, it } from 'vitest';
import { OddsEngine } from './engine.ts';
import { DEFAULT_SCAN_OPTIONS, rankArbs, rescanAll, type MarketResult } from './scanner.ts';
import { MarketSimulator } from './sources/simulation/market-simulator.ts';

// Saturday 21 November 2026, 21:10 ET: the evening's 19:00 games end within the half hour the test runs (decision 221).
const T0 = Date.UTC(2026, 10, 22, 2, 10, 0);

describe('rescanAll', () => {
  it("finds, scanning every market each tick, the arbs the engine's incremental scans find", () => {
    let now = T0;
    const incremental = new OddsEngine({ source: 'simulator', now: () => now });
    const ingestOnly = new OddsEngine({ source: 'simulator', now: () => now });
    incremental.markReady();
    const results = new Map<string, MarketResult>();
    const sim = new MarketSimulator({ seed: 42, startMs: T0, events: 30, stepMs: 30_000 });
    let batch = sim.initial();
    let compared = 0;
    let ended = 0;
    for (let step = 0; step < 60; step += 1) {
      for (const message of batch) {
        if (message.kind === 'end') ended += 1;
        incremental.ingest(message);
        ingestOnly.ingest(message);
      }
      incremental.tick();
      rescanAll(ingestOnly.store, now, DEFAULT_SCAN_OPTIONS, results);
      const arbs = incremental.currentArbs();
      expect(rankArbs(results.values())).toEqual(arbs);
      compared += arbs.length;
      now += 30_000;
      batch = sim.step();
    }
    expect(compared).toBeGreaterThan(100);
    expect(ended).toBeGreaterThan(0);
  });
});
