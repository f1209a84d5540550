import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@react-router/dev/config';

const PRERENDER = [
  '/',
  '/betting-tools/arbitrage',
  '/betting-tools/positive-ev',
  '/betting-tools/middles',
  '/sports-betting-api',
  '/welcome',
  '/account',
  '/404',
];

/**
 * The prerendered pages' module preloads (React Router's `<Scripts>` puts one `<link rel="modulepreload">` per chunk
 * of the page in the head) are fetched at low priority: the first paint needs none of them (the page is prerendered
 * and its stylesheet inline), so on a slow link they no longer share it at high priority with the page itself
 * (decision 171). Hydration is unchanged: React matches the links by href and rel.
 */
async function lowerModulePreloads(clientDir: string): Promise<void> {
  for (const page of PRERENDER) {
    const file = path.join(clientDir, page, 'index.html');
    const html = await readFile(file, 'utf8');
    await writeFile(
      file,
      html.replaceAll(
        '<link rel="modulepreload" href=',
        '<link rel="modulepreload" fetchpriority="low" href=',
      ),
    );
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
    lowerModulePreloads(path.join(reactRouterConfig.buildDirectory, 'client')),
} satisfies Config;
