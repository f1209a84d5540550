import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openDatabase, type Database, type DatabaseKind } from './database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Drizzle over PGlite or PostgreSQL (same schema, same queries). */
    db: Database;
  }
}

/** Which driver `app.db` runs on; PGlite admits one process, which the outbox worker relies on. */
export const dbKinds = new WeakMap<Database, DatabaseKind>();

export const dbPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const handle = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      pgliteDir: config.PGLITE_DIR ?? path.join(config.dataDir, 'pglite'),
      schemaName: config.DATABASE_SCHEMA,
    });
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
