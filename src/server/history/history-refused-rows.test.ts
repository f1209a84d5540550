import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import { HandBoard, ticksByOutcome } from '#tests/support/server/history.ts';
import { SPORTSBOOK_KEYS } from '#domain/sportsbooks.ts';
import type { SqlClient, SqlRunner } from './sql-client.ts';

// The history writer against rows the database refuses (issue 31, decision 148): a batch that fails for a data reason
// (SQLSTATE class 22 or 23) is split until the refused rows are found; they are skipped and counted, the rest of the
// batch is written, and the writer moves on. Any other failure is retried as before, and /readyz turns not ready once
// writes have failed for over 30 s. PGlite here; PostgreSQL in the integration twin.

const clock = virtualClock(Date.UTC(2026, 10, 22, 14));
let app: FastifyInstance;
let board: HandBoard;

async function readiness() {
  const response = await app.inject({ method: 'GET', url: '/readyz' });
  const body = response.json() as {
    checks: { history: { ok: boolean; details: Record<string, number | string | null> } };
  };
  return { status: response.statusCode, history: body.checks.history };
}

beforeAll(async () => {
  // Rows: the refusals come from constraints on price_ticks (the blocks format refuses what a block cannot hold).
  app = await buildTestApp({ now: clock.now, config: trialTestConfig({ HISTORY_FORMAT: 'rows' }) });
  await app.ready();
  board = new HandBoard(app, clock, 'rr');
});

afterAll(async () => {
  await app.close();
});

