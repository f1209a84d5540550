import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TcpProxy } from '#tests/support/server/tcp-proxy.ts';
import { openDatabase } from './database.ts';

// The PostgreSQL pool under a lost connection: a transaction whose BEGIN fails there gives its client back to the
// pool and throws nothing past its caller (the outbox and the history run transactions all the time; PostgreSQL is
// reached through a proxy this test cuts).

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `db_${process.pid}_${Date.now().toString(36)}`;
const raceSchema = `${schema}_race`;
const proxy = new TcpProxy('127.0.0.1', Number(new URL(DATABASE_URL).port || 5432));

afterAll(async () => {
  await proxy.stop();
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.query(`DROP SCHEMA IF EXISTS "${raceSchema}" CASCADE`);
  await client.end();
});

describe('PostgreSQL transactions when the connection is lost', () => {
  it('a transaction whose BEGIN fails on a lost connection rejects, and the pool still closes', async () => {
    await proxy.start();
    const url = new URL(DATABASE_URL);
    url.host = `127.0.0.1:${proxy.port}`;
    const handle = await openDatabase({
      databaseUrl: url.toString(),
      pgliteDir: 'memory://',
      schemaName: schema,
    });
    await handle.db.execute(sql`SELECT 1`);

    // BEGIN goes out on the pool's idle connection, held by the proxy; then the connection is cut under it.
    proxy.pause();
    const transaction = handle.db.transaction(async (tx) => tx.execute(sql`SELECT 1`));
    const failed = expect(transaction).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await proxy.cut();
    await failed;

    const closed = await Promise.race([
      handle.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('a client is still checked out'), 5_000)),
    ]);
    expect(closed).toBe('closed');
  });
});

describe('instances starting at once on one fresh schema', () => {
  // Two ingest instances of a new deployment start together: each creates the schema and applies the migrations.
  // CREATE SCHEMA IF NOT EXISTS is not safe against a concurrent one (a unique violation on pg_namespace), so the
  // schema is created under the migrations' advisory lock; before that, one of the instances could fail to start.
  it('all open, the schema is migrated once', async () => {
    const handles = await Promise.all(
      Array.from({ length: 8 }, () =>
        openDatabase({ databaseUrl: DATABASE_URL, pgliteDir: 'memory://', schemaName: raceSchema }),
      ),
    );
    try {
      const result = await handles[0]!.db.execute(sql`SELECT count(*)::int AS n FROM schema_migrations`);
      const versions = (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
      expect(versions).toBeGreaterThan(0);
      const distinct = await handles[0]!.db.execute(
        sql`SELECT count(DISTINCT version)::int AS n FROM schema_migrations`,
      );
      expect((distinct as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(versions);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
  });
});
