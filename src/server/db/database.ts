import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { schema, type Schema } from './schema.ts';

// One typed Drizzle interface over both drivers: PGlite (embedded, the default) and PostgreSQL via `pg`
// (DATABASE_URL). Both run the same migrations and the same queries.

export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** PGlite on disk: max_wal_size in bytes, past which the server checkpoints (wal-checkpoint.ts, decision 279). */
  walMaxBytes?: number;
  close(): Promise<void>;
}

/** Where opening the database reports its progress (the app's logger). */
export interface DatabaseLog {
  info(fields: object, message: string): void;
}

export interface DatabaseOptions {
  /** Unset: embedded PGlite at `pgliteDir`. */
  databaseUrl?: string | undefined;
  /** A directory, or `memory://`. */
  pgliteDir: string;
  /** Schema (search_path) holding every table. */
  schemaName: string;
  poolSize?: number;
  /** Progress: a first start's initdb, and the migrations applied (each with its duration). */
  log?: DatabaseLog;
}

const elapsedMs = (since: number) => Math.round(performance.now() - since);

/** Applies pending migrations and logs them with their duration (nothing when none was pending). */
async function migrateLogged(db: Database, options: DatabaseOptions): Promise<void> {
  const started = performance.now();
  const applied = await migrate(db, options.schemaName);
  const ms = elapsedMs(started);
  if (applied.length > 0) options.log?.info({ applied, ms }, `migrations applied in ${ms} ms`);
}

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: string;
  statements: string[];
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: file.replace(/\.sql$/, ''),
      // One statement per `;` at a line end: PGlite's extended protocol takes one statement per query.
      statements: readFileSync(path.join(dir, file), 'utf8')
        .split(/;\s*$/m)
        .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
        .filter(Boolean),
    }));
}

/**
 * Takes the transaction-scoped advisory lock `name` (released at commit or rollback), waiting for whoever holds it, on
 * this connection and every other instance's. The one place a lock is taken: each name's prefix is written in one
 * module (`lockMailbox` in keys/mailbox-lock.ts, the subscription locks in billing/paid-keys.ts), which
 * src/server/architecture.test.ts checks.
 */
export async function advisoryXactLock(tx: Pick<Database, 'execute'>, name: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}

/**
 * Applies pending migrations in one transaction, serialised across instances by an advisory lock. The schema is
 * created under that lock too: CREATE SCHEMA IF NOT EXISTS run by two instances at once fails in one of them (a
 * unique violation in pg_namespace), and two instances of a new deployment do start at once.
 */