describe('history rows the database refuses', () => {
  it('skips and counts them, writes the rest of their batch, and moves on', async () => {
    const good = board.addEvent();
    const poisoned = board.addEvent();
    board.price(good, 'fanduel', 'moneyline', 'away', 105);
    await board.flush();
    const before = (await readiness()).history.details;

    // Two rows the database refuses in one batch, past the intake (which would have cleaned the first): the attack
    // report's team name with a NUL (jsonb: "unsupported Unicode escape sequence", 22P05), and a tick that breaks a
    // constraint (23514).
    const event = app.engine.store.event(poisoned.id)!;
    app.engine.store.upsertEvent({ ...event, home: { ...event.home, name: 'Utah Jazz\u0000' } });
    await app.db.execute(sql`ALTER TABLE price_ticks ADD CONSTRAINT refuse_777 CHECK (american <> 777)`);
    try {
      clock.advance(1_000);
      board.price(good, 'fanduel', 'moneyline', 'home', -110);
      board.price(good, 'fanduel', 'moneyline', 'away', 777);
      board.price(poisoned, 'draftkings', 'moneyline', 'home', -120);
      board.price(poisoned, 'draftkings', 'moneyline', 'away', 100);
      expect(await app.history.flush(5_000)).toBe(true);
    } finally {
      await app.db.execute(sql`ALTER TABLE price_ticks DROP CONSTRAINT refuse_777`);
    }

    const after = (await readiness()).history.details;
    expect(after).toMatchObject({ refusedRows: 2, queuedChanges: 0, failingSince: null });
    expect(Number(after.writtenChanges) - Number(before.writtenChanges)).toBe(3);
    // The good rows of the batch are written: the other ticks, the poisoned event's new series.
    const goodTicks = await ticksByOutcome(app, good.id, 'fanduel', clock.now());
    expect(goodTicks.get('home')!.map((tick) => tick.american)).toEqual([-110]);
    expect(goodTicks.get('away')!.map((tick) => tick.american)).toEqual([105]);
    const poisonedTicks = await ticksByOutcome(app, poisoned.id, 'draftkings', clock.now());
    expect(poisonedTicks.get('home')!.map((tick) => tick.american)).toEqual([-120]);
    expect(poisonedTicks.get('away')!.map((tick) => tick.american)).toEqual([100]);
    // The refused event row: the event keeps the row written before.
    expect((await app.history.event(poisoned.id))!.home.name).toBe(event.home.name);

    // The writer moves on: the next batch is written whole.
    clock.advance(1_000);
    board.price(good, 'fanduel', 'moneyline', 'away', 120);
    await board.flush();
    const next = await ticksByOutcome(app, good.id, 'fanduel', clock.now());
    expect(next.get('away')!.map((tick) => tick.american)).toEqual([105, 120]);
    expect((await readiness()).history.details).toMatchObject({ refusedRows: 2, failingSince: null });
  });

  it('keeps what a split batch has not written yet when another failure interrupts it, and writes nothing twice', async () => {
    const event = board.addEvent();
    const books = SPORTSBOOK_KEYS.slice(0, 8);
    for (const book of books) board.price(event, book, 'moneyline', 'home', -110);
    await board.flush();
    const before = (await readiness()).history.details;

    // Eight changes, the seventh refused. The whole batch fails (1), its first half is written (2), and the connection
    // fails on the second half (3): the second half waits for the retry, then is split in turn.
    await app.db.execute(sql`ALTER TABLE price_ticks ADD CONSTRAINT refuse_777 CHECK (american <> 777)`);
    const db = (app.history as unknown as { db: SqlClient }).db;
    const transaction = db.transaction;
    let calls = 0;
    db.transaction = <T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> => {
      calls += 1;
      if (calls === 3) return Promise.reject(new Error('Connection terminated unexpectedly'));
      return transaction.call(db, work) as Promise<T>;
    };
    try {
      clock.advance(1_000);
      books.forEach((book, index) => board.price(event, book, 'moneyline', 'home', index === 6 ? 777 : -120));
      expect(await app.history.flush(5_000)).toBe(true);
    } finally {
      db.transaction = transaction;
      await app.db.execute(sql`ALTER TABLE price_ticks DROP CONSTRAINT refuse_777`);
    }

    expect(calls).toBeGreaterThan(3);
    const after = (await readiness()).history.details;
    expect(after).toMatchObject({ queuedChanges: 0, failingSince: null });
    expect(Number(after.refusedRows) - Number(before.refusedRows)).toBe(1);
    expect(Number(after.writtenChanges) - Number(before.writtenChanges)).toBe(7);
    for (const [index, book] of books.entries()) {
      const ticks = await ticksByOutcome(app, event.id, book, clock.now());
      expect(ticks.get('home')!.map((tick) => tick.american)).toEqual(index === 6 ? [-110] : [-110, -120]);
    }
  });

  it('counts each refused row once, even in a part of the batch that is refused again and split', async () => {
    const event = board.addEvent();
    board.price(event, 'fanduel', 'moneyline', 'home', -110);
    await board.flush();
    const before = (await readiness()).history.details;

    // A series the database refuses (and its tick), then a batch with its next tick and a refused tick of another
    // series: that batch fails whole, and its halves are written (the refused series' tick) or skipped (777).
    await app.db.execute(
      sql`ALTER TABLE history_series ADD CONSTRAINT refuse_book CHECK (book <> 'hardrock')`,
    );
    await app.db.execute(sql`ALTER TABLE price_ticks ADD CONSTRAINT refuse_777 CHECK (american <> 777)`);
    try {
      clock.advance(1_000);
      board.price(event, 'hardrock', 'moneyline', 'home', -105);
      expect(await app.history.flush(5_000)).toBe(true);
      clock.advance(1_000);
      board.price(event, 'hardrock', 'moneyline', 'home', -115);
      board.price(event, 'fanduel', 'moneyline', 'home', 777);
      expect(await app.history.flush(5_000)).toBe(true);
    } finally {
      await app.db.execute(sql`ALTER TABLE price_ticks DROP CONSTRAINT refuse_777`);
      await app.db.execute(sql`ALTER TABLE history_series DROP CONSTRAINT refuse_book`);
    }

    // The series, its two ticks, the 777 tick: four rows, each counted once.
    const after = (await readiness()).history.details;
    expect(Number(after.refusedRows) - Number(before.refusedRows)).toBe(4);
    expect(after).toMatchObject({ queuedChanges: 0, failingSince: null });
    const ticks = await ticksByOutcome(app, event.id, 'fanduel', clock.now());
    expect(ticks.get('home')!.map((tick) => tick.american)).toEqual([-110]);
    expect(await app.history.series(event.id, { book: 'hardrock' })).toEqual([]);
  });

  it('retries any other failure, and /readyz is not ready once writes have failed for over 30 s', async () => {
    const event = board.addEvent();
    await board.flush();
    const refusedBefore = (await readiness()).history.details.refusedRows;
    // A missing table (42P01) is no fault of the rows: the batch waits and is retried, never split or skipped.
    await app.db.execute(sql`ALTER TABLE price_ticks RENAME TO price_ticks_away`);
    try {
      board.price(event, 'caesars', 'moneyline', 'home', -105);
      expect(await app.history.flush(300)).toBe(false);
      const failing = await readiness();
      expect(failing.status).toBe(200);
      expect(failing.history.ok).toBe(true);
      expect(failing.history.details.failingSince).toBe(new Date(clock.now()).toISOString());

      clock.advance(30_000);
      expect((await readiness()).status).toBe(200);
      clock.advance(1);
      const late = await readiness();
      expect(late.status).toBe(503);
      expect(late.history.ok).toBe(false);
      expect(late.history.details).toMatchObject({ queuedChanges: 1, refusedRows: refusedBefore });
    } finally {
      await app.db.execute(sql`ALTER TABLE price_ticks_away RENAME TO price_ticks`);
    }

    await board.flush();
    const resumed = await readiness();
    expect(resumed.status).toBe(200);
    expect(resumed.history).toMatchObject({
      ok: true,
      details: { failingSince: null, refusedRows: refusedBefore },
    });
    const ticks = await ticksByOutcome(app, event.id, 'caesars', clock.now());
    expect(ticks.get('home')!.map((tick) => tick.american)).toEqual([-105]);
  });

  it('under the leader fence, a split batch interrupted after its first part records in history_fence only what it wrote', async () => {
    // ROLE=ingest: batches are written under a fence (decision 146), whose row tells the next leader where the history
    // it must not assume written (its takeover gap) begins.
    app.history.lead({ token: 1, holder: 'ingest-rr' });
    const event = board.addEvent();
    const books = SPORTSBOOK_KEYS.slice(0, 8);
    for (const book of books) board.price(event, book, 'moneyline', 'away', 110);
    await board.flush();
    const fenceUpTo = async () => {
      const result = (await app.db.execute(
        sql`SELECT (extract(epoch from up_to) * 1000)::int8::text AS up_to FROM history_fence`,
      )) as unknown as { rows: { up_to: string }[] };
      return Number(result.rows[0]!.up_to);
    };

    // Eight changes 100 ms apart, the seventh refused: the batch fails (1), its first half is written (2), and the
    // connection is lost from then on: the second half waits.
    await app.db.execute(sql`ALTER TABLE price_ticks ADD CONSTRAINT refuse_777 CHECK (american <> 777)`);
    const db = (app.history as unknown as { db: SqlClient }).db;
    const transaction = db.transaction;
    let calls = 0;
    db.transaction = <T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> => {
      calls += 1;
      if (calls >= 3) return Promise.reject(new Error('Connection terminated unexpectedly'));
      return transaction.call(db, work) as Promise<T>;
    };
    const times: number[] = [];
    try {
      books.forEach((book, index) => {
        clock.advance(100);
        times.push(clock.now());
        board.price(event, book, 'moneyline', 'away', index === 6 ? 777 : 120);
      });
      clock.advance(100);
      expect(await app.history.flush(300)).toBe(false);
      // Written: the first four changes. The fence row says so: up to the fifth, not up to the whole batch's end.
      expect(await fenceUpTo()).toBe(times[4]);
    } finally {
      db.transaction = transaction;
    }
    expect(await app.history.flush(5_000)).toBe(true);
    await app.db.execute(sql`ALTER TABLE price_ticks DROP CONSTRAINT refuse_777`);
    expect(await fenceUpTo()).toBe(clock.now());
    for (const [index, book] of books.entries()) {
      const ticks = await ticksByOutcome(app, event.id, book, clock.now());
      expect(ticks.get('away')!.map((tick) => tick.american)).toEqual(index === 6 ? [110] : [110, 120]);
    }
  });
});
