// Site benchmark (docs/decisions/001-005): JavaScript shipped to each page (gzip, as Chromium receives it from the real server) and
// the server's latency for `/` under autocannon on loopback. Writes bench/results/site.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import autocannon from 'autocannon';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/browser.ts';
import { startServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_SITE_PORT ?? 3080);
const PAGES = [
  '/',
  '/betting-tools/arbitrage',
  '/betting-tools/positive-ev',
  '/betting-tools/middles',
  '/sports-betting-api',
];

const server = await startServer(PORT);
const results: Record<string, unknown> = { date: new Date().toISOString() };
try {
  // 1. JavaScript per page: every script response during load (initial) and after interacting with the form (lazy).
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const jsKb: Record<string, { initialGzipKb: number; files: number }> = {};
  for (const path of PAGES) {
    const page = await browser.newPage();
    const scripts = new Map<string, Buffer>();
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script' || response.url().endsWith('.js')) {
        scripts.set(response.url(), await response.body().catch(() => Buffer.alloc(0)));
      }
    });
    await page.goto(`${server.origin}${path}`, { waitUntil: 'networkidle' });
    const inline = await page.evaluate(() =>
      [...document.querySelectorAll('script:not([src]):not([type="application/ld+json"])')]
        .map((s) => s.textContent ?? '')
        .join(''),
    );
    const gzipBytes =
      [...scripts.values()].reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0) +
      gzipSync(inline).length;
    jsKb[path] = { initialGzipKb: Math.round((gzipBytes / 1024) * 10) / 10, files: scripts.size };
    await page.close();
  }
  await browser.close();
  results.javascript = jsKb;
  console.log('JavaScript (gzip, KB, scripts + inline):', jsKb);

  // 2. Latency of GET / (brotli accepted, as browsers do).
  const run = (url: string, headers: Record<string, string>) =>
    autocannon({ url, connections: 10, duration: 10, headers });
  await run(`${server.origin}/`, { 'accept-encoding': 'br' }); // warm-up
  const home = await run(`${server.origin}/`, { 'accept-encoding': 'gzip, deflate, br' });
  results.home = {
    requestsPerSecond: home.requests.average,
    latencyMs: { p50: home.latency.p50, p90: home.latency.p90, p99: home.latency.p99, max: home.latency.max },
    non2xx: home.non2xx,
  };
  console.log('GET / (10 connections, 10 s):', results.home);
} finally {
  await server.stop();
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/site.json', JSON.stringify(results, null, 2));
