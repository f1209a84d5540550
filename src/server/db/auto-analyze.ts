import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Poller } from '../lib/poller.ts';
import { rowsOf, type Database } from './database.ts';

// PostgreSQL's autovacuum daemon keeps the planner's statistics current; PGlite runs no such daemon, so on the embedded
// database a table was never analyzed. The planner then took a 2,430-series event for a 14-row table and read a page
// of 40 series by fetching and sorting all of them (5–11 ms a statement on the server's thread) instead of walking
// the index (0.1 ms). This does what autovacuum's analyze does, on PGlite only: every minute, each table changed by
// more than 50 rows + 10 % since its last ANALYZE is analyzed, one table a statement, each on a turn of its own
// (decision 181).

/** How often the tables' change counts are read (autovacuum's own default nap). */
export const AUTO_ANALYZE_INTERVAL_MS = 60_000;

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults. */
const THRESHOLD = 50;
const SCALE_FACTOR = 0.1;

export class AutoAnalyzer {
  private readonly poller: Poller;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    intervalMs = AUTO_ANALYZE_INTERVAL_MS,
  ) {
    this.poller = new Poller(
      async () => {
        await this.runOnce();
      },
      intervalMs,
      (error) => this.log.warn({ error: (error as Error).message }, 'analyzing the embedded database failed'),
    );
  }

  /** Analyzes what needs it now, then every interval. */
  start(): void {
    this.poller.start();
  }

  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** Analyzes every table of this schema changed past the threshold since its last ANALYZE; returns their names. */
  async runOnce(): Promise<string[]> {
    const due = rowsOf<{ schema: string; table: string }>(
      await this.db.execute(sql`
        SELECT schemaname AS schema, relname AS "table" FROM pg_stat_user_tables
        WHERE schemaname = ANY (current_schemas(false))
          AND n_mod_since_analyze > ${sql.raw(String(THRESHOLD))} + ${sql.raw(String(SCALE_FACTOR))} * n_live_tup
        ORDER BY n_mod_since_analyze DESC`),
    );
    const analyzed: string[] = [];
    for (const { schema, table } of due) {
      if (!this.poller.active && analyzed.length > 0) break;
      // Each ANALYZE runs alone on the thread: timers and requests run between them.
      await new Promise((resolve) => setImmediate(resolve));
      await this.db.execute(sql`ANALYZE ${sql.identifier(schema)}.${sql.identifier(table)}`);
      analyzed.push(table);
    }
    if (analyzed.length > 0) this.log.debug({ tables: analyzed }, 'analyzed the embedded database');
    return analyzed;
  }
}
