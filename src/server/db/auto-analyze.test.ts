import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { SPORTSBOOK_KEYS } from '#domain/sportsbooks.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard } from '#tests/support/server/history.ts';
import { trialTestConfig, waitFor } from '#tests/support/server/trials.ts';
import { AutoAnalyzer } from './auto-analyze.ts';
import { rowsOf } from './database.ts';

// Decision 181: the embedded database has no autovacuum, so the app analyzes what changed past autovacuum's threshold.

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** An app whose history holds two NBA events of 41 spread lines × every book × 2 sides (4,920 series). */
async function appWithBoard(): Promise<{ app: FastifyInstance; eventId: string }> {
  const clock = virtualClock(Date.now() - 3_600_000);
  // Rows (decision 106), so that the board's changes are in price_ticks at once: under the embedded default's blocks
  // (decision 277) they would wait a minute in the writer's open blocks.
  const app = await buildTestApp({ now: clock.now, config: trialTestConfig({ HISTORY_FORMAT: 'rows' }) });
  apps.push(app);
  await app.ready();
  app.engine.stop();
  const board = new HandBoard(app, clock, 'aa');
  let eventId = '';
  for (let n = 0; n < 2; n += 1) {
    const event = board.addEvent({ startsInMs: 5 * 3_600_000 });
    eventId = event.id;
    for (let line = -10; line <= 10; line += 0.5)
      for (const book of SPORTSBOOK_KEYS) {
        board.price(event, book, 'spread', 'home', -110, { point: line });
        board.price(event, book, 'spread', 'away', -110, { point: -line });
      }
  }
  await board.flush();
  return { app, eventId };
}

async function lastAnalyzed(app: FastifyInstance, table: string): Promise<Date | null> {
  const [row] = rowsOf<{ last_analyze: Date | null }>(
    await app.db.execute(sql`SELECT last_analyze FROM pg_stat_user_tables WHERE relname = ${table}`),
  );
  return row?.last_analyze ?? null;
}

describe('analyzing the embedded database', () => {
  it('analyzes the tables changed past the threshold, once, and the planner then walks the index for a series page', async () => {
    const { app, eventId } = await appWithBoard();
    expect(await lastAnalyzed(app, 'history_series')).toBeNull();

    // PostgreSQL reports a session's change counts to its statistics at most once a second: a pass right after the
    // writes can find nothing yet, so passes run until both tables have been analyzed.
    const analyzed: string[] = [];
    await waitFor(async () => {
      analyzed.push(...(await app.analyzeDatabase()));
      return analyzed.includes('history_series') && analyzed.some((table) => table.startsWith('price_ticks'));
    }, 'history_series and price_ticks analyzed');
    // A table with a handful of rows is below 50 + 10 %: left alone.
    expect(analyzed).not.toContain('history_events');
    expect(await lastAnalyzed(app, 'history_series')).not.toBeNull();
    // Nothing changed since: nothing to do.
    expect(await app.analyzeDatabase()).toEqual([]);

    // The statement the historical board pages with: a page of series of one event after a key, in key order.
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await app.db.execute(
        sql`EXPLAIN SELECT id FROM history_series WHERE event_id = ${eventId}
            AND (market_key, outcome, book) > ('', '', '') ORDER BY market_key, outcome, book LIMIT 40`,
      ),
    )
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('Index Scan using history_series_key');
    expect(plan).not.toContain('Sort');
  });

  it('runs by itself once started, and stops', async () => {
    const { app } = await appWithBoard();
    const analyzer = new AutoAnalyzer(app.db, app.log, 50);
    analyzer.start();
    try {
      await waitFor(
        () => lastAnalyzed(app, 'history_series'),
        'history_series analyzed by the running analyzer',
      );
    } finally {
      await analyzer.stop();
    }
  });
});
