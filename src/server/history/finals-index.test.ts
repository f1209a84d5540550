import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_FINAL_MS, MAX_FINALS } from '#engine/scores.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { CALIBRATION_MAX_EVENTS, CALIBRATION_WINDOW_DAYS } from '../calibration/calibration-feed.ts';
import { completedSinceSql } from './service.ts';
import type { SqlClient } from './sql-client.ts';

// Migration 0014 (decision 283): the finals of the odds history by when they arrived. The public results feed reads the
// last three days' finals and the calibration report the last 30 days', by one statement (`completedSinceSql`); on a
// history of 20,000 events over 55 days, analyzed, the planner reads both as a range of the history_events_completed
// index, in its order: no scan of the table, no sort. On PGlite here, on PostgreSQL in the integration twin.

const NOW = Date.UTC(2026, 10, 23, 12);
const EVENTS = 20_000;
let app: FastifyInstance;
let db: SqlClient;

beforeAll(async () => {
  app = await buildTestApp({ now: () => NOW });
  await app.ready();
  db = (app.history as unknown as { db: SqlClient }).db;
  // An event every 4 minutes back from NOW, each final when it ended, but every tenth (withdrawn, or no score came).
  await db.query(
    `INSERT INTO history_events
       (event_id, league, home, away, starts_at, first_seen_at, ended_at, closed_at, final_score, completed_at)
     SELECT 'ix-' || g, 'nba', '{"id":"h","name":"Home"}', '{"id":"a","name":"Away"}', t - interval '3 hours',
            t - interval '1 day', t, t - interval '3 hours',
            CASE WHEN g % 10 = 0 THEN NULL ELSE '{"full":{"home":101,"away":99}}'::jsonb END,
            CASE WHEN g % 10 = 0 THEN NULL ELSE t END
     FROM generate_series(1, ${EVENTS}) AS g,
          LATERAL (SELECT timestamptz 'epoch' + $1::int8 * interval '1 millisecond' - g * interval '4 minutes' AS t) AS x`,
    [NOW],
  );
  await db.query('ANALYZE history_events');
});

afterAll(async () => {
  await app.close();
});

async function plan(since: number, limit: number): Promise<string> {
  const rows = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN ${completedSinceSql('event_id, final_score, completed_at')}`,
    [since, limit],
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

describe('history_events_completed (migration 0014)', () => {
  it('the results feed reads its three days of finals by the index, without a scan of the table', async () => {
    // Every final of the window is read (MAX_FINALS is more than it holds): a bitmap read of the index, then the
    // window's few hundred rows sorted, or a walk of the index in its order; either way no sequential scan.
    const text = await plan(NOW - RECENT_FINAL_MS, MAX_FINALS);
    expect(text).toMatch(/(Bitmap )?Index Scan (using|on) history_events_completed/);
    expect(text).not.toMatch(/Seq Scan/);
  });

  it('the calibration report reads its latest finals as a walk of the index in its order: no scan, no sort', async () => {
    const text = await plan(NOW - CALIBRATION_WINDOW_DAYS * 86_400_000, CALIBRATION_MAX_EVENTS);
    expect(text).toMatch(/Index Scan using history_events_completed/);
    expect(text).not.toMatch(/Seq Scan/);
    expect(text).not.toMatch(/Sort/);
  });

  it('and answers the same finals as before: those of the window, latest first, none without a score', async () => {
    const finals = await app.history.finalsSince(NOW - RECENT_FINAL_MS, MAX_FINALS);
    // 3 days of one event every 4 minutes (1,080, the first at NOW itself), less every tenth.
    expect(finals).toHaveLength(972);
    expect(finals[0]).toMatchObject({ id: 'ix-1', completedAt: NOW - 4 * 60_000 });
    expect(finals.every((final, i) => i === 0 || final.completedAt < finals[i - 1]!.completedAt)).toBe(true);
    const events = await app.history.completedSince(NOW - CALIBRATION_WINDOW_DAYS * 86_400_000, 100);
    expect(events.map((event) => event.id)).toEqual(finals.slice(0, 100).map((final) => final.id));
  });
});
