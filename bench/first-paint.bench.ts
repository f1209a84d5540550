// First paint against first rows (docs/decisions/186): what a visitor on a slow phone link sees, measured in Chromium
// with DevTools' throttling applied for real (not Lighthouse's simulation): Lighthouse's "Slow 4G" figures (150 ms
// round trip, 1.6 Mbit/s down, 750 kbit/s up) and a 4× CPU slowdown, an empty cache, the real server.
//
// For each build and page it records the first contentful paint, when the first script was asked for and (arbitrage
// page) when the first arb row was in the table, which needs the page hydrated and its feed answered. Builds are
// audited in turn, run by run, so a change in the host's load falls on both. The servers replay the arbitrage browser
// tests' recorded feed (no simulator competing for the CPU).
//
// BENCH_BUILDS: comma-separated `name=path` pairs of built client folders (default `landed=build/client`);
// BENCH_FIRST_PAINT_RUNS (default 5); BENCH_FIRST_PAINT_PAGES (default the arbitrage and home pages).
// Writes bench/results/first-paint.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/browser.ts';
import { settle, startServer, type RunningServer } from './lib/server.ts';

const BUILDS = (process.env.BENCH_BUILDS ?? 'landed=build/client').split(',').map((pair) => {
  const [name, dir] = pair.split('=');
  if (!name || !dir) throw new Error(`BENCH_BUILDS: expected name=path, got ${pair}`);
  return { name, dir };
});
const RUNS = Number(process.env.BENCH_FIRST_PAINT_RUNS ?? 5);
const PAGES = (process.env.BENCH_FIRST_PAINT_PAGES ?? '/betting-tools/arbitrage,/').split(',');
const BASE_PORT = Number(process.env.BENCH_FIRST_PAINT_PORT ?? 3080);
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

interface Sample {
  build: string;
  page: string;
  run: number;
  load: number;
  fcpMs: number;
  firstScriptMs: number | null;
  firstRowMs: number | null;
}

const servers: RunningServer[] = [];
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const samples: Sample[] = [];
try {
  for (const [index, build] of BUILDS.entries()) {
    const server = await startServer(BASE_PORT + index, {
      BUILD_DIR: build.dir,
      ODDS_SOURCE: 'replay:tests/fixtures/arbitrage-e2e.jsonl',
    });
    await settle(server);
    servers.push(server);
  }
  for (let run = 1; run <= RUNS; run++) {
    for (const [index, build] of BUILDS.entries()) {
      for (const page of PAGES) {
        const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
        const tab = await context.newPage();
        const cdp = await context.newCDPSession(tab);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await tab.addInitScript(() => {
          const marks = window as unknown as { firstRowAt?: number };
          new MutationObserver((_, observer) => {
            if (document.querySelector('table tbody tr')) {
              marks.firstRowAt = performance.now();
              observer.disconnect();
            }
          }).observe(document, { childList: true, subtree: true });
        });
        await tab.goto(`${servers[index]!.origin}${page}`, { waitUntil: 'load' });
        if (page.includes('arbitrage'))
          await tab.waitForFunction(
            () => (window as { firstRowAt?: number }).firstRowAt !== undefined,
            null,
            {
              timeout: 60_000,
            },
          );
        else await tab.waitForTimeout(3000);
        const timing = await tab.evaluate(() => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0];
          const scripts = performance
            .getEntriesByType('resource')
            .filter((entry) => /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
            .map((entry) => entry.startTime);
          return {
            fcpMs: fcp?.startTime ?? NaN,
            firstScriptMs: scripts.length ? Math.min(...scripts) : null,
            firstRowMs: (window as { firstRowAt?: number }).firstRowAt ?? null,
          };
        });
        const round = (value: number | null) => (value === null ? null : Math.round(value));
        const sample: Sample = {
          build: build.name,
          page,
          run,
          load: Number(loadavg()[0]!.toFixed(1)),
          fcpMs: Math.round(timing.fcpMs),
          firstScriptMs: round(timing.firstScriptMs),
          firstRowMs: round(timing.firstRowMs),
        };
        samples.push(sample);
        console.log(JSON.stringify(sample));
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  for (const server of servers) await server.stop();
}

const median = (values: number[]) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : null;
};
const summary = BUILDS.flatMap((build) =>
  PAGES.map((page) => {
    const of = samples.filter((sample) => sample.build === build.name && sample.page === page);
    const pick = (key: 'fcpMs' | 'firstScriptMs' | 'firstRowMs') =>
      median(of.map((sample) => sample[key] ?? NaN));
    return {
      build: build.name,
      page,
      fcpMs: pick('fcpMs'),
      firstScriptMs: pick('firstScriptMs'),
      firstRowMs: pick('firstRowMs'),
    };
  }),
);
console.table(summary);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/first-paint.json',
  JSON.stringify({ date: new Date().toISOString(), samples, summary }, null, 2),
);
