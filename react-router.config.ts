import type { Config } from '@react-router/dev/config';

// Static site: every page is prerendered to HTML at build time and hydrated in the browser (no SSR at runtime).
export default {
  appDirectory: 'src/web',
  // SHARPLINE_BUILD_DIR lets a second build go elsewhere (benchmarks, parallel work) without emptying build/.
  buildDirectory: process.env.SHARPLINE_BUILD_DIR ?? 'build',
  ssr: false,
  prerender: [
    '/',
    '/betting-tools/arbitrage',
    '/betting-tools/positive-ev',
    '/betting-tools/middles',
    '/sports-betting-api',
    '/welcome',
    '/account',
    '/404',
  ],
} satisfies Config;
