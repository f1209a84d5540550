import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database, DatabaseKind } from '../db/database.ts';

// Raw parameterised SQL over either driver, for the history's bulk statements: arrays bind as one parameter each
// (`unnest($1::int4[], …)`), which Drizzle's sql template would expand into one parameter per element.

export interface SqlRunner {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface SqlClient extends SqlRunner {
  kind: DatabaseKind;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

/**
 * The embedded database's statements as they end (issue 59): how many have run on this thread, and what the last one
 * held the thread for (ms: its CPU time, or its wall time when shorter; null when the event loop turned while it
 * waited for another statement or transaction, so its wall time is mostly waiting). A read sizes its next statement by
 * what its last one cost (`StatementSize`); its wall time on a loaded machine, or behind the history writer's
 * transaction, counts time the statement did not hold the thread.
 */
export const embeddedStatements: { count: number; lastHeldMs: number | null; lastEndedAt: number } = {
  count: 0,
  lastHeldMs: null,
  lastEndedAt: 0,
};

export function sqlClient(db: Database, kind: DatabaseKind): SqlClient {
  const client = (db as unknown as { $client: unknown }).$client;
  if (kind === 'pglite') {
    const lite = client as PGlite;
    // PGlite runs each statement synchronously on this thread, and awaiting it yields only to microtasks: a
    // transaction of several bulk statements would hold the event loop for all of them at once. Each statement
    // therefore starts on a turn of its own, so timers (stream releases) run between statements (issue 17).
    const runner = (target: PGlite | Transaction): SqlRunner => ({
      async query<T>(text: string, params?: unknown[]) {
        await new Promise((resolve) => setImmediate(resolve));
        // What the statement held the thread for (embeddedStatements): an immediate that runs means the loop turned
        // while the statement waited (behind a transaction or another statement), so its time is not its own.
        let turned = false;
        const sentinel = setImmediate(() => {
          turned = true;
        });
        const wall = performance.now();
        const cpu = process.cpuUsage();
        try {
          const rows = (await target.query<T>(text, params)).rows;
          const used = process.cpuUsage(cpu);
          const ended = performance.now();
          embeddedStatements.count += 1;
          embeddedStatements.lastHeldMs = turned
            ? null
            : Math.min(ended - wall, (used.user + used.system) / 1000);
          embeddedStatements.lastEndedAt = ended;
          return rows;
        } finally {
          clearImmediate(sentinel);
        }
      },
    });
    return {
      kind,
      ...runner(lite),
      transaction: (work) => lite.transaction((tx) => work(runner(tx))),
    };
  }
  const pool = client as pg.Pool;
  return {
    kind,
    async query<T>(text: string, params?: unknown[]) {
      return (await pool.query(text, params)).rows as T[];
    },
    async transaction(work) {
      const connection = await pool.connect();
      // A connection lost while checked out emits 'error' on the client (the pool only listens on idle ones):
      // without a listener that would end the process; the failing query rejects and the writer retries.
      let broken = false;
      const onError = () => {
        broken = true;
      };
      connection.on('error', onError);
      try {
        await connection.query('BEGIN');
        const result = await work({
          async query<T>(text: string, params?: unknown[]) {
            return (await connection.query(text, params)).rows as T[];
          },
        });
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await connection.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw error;
      } finally {
        connection.off('error', onError);
        connection.release(broken);
      }
    },
  };
}
