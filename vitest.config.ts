import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit, component and server tests. Browser tests live in tests/e2e (Playwright);
// the integration suite (PostgreSQL + Redis) has its own config.
//
// Three projects (decision 159), so that `scripts/test.sh` can run most of the suite while `npm run build` runs:
// - `server`: src/server's tests, several files per worker process (`isolate: false`): the process's first app
//   migrates an in-memory database and keeps it as a template (src/server/db/database.ts), and every later app of
//   any file loads that template instead of initialising PostgreSQL again (~6 of the 7 CPU-seconds of a first app).
// - `unit`: domain, engine, web components (jsdom) and scripts, one fresh module graph per file as before, and the
//   server tests that replace a module with vi.mock (a shared module graph would ignore the mock).
// - `site`: the server tests that read the real build (`testConfig()` in tests/support/server/config.ts): they run
//   after `npm run build`; testConfig() refuses to run in another project.
const READS_THE_BUILD = [
  'src/server/site/site.test.ts',
  'src/server/feed/arbs-feed.test.ts',
  'src/server/feed/feed-fast-path.test.ts',
  'src/server/calibration/calibration-page.test.ts',
  'src/server/results/bet-tracker-clv-page.test.ts',
];
const MOCKS_MODULES = ['src/server/first-start.test.ts'];
const EXCLUDE = ['**/*.integration.test.ts', 'node_modules/**'];

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['./tests/setup/temp-root.ts'],
    setupFiles: ['./tests/setup/vitest.setup.ts'],
    // Only a hung test should hit these: on a 2-core machine at load 35 (other work) one test took 159 s.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Vitest's default keeps one core for its main process, which waits: on a 2-core machine that is one worker.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts', 'clients/**/*.test.ts'],
          exclude: [...EXCLUDE, ...READS_THE_BUILD, ...MOCKS_MODULES],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/!(server)/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
            'tests/setup/*.test.ts',
            ...MOCKS_MODULES,
          ],
          exclude: EXCLUDE,
          setupFiles: ['./tests/setup/testing-library.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'site',
          include: READS_THE_BUILD,
          // As `server`: the files share a process, so the built site is read and compressed once a worker, not once a
          // file (decision 190).
          isolate: false,
          env: { SHARPLINE_TEST_READS_BUILD: '1' },
        },
      },
    ],
  },
});
