import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { openDatabase, type Database, type DatabaseHandle, type DatabaseKind } from './database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Drizzle over PGlite or PostgreSQL (same schema, same queries). */
    db: Database;
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

export interface DbPluginOptions {
  /** The open database (openAppDatabase); the plugin closes it with the app. */
  handle: DatabaseHandle;
}

export const dbPlugin = fp(
  async (app: FastifyInstance, { handle }: DbPluginOptions) => {
    dbKinds.set(handle.db, handle.kind);
    app.decorate('db', handle.db);
    app.readiness.register('database', async () => {
      await handle.db.execute(sql`SELECT 1`);
      return { ok: true, details: { driver: handle.kind } };
    });
    app.addHook('onClose', async () => {
      await handle.close();
    });
  },
  { name: 'db', dependencies: ['readiness'] },
);
