import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate, openDatabase, PGLITE_SETTINGS, rowsOf } from './database.ts';

describe('database migrations', () => {
  it('splits migration files into single statements (PGlite takes one per query)', () => {
    const [first] = loadMigrations();
    expect(first!.version).toBe('0001_trials');
    expect(first!.statements.length).toBeGreaterThan(5);
    for (const statement of first!.statements) {
      expect(statement).not.toMatch(/;\s*\S/);
      expect(statement).not.toMatch(/^--/m);
    }
  });

  it('applies each migration once, records it, and keeps the data across a reopen', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-db-')), 'pglite');
    const first = await openDatabase({ pgliteDir: dir, schemaName: 'public' });
    try {
      await first.db.execute(
        sql`INSERT INTO api_keys (prefix, hash, kind, plan, owner_email) VALUES ('sl_trial_abcdef', 'h', 'trial', 'pro', 'a@b.co')`,
      );
      expect(await migrate(first.db, 'public')).toEqual([]);
    } finally {
      await first.close();
    }
    const second = await openDatabase({ pgliteDir: dir, schemaName: 'public' });
    try {
      const versions = rowsOf<{ version: string }>(
        await second.db.execute(sql`SELECT version FROM schema_migrations`),
      );
      expect(versions.map((row) => row.version)).toEqual(
        loadMigrations().map((migration) => migration.version),
      );
      const keys = rowsOf<{ n: number }>(
        await second.db.execute(sql`SELECT count(*)::int AS n FROM api_keys`),
      );
      expect(keys[0]!.n).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('creates a fresh embedded database with the small buffer settings of PGLITE_SETTINGS', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-db-')), 'pglite');
    const handle = await openDatabase({ pgliteDir: dir, schemaName: 'public' });
    try {
      for (const setting of PGLITE_SETTINGS) {
        const [name, value] = setting.split('=') as [string, string];
        const rows = rowsOf<Record<string, string>>(await handle.db.execute(sql.raw(`SHOW ${name}`)));
        expect(rows[0]![name]).toBe(value);
      }
      const tables = rowsOf<{ n: number }>(
        await handle.db.execute(sql`SELECT count(*)::int AS n FROM schema_migrations`),
      );
      expect(tables[0]!.n).toBe(loadMigrations().length);
    } finally {
      await handle.close();
    }
  });

  it('refuses a second process-level open of the same embedded data directory while it is in use', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-db-')), 'pglite');
    const handle = await openDatabase({ pgliteDir: dir, schemaName: 'public' });
    try {
      // The lock file names this (live) process; a different live pid must be refused, so fake one: our parent.
      writeFileSync(`${dir}.lock`, String(process.ppid));
      await expect(openDatabase({ pgliteDir: dir, schemaName: 'public' })).rejects.toThrow(
        /in use by process/,
      );
    } finally {
      await handle.close();
    }
  });
});
