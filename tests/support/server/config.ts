import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '#server/config.ts';

/**
 * A config for tests: a fresh temp DATA_DIR, an in-memory database (loaded from a per-process template; pass
 * `PGLITE_DIR: ''` for one on disk), the real build, quiet logs, and a simulator without player props unless the test
 * asks for them (`SIM_PROPS: 'true'`: six times the markets, seconds more per app). Overrides are environment
 * variables.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  // scripts/test.sh runs the other projects while `npm run build` rewrites build/: only the `site` project waits for it.
  if (process.env.VITEST && !process.env.SHARPLINE_TEST_READS_BUILD) {
    throw new Error(
      'testConfig() reads the real build: list this test file in READS_THE_BUILD in vitest.config.ts (the site project)',
    );
  }
  return loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sharpline-test-')),
    BUILD_DIR: path.resolve('build/client'),
    SITE_URL: 'https://example.test',
    LOG_LEVEL: 'silent',
    PGLITE_DIR: 'memory://',
    SIM_PROPS: 'false',
    ...env,
  });
}
