import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import type { HistoryCloseReport } from './writer.ts';

// The odds history at shutdown (decision 306), on an embedded database on disk: the app is closed as the server closes
// it on SIGINT/SIGTERM, then the same data folder is opened by a new app, which reads what was written. A close must
// end (a hung one fails the test by its timeout), write every change whose batch was written (the open blocks), and,
// when it gives up a backlog, record exactly what it gave up as a gap.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function pgliteDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sharpline-shutdown-'));
  dirs.push(dir);
  return path.join(dir, 'pglite');
}

const clock = virtualClock(Date.UTC(2026, 10, 22, 16));

function open(dir: string): Promise<FastifyInstance> {
  return buildTestApp({
    config: { ...trialTestConfig(), PGLITE_DIR: dir, HISTORY_FORMAT: 'blocks' },
    now: clock.now,
  });
}

/** `count` changes on the event's moneyline (two series), 100 ms apart; a multiple of 4, so each call ends on the
 * same prices and the next call's first ones are changes. */
function changes(board: HandBoard, event: BoardEvent, count: number, book = 'fanduel'): void {
  for (let step = 0; step < count / 2; step += 1) {
    clock.advance(100);
    board.price(event, book, 'moneyline', 'home', step % 2 ? -120 : -110);
    board.price(event, book, 'moneyline', 'away', step % 2 ? 100 : 105);
  }
}

/** What the reopened database holds of the event: its ticks, and the gaps recorded since `from`. */
async function stored(dir: string, eventId: string, from: number) {
  const app = await open(dir);
  try {
    await app.ready();
    const series = await app.history.series(eventId);
    const ticks = await app.history.ticks(
      series.map((row) => row.id),
      { from: 0, to: clock.now() + 1, limit: 10_000 },
    );
    const gaps = await app.history.gaps(from, clock.now() + 1);
    return { ticks: ticks.length, gaps: gaps.map((gap) => gap.droppedChanges) };
  } finally {
    await app.close();
  }
}

const writerOf = (app: FastifyInstance) =>
  (app.history as unknown as { writer: { close(budgetMs: number): Promise<HistoryCloseReport> } }).writer;

/** An app on a new on-disk PGlite folder, ready, with one event on a hand board named `name`. */
async function startWithEvent(name: string) {
  const dir = pgliteDir();
  const app = await open(dir);
  await app.ready();
  const board = new HandBoard(app, clock, name);
  return { dir, app, board, event: board.addEvent() };
}

describe('the odds history at shutdown', () => {
  it('writes a backlog of batches and every open block, the last batch’s included', async () => {
    const { dir, app, board, event } = await startWithEvent('sd1');
    changes(board, event, 40);
    await board.flush();
    // Three batches queued behind one another: the close finds a backlog. Before decision 306 the seal was spent on
    // the first batch written after it was asked for, and the later batches' changes stayed in memory, lost.
    for (let batch = 0; batch < 3; batch += 1) {
      changes(board, event, 40);
      expect(await app.history.flush(0)).toBe(false);
    }
    changes(board, event, 20); // still in the recorder: the close cuts it
    await app.close();

    expect(await stored(dir, event.id, 0)).toEqual({ ticks: 40 + 3 * 40 + 20, gaps: [] });
  });

  it('past its budget gives up the backlog as a gap of its exact size and still writes the open blocks', async () => {
    const { dir, app, board, event } = await startWithEvent('sd2');
    changes(board, event, 60);
    await board.flush(); // written: in the open blocks, not yet in price_blocks
    const from = clock.now();
    for (let batch = 0; batch < 2; batch += 1) {
      changes(board, event, 40);
      expect(await app.history.flush(0)).toBe(false);
    }
    // A budget of nothing: the batch under way rolls back at its next statement, the queue is given up.
    const report = await writerOf(app).close(0);
    expect(report).toMatchObject({
      drained: false,
      lostBatches: 2,
      lostChanges: 80,
      sealed: true,
      error: null,
    });
    expect(app.history.stats()).toMatchObject({ queuedChanges: 0, droppedChanges: 80 });
    await app.close();

    expect(await stored(dir, event.id, from)).toEqual({ ticks: 60, gaps: [80] });
  });
});
