import { defineConfig, devices } from '@playwright/test';

// Browser tests run in Debian's Chromium (never a downloaded browser) against the real built server.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const PORT = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
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
      timeout: 60_000,
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: `./data/e2e-${PORT}`,
        SIM_SEED: '7',
        LOG_LEVEL: 'warn',
        SITE_URL: `http://127.0.0.1:${PORT}`,
      },
    },
    // The arbitrage page's specs (tests/e2e/arbitrage*.spec.ts) read a deterministic replayed feed on port 3101.
    {
      command: 'node --import tsx src/server/server.ts',
      url: 'http://127.0.0.1:3101/healthz',
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: '3101',
        HOST: '127.0.0.1',
        DATA_DIR: './data/e2e-3101',
        ODDS_SOURCE: 'replay:tests/fixtures/arbitrage-e2e.jsonl',
        LOG_LEVEL: 'warn',
        SITE_URL: 'http://127.0.0.1:3101',
      },
    },
  ],
});