export async function migrate(db: Database, schemaName: string): Promise<string[]> {
  const migrations = loadMigrations();
  return db.transaction(async (tx) => {
    await advisoryXactLock(tx, `sharpline-migrations:${schemaName}`);
    if (schemaName !== 'public') await tx.execute(sql.raw(`CREATE SCHEMA IF NOT EXISTS "${schemaName}"`));
    await tx.execute(
      sql`CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      rowsOf<{ version: string }>(await tx.execute(sql`SELECT version FROM schema_migrations`)).map(
        (row) => row.version,
      ),
    );
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements) await tx.execute(sql.raw(statement));
      await tx.execute(sql`INSERT INTO schema_migrations (version) VALUES (${migration.version})`);
      applied.push(migration.version);
    }
    return applied;
  });
}

/** Rows of a raw `db.execute()` result (both drivers answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

// A migrated empty database, dumped once per process by the first in-memory one: later in-memory or fresh PGlite
// instances load it instead of running initdb and the migrations again (about 1 s instead of 3 s; tests build many apps).
// Kept as bytes: Node 20's `Blob.arrayBuffer()`, which PGlite calls on the dump it loads, reads a 40 MB blob in small
// chunks and joins them (about 250 ms of CPU a load), and even one copy of it costs ~120 ms. `TarBytes` hands PGlite
// the bytes themselves: it only reads them (untar, then a copy of each file into its in-memory file system).
const templates = new Map<string, Promise<ArrayBuffer>>();

/** A tar dump as PGlite's `loadDataDir` takes it (a Blob), whose `arrayBuffer()` is the bytes already held. */
class TarBytes extends Blob {
  constructor(private readonly tar: ArrayBuffer) {
    super([], { type: 'application/x-tar' });
  }

  override get size(): number {
    return this.tar.byteLength;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.tar);
  }
}

function templateKey(schemaName: string): string {
  return `${schemaName}:${loadMigrations()
    .map((migration) => migration.version)
    .join(',')}`;
}

function isFreshDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** PGlite admits one process per data directory: a pid file refuses a second server on the same DATA_DIR. */
function lockDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockFile, 'utf8').trim());
      if (pid && pid !== process.pid && processAlive(pid)) {
        throw new Error(
          `The embedded database ${dir} is in use by process ${pid}; stop it or use another DATA_DIR`,
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PostgreSQL settings of the embedded database (docs/decisions/008). PGlite starts with the server's defaults
 * (shared_buffers 128 MB), which the WebAssembly heap keeps resident once touched; this product's tables (trials,
 * keys, outbox) are a few megabytes, so a small buffer pool costs nothing measurable and saves about 60 MB. The
 * statistics target is lower than the server's default because PGlite's ANALYZE holds the event loop.
 */
export const PGLITE_SETTINGS = [
  // 8 MB (16 until decision 308): the WebAssembly memory's resident part 29 MB instead of 38 at 600 s of the idle
  // default, with the same CPU a change written. The log's buffers follow (PostgreSQL's default: 1/32 of it).
  'shared_buffers=8MB',
  'wal_buffers=256kB',
  'maintenance_work_mem=16MB',
  'temp_buffers=2MB',
  'work_mem=2MB',
  // ANALYZE samples 300 × this many rows, on the server's thread: 3,000 keeps one table's ANALYZE near 5–15 ms
  // (30,000 at the default 100 took 80 ms for 19,440 series). Decision 181.
  'default_statistics_target=10',
] as const;

/**
 * The write-ahead log's segment size a new embedded database is made with (initdb's `--wal-segsize`, in MB; the
 * server's default is 16). PGlite runs no checkpointer: wal-checkpoint.ts checkpoints once the log passes
 * max_wal_size, and a checkpoint keeps (recycles) segments up to it, so `pg_wal` stays about max_wal_size and moves in
 * steps of a segment: with 16 MB segments an idle server's data folder grew by 16 MB at a time (decision 279).
 */
export const PGLITE_WAL_SEGMENT_MB = 1;
/** max_wal_size and min_wal_size of the embedded database (decision 279; PostgreSQL's defaults are 1 GB and 80 MB). */
export const PGLITE_MAX_WAL_MB = 16;
export const PGLITE_MIN_WAL_MB = 4;

/**
 * max_wal_size and min_wal_size (MB) for a data directory whose log segments take `segmentBytes`: PostgreSQL refuses
 * to start when either is under two segments, so a directory made before decision 279 (16 MB segments) gets 32 MB.
 */
export function pgliteWalSizes(segmentBytes: number): { maxMB: number; minMB: number } {
  const twoSegmentsMB = (2 * segmentBytes) / 1024 ** 2;
  return {
    maxMB: Math.max(PGLITE_MAX_WAL_MB, twoSegmentsMB),
    minMB: Math.max(PGLITE_MIN_WAL_MB, twoSegmentsMB),
  };
}

/**
 * The segment size of an existing data directory's log (the size of a segment file in `pg_wal`: every one has the
 * size initdb chose), or that of a new one when there is none.
 */
export function walSegmentBytes(dir: string): number {
  const walDir = path.join(dir, 'pg_wal');
  if (existsSync(walDir)) {
    for (const name of readdirSync(walDir)) {
      if (/^[0-9A-F]{24}$/.test(name)) {
        const bytes = statSync(path.join(walDir, name)).size;
        if (bytes > 0) return bytes;
      }
    }
  }
  return PGLITE_WAL_SEGMENT_MB * 1024 ** 2;
}

function pgliteStartParams(wal: { maxMB: number; minMB: number }): string[] {
  return [
    ...PGlite.defaultStartParams,
    ...[...PGLITE_SETTINGS, `max_wal_size=${wal.maxMB}MB`, `min_wal_size=${wal.minMB}MB`].flatMap(
      (setting) => ['-c', setting],
    ),
  ];
}

/** initdb's arguments for a new embedded database. */
export const PGLITE_INITDB_PARAMS = [`--wal-segsize=${PGLITE_WAL_SEGMENT_MB}`];

const require = createRequire(import.meta.url);

/**
 * Creates a new on-disk PGlite cluster in a child process. initdb runs a second WebAssembly instance whose memory
 * (about 450 MB resident) the process never gives back; done here, it is returned to the system when the child exits
 * (docs/decisions/008).
 */
async function initDataDirInChild(dir: string): Promise<void> {
  const script = `const { PGlite } = require(${JSON.stringify(require.resolve('@electric-sql/pglite'))});
PGlite.create(${JSON.stringify(dir)}, { initDbStartParams: ${JSON.stringify(PGLITE_INITDB_PARAMS)} }).then((db) => db.close()).catch((error) => { console.error(error); process.exit(1); });`;
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { timeout: 120_000 }, (error, _stdout, stderr) => {
      if (error)
        reject(
          new Error(`Could not create the embedded database in ${dir}: ${stderr.trim() || error.message}`),
        );
      else resolve();
    });
  });
}

async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  const inMemory = options.pgliteDir.startsWith('memory://');
  const unlock = inMemory ? () => {} : lockDir(options.pgliteDir);
  try {
    const key = templateKey(options.schemaName);
    const template = templates.get(key);
    const fresh = inMemory || isFreshDir(options.pgliteDir);
    const dataDir = inMemory ? 'memory://' : options.pgliteDir;
    // A new database is made with PGLITE_INITDB_PARAMS (a template is a copy of one).
    const wal = pgliteWalSizes(
      inMemory ? PGLITE_WAL_SEGMENT_MB * 1024 ** 2 : walSegmentBytes(options.pgliteDir),
    );
    const startParams = pgliteStartParams(wal);
    let client: PGlite;
    if (template && fresh) {
      client = await PGlite.create(dataDir, { loadDataDir: new TarBytes(await template), startParams });
    } else {
      if (fresh && !inMemory) {
        options.log?.info(
          { dir: options.pgliteDir },
          'initialising embedded database… (first start on this data folder; up to a minute on a busy machine)',
        );
        const started = performance.now();
        await initDataDirInChild(options.pgliteDir);
        const ms = elapsedMs(started);
        options.log?.info({ dir: options.pgliteDir, ms }, `embedded database initialised in ${ms} ms`);
      }
      client = await PGlite.create(dataDir, { startParams, initDbStartParams: PGLITE_INITDB_PARAMS });
    }
    if (options.schemaName !== 'public') {
      await client.exec(
        `CREATE SCHEMA IF NOT EXISTS "${options.schemaName}"; SET search_path TO "${options.schemaName}"`,
      );
    }
    const db = drizzlePglite({ client, schema }) as unknown as Database;
    await migrateLogged(db, options);
    // Only in-memory databases (tests) keep a template: a server opens one database, and a dump is ~40 MB.
    if (!template && inMemory) {
      const dump = client.dumpDataDir('none').then((blob) => blob.arrayBuffer());
      templates.set(key, dump);
      await dump;
    }
    return {
      db,
      kind: 'pglite',
      walMaxBytes: wal.maxMB * 1024 ** 2,
      async close() {
        try {
          await client.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * `db.transaction` on PostgreSQL, on a client taken from the pool and always given back. Drizzle's own (drizzle-orm
 * 0.45, drizzle-team/drizzle-orm#6023) runs BEGIN before the try/finally that releases the client, so a BEGIN failing
 * on a lost connection kept the client checked out for good (`pool.end()` then waited for it forever, and ten such
 * losses would empty the pool); and a checked-out client has no 'error' listener there, so the connection's loss was
 * thrown as an uncaught exception that ends the process. Here the client listens while it is out, and is released
 * whatever happens; drizzle runs BEGIN, COMMIT and ROLLBACK on it as on any single client.
 */
function poolTransaction(pool: pg.Pool): Database['transaction'] {
  const sessions = new WeakMap<pg.PoolClient, Database>();
  const ignore = () => {};
  return async (work, config) => {
    const client = await pool.connect();
    client.on('error', ignore);
    try {
      let session = sessions.get(client);
      if (!session) {
        session = drizzlePg({ client, schema }) as unknown as Database;
        sessions.set(client, session);
      }
      return await session.transaction(work, config);
    } finally {
      client.off('error', ignore);
      // A client whose connection was lost is not queryable: the pool closes it rather than keep it.
      client.release();
    }
  };
}

async function openPostgres(options: DatabaseOptions & { databaseUrl: string }): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    options: `-c search_path=${options.schemaName}`,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema }) as unknown as Database;
  db.transaction = poolTransaction(pool);
  try {
    await migrateLogged(db, options);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { db, kind: 'postgres', close: () => pool.end() };
}

export function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const { databaseUrl } = options;
  return databaseUrl ? openPostgres({ ...options, databaseUrl }) : openPglite(options);
}
