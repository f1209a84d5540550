// De-vig methods benchmark (issue 35, decision 164). Writes bench/results/devig.json.
// The cost of one market's fair probabilities by each method of src/domain/devig.ts: power and Shin solve for one
// unknown by bisection to the precision of a double, the others are closed forms. Markets as books price them: 2
// outcomes (moneylines, spreads, totals, props), 3 (1X2) and 20 (a futures-sized field), margins 2–8 %, drawn from a
// fixed seed. Figures: microseconds per market, median of RUNS passes over MARKETS markets each, in this one process.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { DEVIG_METHODS, devigImplied } from '#domain/devig.ts';
import { seededRandom } from '#domain/random.ts';

const MARKETS = Number(process.env.BENCH_DEVIG_MARKETS ?? 20_000);
const RUNS = Number(process.env.BENCH_DEVIG_RUNS ?? 9);

/** `count` markets of `outcomes` outcomes: fair probabilities from random weights, then a 2–8 % margin spread evenly. */
function markets(outcomes: number, count: number, next: () => number): number[][] {
  return Array.from({ length: count }, () => {
    const weights = Array.from({ length: outcomes }, () => 0.02 + next());
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const margin = 1.02 + 0.06 * next();
    return weights.map((weight) => Math.min(0.999, (weight / total) * margin));
  });
}

const next = seededRandom(35);
const results: Record<string, Record<string, number>> = {};
for (const outcomes of [2, 3, 20]) {
  const input = markets(outcomes, MARKETS, next);
  const row: Record<string, number> = {};
  for (const method of DEVIG_METHODS) {
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      for (const implied of input) devigImplied(implied, method);
      samples.push(((performance.now() - started) * 1000) / MARKETS);
    }
    samples.sort((a, b) => a - b);
    row[method] = Number(samples[samples.length >> 1]!.toFixed(3));
  }
  results[`${outcomes} outcomes`] = row;
}

const report = { markets: MARKETS, runs: RUNS, loadAverage: loadavg()[0], microsecondsPerMarket: results };
console.log(JSON.stringify(report, null, 2));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/devig.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
