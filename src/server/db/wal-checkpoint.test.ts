import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import { PGLITE_WAL_MAX_BYTES, WalCheckpointer } from './wal-checkpoint.ts';

// PGlite never checkpoints by itself (no checkpointer): the write-ahead log grows until a checkpoint, which
// WalCheckpointer makes once it passes max_wal_size (decision 247).

const silent = { debug: () => undefined, warn: () => undefined } as unknown as FastifyBaseLogger;
const SEGMENT = 1024 * 1024;

describe('WalCheckpointer', () => {
  it('leaves a log under max_wal_size alone, and checkpoints one past it back to about max_wal_size', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-wal-')), 'pglite');
    const handle = await openDatabase({ pgliteDir: dir, schemaName: 'public' });
    try {
      const checkpointer = new WalCheckpointer(handle.db, silent);
      expect(await checkpointer.runOnce()).toBe(false);
      await handle.db.execute(sql`CREATE TABLE filler (n int, text text)`);
      // About 16 MB of log a statement: PGlite alone lets it pass max_wal_size.
      while ((await checkpointer.walBytes()) <= PGLITE_WAL_MAX_BYTES + 2 * SEGMENT)
        await handle.db.execute(
          sql`INSERT INTO filler SELECT g, repeat('x', 100) FROM generate_series(1, 100000) g`,
        );
      expect(await checkpointer.runOnce()).toBe(true);
      expect(checkpointer.checkpoints).toBe(1);
      expect(await checkpointer.walBytes()).toBeLessThanOrEqual(PGLITE_WAL_MAX_BYTES + SEGMENT);
      expect(await checkpointer.runOnce()).toBe(false);
    } finally {
      await handle.close();
    }
  });
});
