// `npm run audit:lighthouse`: Lighthouse (mobile preset) in Debian's Chromium against pages served by the real
// server. Prints the four category scores, the paint metrics and Lighthouse's `benchmarkIndex` (the host's speed, which
// the simulated CPU figures scale with: docs/decisions/175) per page and run, and writes bench/results/lighthouse.json.
// Options (environment): LIGHTHOUSE_PAGES (comma-separated paths; default the home, arbitrage, pricing, positive-EV,
// middles and API docs pages), LIGHTHOUSE_RUNS (passes over the pages, default 1), LIGHTHOUSE_PORT, BUILD_DIR (the server's:
// audit another build), LIGHTHOUSE_REPORTS_DIR (write every run's full Lighthouse JSON there).
// With two runs or more, each page's representative run is the one Lighthouse's own `computeMedianRun` picks (the run
// nearest the median first paint and time to interactive: the method its variability guide recommends, five runs or
// more); its score is the page's figure, printed with the spread of every run (decision 187).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/browser.ts';
import { cpuSeconds, settle, startServer } from './lib/server.ts';

const PAGES = (
  process.env.LIGHTHOUSE_PAGES ??
  '/,/betting-tools/arbitrage,/sports-betting-api,/betting-tools/positive-ev,/betting-tools/middles,/docs'
).split(',');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3070);
const REPORTS_DIR = process.env.LIGHTHOUSE_REPORTS_DIR;
const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  si: 'speed-index',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
} as const;

interface Run {
  page: string;
  run: number;
  load: number;
  /** The server's CPU use during the audit, in cores (it shares the machine with Chromium). */
  serverCpu: number;
  /** Lighthouse's measure of the host's speed (`lhr.environment.benchmarkIndex`): its simulated CPU times scale with it. */
  benchmarkIndex: number;
  scores: Record<string, number>;
  /** Milliseconds (CLS: unitless). */
  metrics: Record<string, number>;
  failures: string[];
}

/** Tries an audit Lighthouse could not finish (a `runtimeError` such as NO_NAVSTART) up to this many times in all. */
const ATTEMPTS = 3;

/**
 * One audit of `url`. A run Lighthouse itself failed (its trace lost the navigation: every metric NaN, Performance
 * and Best practices 0) is the tool's, not the page's: it is reported and tried again, never counted as a score.
 */
async function audit(url: string, port: number) {
  for (let attempt = 1; ; attempt++) {
    const runner = await lighthouse(url, { port, output: 'json', logLevel: 'error' });
    if (!runner) throw new Error(`no result for ${url}`);
    const error = runner.lhr.runtimeError;
    if (!error) return runner;
    console.log(`${url}: Lighthouse failed (${error.code}), attempt ${attempt} of ${ATTEMPTS}`);
    if (attempt === ATTEMPTS)
      throw new Error(`Lighthouse failed ${ATTEMPTS} times on ${url}: ${error.message}`);
  }
}

const server = await startServer(PORT);
// The server's start-up burst (a core for ~25 s on a 2-core machine) is not the page's: audits start once it is over.
const settled = await settle(server);
console.log(`server settled after ${settled.waitedS} s (${Math.round(settled.share * 100)} % of a core)`);
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: CHROMIUM_ARGS,
});
const runs: Run[] = [];
/** Per page, what `computeMedianRun` reads of each run's result, with the run's index in `runs`. */
const medianInputs = new Map<
  string,
  { index: number; lhr: Parameters<typeof computeMedianRun>[0][number] }[]
>();
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const page of PAGES) {
      const cpuBefore = cpuSeconds(server.process.pid!);
      const auditStarted = Date.now();
      const runner = await audit(`${server.origin}${page}`, chrome.port);
      const { categories, audits } = runner.lhr;
      if (REPORTS_DIR) {
        mkdirSync(REPORTS_DIR, { recursive: true });
        const name = `${page.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}-${run}.json`;
        writeFileSync(path.join(REPORTS_DIR, name), runner.report as string);
      }
      const result: Run = {
        page,
        run,
        load: Number(loadavg()[0]!.toFixed(1)),
        serverCpu: Number(
          ((cpuSeconds(server.process.pid!) - cpuBefore) / ((Date.now() - auditStarted) / 1000)).toFixed(2),
        ),
        benchmarkIndex: Math.round(runner.lhr.environment.benchmarkIndex),
        scores: Object.fromEntries(
          Object.entries(categories).map(([id, category]) => [id, Math.round((category.score ?? 0) * 100)]),
        ),
        metrics: Object.fromEntries(
          Object.entries(METRICS).map(([name, id]) => [
            name,
            Number((audits[id]?.numericValue ?? NaN).toFixed(3)),
          ]),
        ),
        failures: Object.values(audits)
          .filter(
            (audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative',
          )
          .map(
            (audit) => `${audit.id} (${audit.score})${audit.displayValue ? `: ${audit.displayValue}` : ''}`,
          ),
      };
      runs.push(result);
      const slim = {
        audits: {
          'first-contentful-paint': audits['first-contentful-paint'],
          interactive: audits.interactive,
        },
      } as unknown as Parameters<typeof computeMedianRun>[0][number];
      medianInputs.set(page, [...(medianInputs.get(page) ?? []), { index: runs.length - 1, lhr: slim }]);
      console.log(
        page,
        result.scores,
        result.metrics,
        `load ${result.load}`,
        `server ${result.serverCpu} cores`,
        `benchmarkIndex ${result.benchmarkIndex}`,
        result.failures.length ? result.failures : '',
      );
    }
  }
} finally {
  chrome.kill();
  await server.stop();
}
const medians = [...medianInputs].flatMap(([page, inputs]) => {
  if (inputs.length < 2) return [];
  const chosen = computeMedianRun(inputs.map((input) => input.lhr));
  const median = runs[inputs.find((input) => input.lhr === chosen)!.index]!;
  const scores = inputs.map((input) => runs[input.index]!.scores.performance!);
  const summary = {
    page,
    runs: inputs.length,
    medianRun: median.run,
    performance: median.scores.performance,
    accessibility: median.scores.accessibility,
    bestPractices: median.scores['best-practices'],
    seo: median.scores.seo,
    performanceEveryRun: scores,
    lowest: Math.min(...scores),
  };
  console.log(
    `${page}: median run (Lighthouse's computeMedianRun) ${summary.performance} (run ${summary.medianRun} of ${summary.runs}); every run ${scores.join(', ')}`,
  );
  return [summary];
});
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/lighthouse.json',
  JSON.stringify({ date: new Date().toISOString(), medians, runs }, null, 2),
);
