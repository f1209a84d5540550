import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, ticksByOutcome } from '#tests/support/server/history.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import type { FastifyInstance } from 'fastify';
import type { SqlRunner } from './sql-client.ts';
import { OpenJournal, RECORD_BYTES, SEGMENT_MS, emptyChanges } from './open-journal.ts';

// The open blocks' journal (decision 300): on an embedded database on disk, what the writer holds in open blocks is
// journaled, so that a crash loses no committed batch. A crash is the database's folder as it is while the server
// runs (committed transactions in its write-ahead log, the open blocks only in memory and in the journal): copied
// then, and opened by a new server.

const JOURNAL = 'sharpline-open-blocks';
const dbOf = (app: FastifyInstance) => (app.history as unknown as { db: SqlRunner }).db;

describe('the open blocks journal', () => {
  it('a server started on the folder a crash left writes the changes of its open blocks; a clean stop leaves none', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-journal-')), 'db');
    const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
    const first = await buildTestApp({
      config: trialTestConfig({ PGLITE_DIR: dir, HISTORY_FORMAT: 'blocks' }),
      now: clock.now,
    });
    await first.ready();
    onTestFinished(() => first.close());
    const hand = new HandBoard(first, clock, 'oj');
    const event = hand.addEvent();
    const fed: [string, number, number][] = [];
    for (let step = 0; step < 16; step += 1) {
      const home = -110 - step * 5;
      const away = 100 + step * 5;
      hand.price(event, 'fanduel', 'moneyline', 'home', home);
      hand.price(event, 'fanduel', 'moneyline', 'away', away);
      fed.push(['home', home, clock.now()], ['away', away, clock.now()]);
      await hand.flush();
      clock.advance(20_000);
    }
    // Five minutes: the first blocks are written (a window old), the last ones still open, in the journal only.
    const [blocks] = await dbOf(first).query<{ n: number }>('SELECT count(*)::int AS n FROM price_blocks');
    expect(blocks!.n).toBeGreaterThan(0);
    expect(readdirSync(path.join(dir, JOURNAL)).length).toBeGreaterThan(0);

    const crashed = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-journal-crash-')), 'db');
    cpSync(dir, crashed, { recursive: true });

    const second = await buildTestApp({
      config: trialTestConfig({ PGLITE_DIR: crashed, HISTORY_FORMAT: 'blocks' }),
      now: clock.now,
    });
    await second.ready();
    onTestFinished(() => second.close());
    const ticks = await ticksByOutcome(second, event.id, 'fanduel', clock.now());
    for (const outcome of ['home', 'away']) {
      expect(ticks.get(outcome)!.map((tick) => [tick.american, tick.at])).toEqual(
        fed.filter(([side]) => side === outcome).map(([, american, at]) => [american, at]),
      );
    }
    // Written once: the journal is emptied, and what the new server stores holds each change once.
    const stored = await dbOf(second).query<{ index: boolean; n: number }>(
      `SELECT s.event_id <> $1 AS index, sum(get_byte(b.data, 1))::int AS n
       FROM price_blocks b JOIN history_series s ON s.id = b.series_id GROUP BY 1 ORDER BY 1`,
      [event.id],
    );
    // The event's series hold each change once; the league's index (decision 311) each millisecond with a change once.
    expect(stored).toEqual([
      { index: false, n: fed.length },
      { index: true, n: new Set(fed.map(([, , at]) => at)).size },
    ]);
    expect(readdirSync(path.join(crashed, JOURNAL))).toEqual([]);

    // A clean stop writes the open blocks and leaves no segment behind.
    await first.close();
    expect(existsSync(path.join(dir, JOURNAL)) ? readdirSync(path.join(dir, JOURNAL)) : []).toEqual([]);
  });

  it('keeps a segment until every change in it has left the open blocks, and reads back what it wrote', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-journal-unit-')), 'j');
    let now = 0;
    const journal = new OpenJournal(dir, () => now);
    const batch = emptyChanges();
    batch.seriesId.push(7, 8);
    batch.atUs.push(1_000_001, 1_500_000);
    batch.american.push(-110.5, 150);
    batch.decimal.push(1.905, 2.5);
    batch.state.push(0, 1);
    journal.append(batch);
    now += SEGMENT_MS;
    const later = emptyChanges();
    later.seriesId.push(7);
    later.atUs.push(9_000_000);
    later.american.push(-120);
    later.decimal.push(1.8333333333333333);
    later.state.push(2);
    journal.append(later);
    expect(readdirSync(dir).sort()).toEqual(['open-0.bin', 'open-1.bin']);
    journal.prune(1_500_000); // a change of the first segment is still open
    expect(readdirSync(dir).sort()).toEqual(['open-0.bin', 'open-1.bin']);
    journal.prune(1_500_001);
    expect(readdirSync(dir)).toEqual(['open-1.bin']);
    journal.close();
    const again = new OpenJournal(dir).read();
    expect(again).toEqual({
      seriesId: [7],
      atUs: [9_000_000],
      american: [-120],
      decimal: [1.8333333333333333],
      state: [2],
    });
    expect(RECORD_BYTES).toBe(29);
    journal.prune(null);
    expect(readdirSync(dir)).toEqual([]);
  });
});
