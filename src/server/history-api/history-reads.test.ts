import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '#tests/support/server/app.ts';
import { embeddedStatements, sqlClient } from '../history/sql-client.ts';
import { READ_SLICE_MS, ReadGuard, StatementSize } from './history-reads.ts';

// ReadGuard paces a long history read (decision 180): its JavaScript runs in slices of at most READ_SLICE_MS before
// other work (the feed, the streams, /healthz) gets a turn of the event loop.

const request = {
  raw: { socket: { destroyed: false }, readableAborted: false },
} as unknown as FastifyRequest;
const reply = { raw: { destroyed: false } } as unknown as FastifyReply;

/** Runs the CPU for `ms` without letting the event loop turn. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Whether a callback queued for the next turn of the event loop ran while `step` was awaited. */
async function turnedDuring(step: () => Promise<void>): Promise<boolean> {
  let turned = false;
  const queued = setImmediate(() => {
    turned = true;
  });
  await step();
  clearImmediate(queued);
  return turned;
}

describe('ReadGuard: a read in slices', () => {
  it('pace() lets other work run once a slice has lasted READ_SLICE_MS, and not before', async () => {
    const guard = new ReadGuard(request, reply, () => 0);
    await guard.turn();
    expect(await turnedDuring(() => guard.pace())).toBe(false);
    busy(READ_SLICE_MS + 1);
    expect(await turnedDuring(() => guard.pace())).toBe(true);
    // The turn began a new slice.
    expect(await turnedDuring(() => guard.pace())).toBe(false);
  });

  it('turn() always lets other work run, then stops a read whose budget is spent', async () => {
    let now = 0;
    const guard = new ReadGuard(request, reply, () => now, 1_000);
    expect(await turnedDuring(() => guard.turn())).toBe(true);
    now = 1_000;
    await expect(guard.turn()).rejects.toMatchObject({ status: 503, code: 'read-budget-exceeded' });
  });
});

describe('StatementSize: statements sized to the machine (decision 182)', () => {
  it('shrinks after a statement slower than READ_SLICE_MS and grows after a faster one, at most 2× a step', () => {
    const size = new StatementSize(100, 10, 400);
    size.took(READ_SLICE_MS * 4);
    expect(size.value).toBe(50);
    size.took(READ_SLICE_MS * 1.25);
    expect(size.value).toBe(40);
    size.took(READ_SLICE_MS);
    expect(size.value).toBe(40);
    size.took(READ_SLICE_MS / 10);
    expect(size.value).toBe(80);
  });

  it('stays within its bounds however fast or slow the statements', () => {
    const size = new StatementSize(100, 10, 400);
    for (let n = 0; n < 10; n += 1) size.took(1_000);
    expect(size.value).toBe(10);
    for (let n = 0; n < 10; n += 1) size.took(0);
    expect(size.value).toBe(400);
  });

  it('run() hands the statement the current size and sizes the next one by its time', async () => {
    const size = new StatementSize(100, 10, 400);
    const asked: number[] = [];
    await size.run(async (rows) => {
      asked.push(rows);
      busy(READ_SLICE_MS * 4);
    });
    await size.run(async (rows) => {
      asked.push(rows);
    });
    expect(asked[0]).toBe(100);
    expect(asked[1]).toBeLessThanOrEqual(50);
    expect(size.value).toBeGreaterThan(asked[1]!);
  });
});

describe('StatementSize on the embedded database: sized by what a statement held the thread for (issue 59)', () => {
  it('a statement that waited behind a transaction leaves the size as it is; one that held the thread long shrinks it', async () => {
    const app = await buildTestApp();
    try {
      await app.ready();
      const db = sqlClient(app.db, 'pglite');
      const size = new StatementSize(100, 10, 400);
      // The history writer's transaction, as it holds the database between its statements.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let opened!: () => void;
      const open = new Promise<void>((resolve) => (opened = resolve));
      const writer = db.transaction(async (tx) => {
        await tx.query('SELECT 1');
        opened();
        await held;
        await tx.query('SELECT 1');
      });
      await open;
      const waited = performance.now();
      const read = size.run(async (rows) => db.query<{ n: number }>('SELECT $1::int AS n', [rows]));
      setTimeout(release, READ_SLICE_MS * 25);
      const [answer] = await read;
      await writer;
      expect(answer!.n).toBe(100);
      expect(performance.now() - waited).toBeGreaterThanOrEqual(READ_SLICE_MS * 20);
      expect(embeddedStatements.lastHeldMs).toBeNull();
      expect(size.value).toBe(100);

      // A statement that keeps the thread itself (its CPU) for far longer than a slice: the next one is smaller.
      await size.run(() => db.query('SELECT sum(g) FROM generate_series(1, 3000000) AS g'));
      expect(embeddedStatements.lastHeldMs).toBeGreaterThan(READ_SLICE_MS * 2);
      expect(size.value).toBe(50);
    } finally {
      await app.close();
    }
  });
});
