import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  loadMigrations,
  migrate,
  openDatabase,
  PGLITE_SETTINGS,
  PGLITE_WAL_SEGMENT_MB,
  rowsOf,
  walSegmentBytes,
} from './database.ts';

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
      // Decision 308: an 8 MB buffer pool (its WebAssembly memory ~9 MB less resident), the log's buffers 1/32 of it.
      const pool = rowsOf<{ shared: string; wal: string }>(
        await handle.db.execute(
          sql`SELECT current_setting('shared_buffers') AS shared, current_setting('wal_buffers') AS wal`,
        ),
      );
      expect(pool[0]).toEqual({ shared: '8MB', wal: '256kB' });
      // Decision 279: 1 MB log segments, and a log checkpointed at 16 MB (wal-checkpoint.ts).
      const wal = rowsOf<{ segment: string; max: string; min: string }>(
        await handle.db.execute(
          sql`SELECT current_setting('wal_segment_size') AS segment, current_setting('max_wal_size') AS max,
                current_setting('min_wal_size') AS min`,
        ),
      );
      expect(wal[0]).toEqual({ segment: `${PGLITE_WAL_SEGMENT_MB}MB`, max: '16MB', min: '4MB' });
      expect(handle.walMaxBytes).toBe(16 * 1024 ** 2);
      expect(walSegmentBytes(dir)).toBe(PGLITE_WAL_SEGMENT_MB * 1024 ** 2);
      const tables = rowsOf<{ n: number }>(
        await handle.db.execute(sql`SELECT count(*)::int AS n FROM schema_migrations`),
      );
      expect(tables[0]!.n).toBe(loadMigrations().length);
    } finally {
      await handle.close();
    }
  });

  it('opens a data directory made with 16 MB log segments (before decision 279) with a log limit it accepts', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-db-')), 'pglite');
    // initdb's own default, as every embedded database was made before: min_wal_size=4MB would not start there.
    const old = await PGlite.create(dir, { initDbStartParams: ['--wal-segsize=16'] });
    await old.close();
    expect(walSegmentBytes(dir)).toBe(16 * 1024 ** 2);
    const handle = await openDatabase({ pgliteDir: dir, schemaName: 'public' });
    try {
      const wal = rowsOf<{ segment: string; max: string; min: string }>(
        await handle.db.execute(
          sql`SELECT current_setting('wal_segment_size') AS segment, current_setting('max_wal_size') AS max,
                current_setting('min_wal_size') AS min`,
        ),
      );
      expect(wal[0]).toEqual({ segment: '16MB', max: '32MB', min: '32MB' });
      expect(handle.walMaxBytes).toBe(32 * 1024 ** 2);
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
