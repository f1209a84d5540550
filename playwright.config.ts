import { defineConfig, devices } from '@playwright/test';

import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  E2E_CHECKOUT_ORIGIN,
  E2E_CHECKOUT_PORT,
  E2E_PORT as PORT,
  E2E_REPLAY_PORT,
  E2E_STRIPE_ORIGIN,
  E2E_STRIPE_PORT,
} from './tests/support/browser.ts';
import { STRIPE_TEST_SECRET_KEY, STRIPE_TEST_WEBHOOK_SECRET } from './tests/support/server/stripe.ts';

const START_LIMIT_MS = 300_000;

// Browser tests run in Debian's Chromium (never a downloaded browser) against the real built server.
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  // In CI one retry, so that one test losing a race on a loaded machine does not refuse the whole submission; the
  // summary (scripts/test.sh) names every test that needed it, so a flaky test is seen and fixed (decision 172).
  retries: process.env.CI ? 1 : 0,
  forbidOnly: true,
  // E2E_CPU_REPORT=<file.json> adds where each test's CPU went (tests/support/cpu-reporter.ts; run it with one worker).
  reporter: [
    ['list'],
    ...(process.env.E2E_CPU_REPORT
      ? [['./tests/support/cpu-reporter.ts', { outputFile: process.env.E2E_CPU_REPORT }] as [string, unknown]]
      : []),
  ],
  // 60 s a test: the heaviest (full-page screenshots, then axe) took 31–34 s in CI on a slower machine, beside both
  // Vitest suites on two cores (decision 172).
  timeout: 60_000,
  // An assertion waits 15 s in CI, 5 s (Playwright's default) elsewhere: beside both Vitest suites on two cores, a
  // page's first table once took over 5 s to draw, twice in a row (arbitrage-props, session 19's CI; decision 184).
  expect: { timeout: process.env.CI ? 15_000 : 5_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'off',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
  ],
  webServer: [
    {
      command: 'node --import tsx src/server/server.ts',
      url: `http://127.0.0.1:${PORT}/healthz`,
      reuseExistingServer: false,
      // A loaded machine (CI beside other suites) takes over a minute to start a server, as the process tests found; the
      // checkout server, started mid-run, once took over 150 s. Playwright starts the servers one after another.
      timeout: START_LIMIT_MS,
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: `./data/e2e-${PORT}`,
        SIM_SEED: '7',
        // The demo calendar pinned (decision 230): the board of Sunday 22 November 2026, 13:30 ET (the NFL's early
        // games in play, the day's basketball and hockey ahead) whatever the hour the suite runs at.
        SIM_START: '2026-11-22T18:30:00Z',
        // Every browser test asks from 127.0.0.1: the per-network trial limit (5 an hour by default, tested in
        // trial-requests.test.ts) would refuse whichever test comes after the first five requests of the run.
        TRIAL_LIMIT_PER_IP: '1000',
        // The positive-EV and middles pages' feeds without their 2-minute delay, so the pages have rows from the
        // server's first second.
        EV_PUBLIC_DELAY_S: '0',
        // No spec reads this site's odds history (the arbitrage page's history panel is the replay site's): recording
        // the simulator's ~200 price changes a second into PGlite was ~40 % of this server's CPU through the run.
        HISTORY_RECORD: 'false',
        LOG_LEVEL: 'warn',
        SITE_URL: `http://127.0.0.1:${PORT}`,
      },
    },
    // The arbitrage page's specs (tests/e2e/arbitrage*.spec.ts) read a deterministic replayed feed (E2E_REPLAY_PORT).
    {
      command: 'node --import tsx src/server/server.ts',
      url: `http://127.0.0.1:${E2E_REPLAY_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: START_LIMIT_MS,
      env: {
        PORT: String(E2E_REPLAY_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: `./data/e2e-${E2E_REPLAY_PORT}`,
        ODDS_SOURCE: 'replay:tests/fixtures/arbitrage-e2e.jsonl',
        LOG_LEVEL: 'warn',
        SITE_URL: `http://127.0.0.1:${E2E_REPLAY_PORT}`,
      },
    },
    // Buying a plan (tests/e2e/checkout.spec.ts): Stripe's API stood in for in its own process, and a site that sells
    // through it. Started with the others, before any test, rather than by the spec in the middle of the run.
    {
      command: 'node --import tsx tests/support/stripe-stand-in.ts',
      url: `${E2E_STRIPE_ORIGIN}/__stand-in/checkout-requests`,
      reuseExistingServer: false,
      timeout: START_LIMIT_MS,
      env: { STRIPE_STAND_IN_PORT: String(E2E_STRIPE_PORT) },
    },
    {
      command: 'node --import tsx src/server/server.ts',
      url: `${E2E_CHECKOUT_ORIGIN}/readyz`,
      reuseExistingServer: false,
      timeout: START_LIMIT_MS,
      env: {
        PORT: String(E2E_CHECKOUT_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: `./data/e2e-${E2E_CHECKOUT_PORT}`,
        // Its pages read no odds: two replayed games (played once, then only kept fresh) instead of a simulator
        // stepping for the whole run.
        ODDS_SOURCE: 'replay:tests/fixtures/replay-example.jsonl',
        LOG_LEVEL: 'warn',
        SITE_URL: E2E_CHECKOUT_ORIGIN,
        STRIPE_SECRET_KEY: STRIPE_TEST_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
        STRIPE_API_URL: E2E_STRIPE_ORIGIN,
        STRIPE_PRICE_PLANS: 'price_1StarterMonthly:starter,price_1ProMonthly:pro,price_1EliteMonthly:elite',
      },
    },
  ],
});
