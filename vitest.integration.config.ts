import { defineConfig } from 'vitest/config';

// Runs against the PostgreSQL and Redis named by DATABASE_URL and REDIS_URL (CI provides both on loopback).
export default defineConfig({
  test: {
    include: ['src/**/*.integration.test.ts'],
    environment: 'node',
    globalSetup: ['./tests/setup/temp-root.ts'],
    setupFiles: ['./tests/setup/vitest.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    passWithNoTests: false,
  },
});
