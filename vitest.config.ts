import { defineConfig } from 'vitest/config';

// Unit, component and server tests. Browser tests live in tests/e2e (Playwright);
// the integration suite (PostgreSQL + Redis) has its own config.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    exclude: ['**/*.integration.test.ts', 'node_modules/**'],
    environment: 'node',
    globalSetup: ['./tests/setup/temp-root.ts'],
    setupFiles: ['./tests/setup/vitest.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
