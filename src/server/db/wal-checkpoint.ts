import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Poller } from '../lib/poller.ts';
import { PGLITE_MAX_WAL_MB, rowsOf, type Database } from './database.ts';

// PGlite is PostgreSQL in one process, without the checkpointer: PostgreSQL asks for a checkpoint when the write-ahead
// log passes max_wal_size only from a backend under the postmaster, so on the embedded database no checkpoint ever came
// before a shutdown, and `pg_wal` grew for as long as the server ran (issue 59: most of a 2.1 GB data folder after
// 47 minutes). This does the checkpointer's job on PGlite only: every WAL_CHECK_INTERVAL_MS, when the log holds more
// than `maxBytes`, one CHECKPOINT; the segments it no longer needs are then recycled or removed, down to about
// max_wal_size (decision 247). The embedded database's log is 1 MB segments and max_wal_size 16 MB (decision 279):
// `pg_wal` stays about 16 MB and moves by a megabyte, where 64 MB of 16 MB segments made an idle server's data folder
// grow 16 MB at a time.

export const WAL_CHECK_INTERVAL_MS = 30_000;
/** max_wal_size of a new embedded database, in bytes: past it, a checkpoint (an older one's is the handle's). */
export const PGLITE_WAL_MAX_BYTES = PGLITE_MAX_WAL_MB * 1024 * 1024;

export class WalCheckpointer {
  private readonly poller: Poller;
  /** Checkpoints made since start. */
  checkpoints = 0;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly maxBytes = PGLITE_WAL_MAX_BYTES,
    intervalMs = WAL_CHECK_INTERVAL_MS,
  ) {
    this.poller = new Poller(
      async () => {
        await this.runOnce();
      },
      intervalMs,
      (error) =>
        this.log.warn({ error: (error as Error).message }, 'checkpointing the embedded database failed'),
    );
  }

  start(): void {
    this.poller.start();
  }

  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** What the write-ahead log's files take now (bytes). */
  async walBytes(): Promise<number> {
    const rows = rowsOf<{ bytes: string }>(
      await this.db.execute(sql`SELECT coalesce(sum(size), 0)::int8::text AS bytes FROM pg_ls_waldir()`),
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  /** Checkpoints when the log holds more than `maxBytes`; returns whether it did. */
  async runOnce(): Promise<boolean> {
    const before = await this.walBytes();
    if (before <= this.maxBytes) return false;
    // The checkpoint runs alone on the thread (PGlite is synchronous): timers and requests run before it.
    await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    await this.db.execute(sql`CHECKPOINT`);
    this.checkpoints += 1;
    this.log.debug(
      { walBytes: before, ms: Math.round(performance.now() - started) },
      'checkpointed the embedded database',
    );
    return true;
  }
}
