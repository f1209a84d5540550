// `npm run audit:lighthouse`: Lighthouse (mobile preset) in Debian's Chromium against the three pages served by the
// real server. Prints the four category scores per page and writes bench/results/lighthouse.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/browser.ts';
import { startServer } from './lib/server.ts';

const PAGES = ['/', '/betting-tools/arbitrage', '/sports-betting-api'];
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3070);

const server = await startServer(PORT);
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: CHROMIUM_ARGS,
});
const results: Record<string, Record<string, number>> = {};
const failures: Record<string, string[]> = {};
try {
  for (const page of PAGES) {
    const runner = await lighthouse(`${server.origin}${page}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
    });
    if (!runner) throw new Error(`no result for ${page}`);
    const { categories, audits } = runner.lhr;
    results[page] = Object.fromEntries(
      Object.entries(categories).map(([id, category]) => [id, Math.round((category.score ?? 0) * 100)]),
    );
    failures[page] = Object.values(audits)
      .filter(
        (audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative',
      )
      .map((audit) => `${audit.id} (${audit.score})${audit.displayValue ? `: ${audit.displayValue}` : ''}`);
    console.log(page, results[page], failures[page]!.length ? failures[page] : '');
  }
} finally {
  chrome.kill();
  await server.stop();
}
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/lighthouse.json',
  JSON.stringify({ date: new Date().toISOString(), results, failures }, null, 2),
);
