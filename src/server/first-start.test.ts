import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { buildTestApp, logSink } from '#tests/support/server/app.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import type * as database from './db/database.ts';
import { rowsOf } from './db/database.ts';
import type * as staticFiles from './http/static-files.ts';

// A first start on a busy machine (issue 31): the embedded database's initialisation and migrations, and the site's
// files (read and compressed at start), took longer than Fastify's per-plugin timeout (pluginTimeout, 10 s by
// default), and the start failed with "Plugin did not start in time: 'db'" (or 'site'). Here both are made slower
// than that timeout, whatever the machine.

/** Fastify's default pluginTimeout: the budget each plugin has to start. */
const FASTIFY_PLUGIN_TIMEOUT_MS = 10_000;
const slower = () => sleep(FASTIFY_PLUGIN_TIMEOUT_MS + 1_000);

vi.mock('./db/database.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof database>();
  return {
    ...actual,
    // The database opens as usual, then takes longer than any plugin may, as initdb does under load.
    openDatabase: async (...args: Parameters<typeof actual.openDatabase>) => {
      const handle = await actual.openDatabase(...args);
      await slower();
      return handle;
    },
  };
});

vi.mock('./http/static-files.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof staticFiles>();
  let first = true;
  return {
    ...actual,
    // The site's first file takes longer than any plugin may, as compressing the assets does under load.
    loadEntry: async (...args: Parameters<typeof actual.loadEntry>) => {
      const entry = await actual.loadEntry(...args);
      if (first) {
        first = false;
        await slower();
      }
      return entry;
    },
  };
});

describe('a first start on a busy machine', () => {
  it('starts although opening the database and loading the site each take longer than the plugin timeout, and logs its progress', async () => {
    const lines: string[] = [];
    const log = logSink(lines);
    // Fastify's own budget, as before issue 31 (the app's default is a larger safety net).
    const app = await buildTestApp({
      config: trialTestConfig(),
      log,
      pluginTimeout: FASTIFY_PLUGIN_TIMEOUT_MS,
    });
    try {
      await app.ready();
      expect(rowsOf(await app.db.execute(sql`SELECT 1 AS one`))).toEqual([{ one: 1 }]);
      expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
      const logged = lines.join('');
      expect(logged).toMatch(/migrations applied in \d+ ms/);
      expect(logged).toMatch(/site loaded in \d+ ms/);
    } finally {
      await app.close();
    }
  }, 180_000);
});
