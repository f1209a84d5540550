import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard } from '#tests/support/server/history.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import { STORED_BYTES_MAX_AGE_MS } from './plugin.ts';

// /readyz's `storedBytes` (issue 59): measured again once older than STORED_BYTES_MAX_AGE_MS when /readyz is read,
// not only at the 10-minute upkeep, so that it follows the ticks as they are written.

const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let board: HandBoard;

interface HistoryDetails {
  storedBytes: number | null;
  storedBytesAt: string | null;
  writtenChanges: number;
}

async function history(): Promise<HistoryDetails> {
  const answer = await app.inject({ method: 'GET', url: '/readyz' });
  return (answer.json() as { checks: { history: { details: HistoryDetails } } }).checks.history.details;
}

beforeAll(async () => {
  // Rows: each batch's ticks are on disk once written (blocks wait in memory up to a minute, decision 240).
  app = await buildTestApp({ now: clock.now, config: trialTestConfig({ HISTORY_FORMAT: 'rows' }) });
  await app.ready();
  board = new HandBoard(app, clock, 'sz');
});

afterAll(async () => {
  await app.close();
});

describe('/readyz storedBytes', () => {
  it('follows the written ticks within STORED_BYTES_MAX_AGE_MS, says when it was measured, and is not measured again sooner', async () => {
    const before = await history();
    expect(before.storedBytes).toBeGreaterThan(0);
    expect(Date.parse(before.storedBytesAt!)).toBeLessThanOrEqual(clock.now());

    // Enough ticks to fill pages of today's partition and its index.
    const event = board.addEvent({ startsInMs: 3_600_000 });
    for (let round = 0; round < 4; round += 1) {
      for (let point = 0; point < 400; point += 1) {
        board.price(event, 'fanduel', 'total', 'over', -110 - round, { point: point + 0.5 });
        board.price(event, 'fanduel', 'total', 'under', -110 + round, { point: point + 0.5 });
      }
      clock.advance(1_000);
    }
    await board.flush();

    // Within the age limit: the same measurement (nothing measured for each request).
    const soon = await history();
    expect(soon.writtenChanges).toBeGreaterThanOrEqual(before.writtenChanges + 3_200);
    if (clock.now() - Date.parse(before.storedBytesAt!) < STORED_BYTES_MAX_AGE_MS) {
      expect(soon.storedBytesAt).toBe(before.storedBytesAt);
      expect(soon.storedBytes).toBe(before.storedBytes);
    }

    clock.advance(STORED_BYTES_MAX_AGE_MS);
    const after = await history();
    expect(after.storedBytesAt).toBe(new Date(clock.now()).toISOString());
    // 3,200 ticks take well over a page of heap and of index.
    expect(after.storedBytes! - before.storedBytes!).toBeGreaterThan(3 * 8192);
  });
});
