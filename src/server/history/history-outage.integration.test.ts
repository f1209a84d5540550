import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard } from '#tests/support/server/history.ts';
import { TcpProxy } from '#tests/support/server/tcp-proxy.ts';
import { trialTestConfig, useExternalStorage } from '#tests/support/server/trials.ts';

// The history writer when PostgreSQL goes away: the engine and the feed keep running, changes wait in the bounded
// queue (counted in /readyz), nothing the queue could hold is lost, and what it could not hold is dropped, counted and
// recorded as a gap once the database is back. PostgreSQL is reached through a proxy this test cuts and restores.

useExternalStorage();

const clock = virtualClock(Date.UTC(2026, 10, 22, 16));
const proxy = new TcpProxy('127.0.0.1', Number(new URL(process.env.DATABASE_URL!).port || 5432));
let app: FastifyInstance;
let board: HandBoard;

async function readiness() {
  const response = await app.inject({ method: 'GET', url: '/readyz' });
  return response.json().checks.history.details as Record<string, number | string | null>;
}

beforeAll(async () => {
  await proxy.start();
  const url = new URL(process.env.DATABASE_URL!);
  url.host = `127.0.0.1:${proxy.port}`;
  const config = trialTestConfig();
  app = await buildTestApp({
    config: { ...config, DATABASE_URL: url.toString(), HISTORY_QUEUE_MAX_CHANGES: 1_000 },
    now: clock.now,
  });
  await app.ready();
  board = new HandBoard(app, clock, 'out');
});

afterAll(async () => {
  await app.close();
  await proxy.stop();
});

describe('history writes while PostgreSQL is away', () => {
  it('queues changes during an outage and writes every one of them when the database is back', async () => {
    const event = board.addEvent();
    board.price(event, 'fanduel', 'moneyline', 'home', -110);
    await board.flush();
    await proxy.cut();
    for (let step = 1; step <= 200; step += 1) {
      clock.advance(100);
      board.price(event, 'fanduel', 'moneyline', 'home', step % 2 ? -120 : -110);
      board.price(event, 'fanduel', 'moneyline', 'away', step % 2 ? 100 : 105);
    }
    // The flush cannot finish: the batch waits in the queue, and the feed still publishes.
    expect(await app.history.flush(1_500)).toBe(false);
    const during = await readiness();
    expect(during.queuedChanges).toBe(400);
    expect(during.failingSince).not.toBeNull();
    expect(during.droppedChanges).toBe(0);
    app.engine.tick();
    expect((await app.inject({ method: 'GET', url: '/tools/arbs.json' })).statusCode).toBe(200);

    await proxy.restore();
    expect(await app.history.flush(15_000)).toBe(true);
    const after = await readiness();
    expect(after).toMatchObject({ queuedChanges: 0, droppedChanges: 0, failingSince: null });
    const series = await app.history.series(event.id);
    const ticks = await app.history.ticks(
      series.map((row) => row.id),
      { from: 0, to: clock.now(), limit: 1_000 },
    );
    expect(ticks).toHaveLength(401);
  });

  it('drops what the queue cannot hold, counts it, and records the gap once the database is back', async () => {
    const event = board.addEvent();
    board.price(event, 'caesars', 'moneyline', 'home', -105);
    await board.flush();
    await proxy.cut();
    const start = clock.now();
    // Three batches of 600 changes against a queue of 1,000: the first is held, the next two are dropped.
    for (let batch = 0; batch < 3; batch += 1) {
      for (let step = 0; step < 300; step += 1) {
        clock.advance(10);
        board.price(event, 'caesars', 'moneyline', 'home', step % 2 ? -130 : -110);
        board.price(event, 'caesars', 'moneyline', 'away', step % 2 ? 110 : 100);
      }
      expect(await app.history.flush(200)).toBe(false);
    }
    const during = await readiness();
    expect(during).toMatchObject({ queuedChanges: 600, droppedBatches: 2, droppedChanges: 1_200 });

    await proxy.restore();
    expect(await app.history.flush(15_000)).toBe(true);
    const series = await app.history.series(event.id);
    const ticks = await app.history.ticks(
      series.map((row) => row.id),
      { from: 0, to: clock.now(), limit: 5_000 },
    );
    expect(ticks).toHaveLength(601);
    const gaps = await app.history.gaps(start, clock.now());
    expect(gaps).toHaveLength(1);
    expect(gaps[0]!.droppedChanges).toBe(1_200);
    // The held batch covers the first 3 s; the gap is the two dropped batches' changes, from the first to the last.
    expect(gaps[0]!.from).toBe(start + 3_010);
    expect(gaps[0]!.to).toBe(start + 9_000);
  });
});
