import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { AutoAnalyzer } from './auto-analyze.ts';
import { openDatabase, type Database, type DatabaseHandle, type DatabaseKind } from './database.ts';
import { PGLITE_WAL_MAX_BYTES, WalCheckpointer } from './wal-checkpoint.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Drizzle over PGlite or PostgreSQL (same schema, same queries). */
    db: Database;
    /**
     * On PGlite, analyzes now the tables changed past autovacuum's threshold (decision 181) and returns their names;
     * the app also does so every minute. On PostgreSQL autovacuum does it: returns [].
     */
    analyzeDatabase(): Promise<string[]>;
  }
}

/** Which driver `app.db` runs on; PGlite admits one process, which the outbox worker relies on. */
export const dbKinds = new WeakMap<Database, DatabaseKind>();

/**
 * Opens the configured database (PGlite's first initialisation and the migrations included). `buildApp()` calls it
 * before registering the plugin, outside Fastify's per-plugin timeout: a first start on a busy machine takes longer
 * than that (issue 31), and the time it takes is in the log instead.
 */
export function openAppDatabase(config: Config, log: FastifyBaseLogger): Promise<DatabaseHandle> {
  return openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: config.PGLITE_DIR ?? path.join(config.dataDir, 'pglite'),
    schemaName: config.DATABASE_SCHEMA,
    log,
  });
}

/** What the embedded database's write-ahead log may take, about: max_wal_size and what is written between two checks. */
export const PGLITE_WAL_MB = Math.round(PGLITE_WAL_MAX_BYTES / 1024 ** 2) * 1.5;

/**
 * The line `npm start` logs about storage (issue 59, decision 247): where the data goes and how much the odds history
 * may take there. No secret: DATABASE_URL is named, never shown.
 */
export function storageNotice(config: Config): string {
  const kept = `the odds history kept ${config.HISTORY_RETENTION_DAYS} days and at most ${config.HISTORY_MAX_GB} GiB (HISTORY_RETENTION_DAYS, HISTORY_MAX_GB`;
  if (config.DATABASE_URL)
    return `Storage: PostgreSQL (DATABASE_URL) holds ${kept}; past the cap whole days are dropped oldest first, never today's); ${config.dataDir} holds what is not in the database (the outbox's emails)`;
  // The embedded database's days are in quarters (decision 279): the cap empties the oldest ones, never the current.
  const history = `${kept}; past the cap the oldest quarter-days are emptied, never the current one)`;
  const dir = config.PGLITE_DIR ?? path.join(config.dataDir, 'pglite');
  if (dir.startsWith('memory://')) return `Storage: an embedded database in memory holds ${history}`;
  return `Storage: ${config.dataDir} holds the embedded database (${dir}) with ${history}, plus up to about ${PGLITE_WAL_MB} MB of its write-ahead log and the other tables (DATA_DIR, PGLITE_DIR)`;
}

export interface DbPluginOptions {
  /** The open database (openAppDatabase); the plugin closes it with the app. */
  handle: DatabaseHandle;
}

export const dbPlugin = fp(
  async (app: FastifyInstance, { handle }: DbPluginOptions) => {
    dbKinds.set(handle.db, handle.kind);
    app.decorate('db', handle.db);
    app.log.info(
      { dataDir: app.config.dataDir, database: handle.kind, historyMaxGB: app.config.HISTORY_MAX_GB },
      storageNotice(app.config),
    );
    app.readiness.register('database', async () => {
      await handle.db.execute(sql`SELECT 1`);
      return { ok: true, details: { driver: handle.kind } };
    });
    const analyzer = handle.kind === 'pglite' ? new AutoAnalyzer(handle.db, app.log) : undefined;
    // PGlite makes no checkpoint of its own: the write-ahead log is kept near max_wal_size here (decisions 247, 279).
    const checkpointer =
      handle.kind === 'pglite' && !app.config.PGLITE_DIR?.startsWith('memory://')
        ? new WalCheckpointer(handle.db, app.log, handle.walMaxBytes ?? PGLITE_WAL_MAX_BYTES)
        : undefined;
    app.decorate('analyzeDatabase', async () => (analyzer ? analyzer.runOnce() : []));
    app.addHook('onReady', async () => {
      analyzer?.start();
      checkpointer?.start();
    });
    app.addHook('onClose', async () => {
      await analyzer?.stop();
      await checkpointer?.stop();
      await handle.close();
    });
  },
  { name: 'db', dependencies: ['readiness'] },
);
