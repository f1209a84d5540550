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
import { filterMiddles, MiddlesBoard } from '#server/middles/board.ts';
import { middleDto } from '#domain/middle-dto.ts';
import { simulatedBoard, timed } from './lib/finder-board.ts';

const MINUTES = Number(process.env.BENCH_MIDDLES_MINUTES ?? 2);
const RUNS = Number(process.env.BENCH_MIDDLES_RUNS ?? 20);

function board(name: string, events: number, props: boolean) {
  const replay = simulatedBoard(events, props, MINUTES);
  const engine = replay.engine;
  const now = replay.now();
  const middles = new MiddlesBoard(engine, { maxAgePreMatchMs: 60_000, maxAgeLiveMs: 10_000 });
  const result = { rows: middles.judgeAll(now) };
  const pass = timed(RUNS, () => middles.judgeAll(now));
  const delayed = timed(RUNS, () => middles.judgeAll(now - 120_000));
  const league = result.rows[0]?.league;
  const cached = timed(RUNS, () => {
    const rows = filterMiddles(result.rows, { league });
    JSON.stringify(rows.slice(0, 200).map(middleDto));
  });
  const figures = {
    events: engine.store.eventCount,
    middles: result.rows.length,
    positiveEv: result.rows.filter((row) => row.evPct > 0).length,
    updatesIngested: replay.updates(),
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
