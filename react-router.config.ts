import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@react-router/dev/config';
import { startScriptsAfterFirstPaint } from './scripts/lib/prerendered-scripts.ts';

const PRERENDER = [
  '/',
  '/betting-tools/arbitrage',
  '/betting-tools/positive-ev',
  '/betting-tools/middles',
  '/betting-tools/bet-tracker',
  '/betting-tools/calibration',
  '/sports-betting-api',
  '/welcome',
  '/account',
  '/404',
];

/**
 * The prerendered pages' scripts start after their first paint (decision 186, which replaces decision 171's low
 * fetch priority): the first paint needs none of them (the page is prerendered and its stylesheet inline), so on a
 * slow link nothing shares it with the page while the browser is still drawing it.
 */
async function startScriptsAfterPaint(clientDir: string): Promise<void> {
  for (const page of PRERENDER) {
    const file = path.join(clientDir, page, 'index.html');
    await writeFile(file, startScriptsAfterFirstPaint(await readFile(file, 'utf8'), page));
  }
}

// Static site: every page is prerendered to HTML at build time and hydrated in the browser (no SSR at runtime).
export default {
  appDirectory: 'src/web',
  // SHARPLINE_BUILD_DIR lets a second build go elsewhere (benchmarks, parallel work) without emptying build/.
  buildDirectory: process.env.SHARPLINE_BUILD_DIR ?? 'build',
  ssr: false,
  prerender: PRERENDER,
  buildEnd: ({ reactRouterConfig }) =>
    startScriptsAfterPaint(path.join(reactRouterConfig.buildDirectory, 'client')),
} satisfies Config;
