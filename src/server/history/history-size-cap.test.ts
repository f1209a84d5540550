import { describe, expect, it } from 'vitest';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard } from '#tests/support/server/history.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import { EMBEDDED_PARTS_A_DAY, tickPartitions } from './retention.ts';
import { sqlClient } from './sql-client.ts';

// HISTORY_MAX_GB on the embedded database bounds the history's disk within a day (decision 279): a day partition is
// in quarters there, and past the cap the oldest quarters are emptied, down to the current one. Before, only whole
// days before today were dropped, and a simulator's day (several GB) passed the 2 GiB default within the day.

const HOUR = 3_600_000;
const QUARTER = (24 * HOUR) / EMBEDDED_PARTS_A_DAY;
/** The cap: 768 KiB, in GiB (HISTORY_MAX_GB takes fractions). The empty partitions take about 480 KiB of it. */
const CAP_BYTES = 768 * 1024;
const POINTS = Array.from({ length: 34 }, (_, index) => index + 0.5);
const BOOKS = ['fanduel', 'draftkings', 'betmgm'];

describe('the size cap on the embedded database', () => {
  it('empties the oldest quarters of the current day past HISTORY_MAX_GB: the stored size stays bounded and the newest changes read', async () => {
    const clock = virtualClock(Date.UTC(2026, 9, 1, 0, 30));
    const app = await buildTestApp({
      now: clock.now,
      config: trialTestConfig({ HISTORY_FORMAT: 'blocks', HISTORY_MAX_GB: String(CAP_BYTES / 1024 ** 3) }),
    });
    try {
      await app.ready();
      const db = sqlClient(app.db, 'pglite');
      const board = new HandBoard(app, clock, 'cap');
      const event = board.addEvent({ startsInMs: 3 * 24 * HOUR });
      let written = 0;
      /** Ten minutes of changes on 204 series (every 10 s, each series moves): about 12,000 changes. */
      const quarterOfChanges = async () => {
        for (let step = 0; step < 60; step += 1) {
          for (const book of BOOKS)
            for (const point of POINTS) {
              board.price(event, book, 'total', 'over', step % 2 === 0 ? -110 : -105, { point });
              board.price(event, book, 'total', 'under', step % 2 === 0 ? -110 : -115, { point });
              written += 2;
            }
          clock.advance(10_000);
          if (step % 10 === 9) await board.flush();
        }
        await board.flush();
      };
      const partBytes = async () =>
        new Map((await tickPartitions(db)).map((part) => [part.name, part.bytes]));

      const series = await (async () => {
        await quarterOfChanges();
        return app.history.series(event.id, {});
      })();
      expect(series).toHaveLength(BOOKS.length * POINTS.length * 2);
      const ids = series.map((entry) => entry.id);
      const firstQuarterEnd = clock.now();
      let quartersBytes = 0;
      // Each later quarter of the day, and the next day's first: the oldest quarters go once past the cap, the current
      // one never.
      for (const hour of [6, 12, 18, 24]) {
        clock.advance(Date.UTC(2026, 9, 1, hour, 30) - clock.now());
        await quarterOfChanges();
        await app.history.maintain();
        const parts = await partBytes();
        const current = `price_blocks_p${new Date(clock.now()).toISOString().slice(0, 10).replaceAll('-', '')}_h${String(hour % 24).padStart(2, '0')}`;
        const currentBytes = parts.get(current)!;
        expect(currentBytes).toBeGreaterThan(100_000);
        quartersBytes += currentBytes;
        const stored = [...parts.values()].reduce((sum, bytes) => sum + bytes, 0);
        expect(stored).toBeLessThanOrEqual(CAP_BYTES + currentBytes);
        expect(app.history.stats().storedBytes).toBe(stored);
      }
      // What was written is well past the cap: before decision 279 nothing would have gone (all of it is the first
      // day's but the last quarter, and that day was not yet over).
      expect(quartersBytes).toBeGreaterThan(CAP_BYTES);
      expect(written).toBe(5 * 60 * ids.length);

      // The newest quarter reads whole; the first quarter of the previous day is gone.
      const latest = await app.history.ticks(ids, {
        from: clock.now() - QUARTER,
        to: clock.now(),
        limit: 100_000,
      });
      expect(latest).toHaveLength(60 * ids.length);
      const first = await app.history.ticks(ids, { from: 0, to: firstQuarterEnd, limit: 100_000 });
      expect(first).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('keeps a day partition made whole before as it is, and makes an empty one ahead again in quarters', async () => {
    const clock = virtualClock(Date.UTC(2026, 9, 1, 9));
    const app = await buildTestApp({ now: clock.now, config: trialTestConfig({ HISTORY_FORMAT: 'blocks' }) });
    try {
      await app.ready();
      const db = sqlClient(app.db, 'pglite');
      // As an embedded database made before decision 279 has them: today and a day ahead whole.
      for (const [name, from, to] of [
        ['price_blocks_p20261001', '2026-10-01', '2026-10-02'],
        ['price_blocks_p20261003', '2026-10-03', '2026-10-04'],
      ]) {
        await db.query(`DROP TABLE ${name}`);
        await db.query(
          `CREATE TABLE ${name} PARTITION OF price_blocks FOR VALUES FROM ('${from}') TO ('${to}')`,
        );
      }
      const board = new HandBoard(app, clock, 'old');
      const event = board.addEvent();
      board.price(event, 'fanduel', 'moneyline', 'home', -110);
      clock.advance(2 * 60_000);
      board.price(event, 'fanduel', 'moneyline', 'home', -120);
      await board.flush();
      await app.history.maintain();
      const kinds = new Map(
        (
          await db.query<{ name: string; kind: string }>(
            `SELECT relname AS name, relkind::text AS kind FROM pg_class WHERE relname ~ '^price_blocks_p2026100[1-4]'`,
          )
        ).map((row) => [row.name, row.kind]),
      );
      expect(kinds.get('price_blocks_p20261001')).toBe('r');
      expect(kinds.get('price_blocks_p20261003')).toBe('p');
      expect(kinds.get('price_blocks_p20261003_h18')).toBe('r');
      expect(kinds.get('price_blocks_p20261002')).toBe('p');
      const [series] = await app.history.series(event.id, {});
      const ticks = await app.history.ticks([series!.id], { from: 0, to: clock.now(), limit: 10 });
      expect(ticks.map((tick) => tick.american)).toEqual([-110, -120]);
    } finally {
      await app.close();
    }
  });
});
