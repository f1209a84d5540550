import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, ticksByOutcome } from '#tests/support/server/history.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';

// Two ingest leaders, one after the other, writing the odds history of one PostgreSQL database (issue 19, decision
// 146): each writes under its lease's fencing token, the history_fence row decides who may. The leases themselves are
// the cluster's (leader-lease and cluster tests); here each app is told its token as the cluster plugin tells it.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// Both storage formats (decision 240): under a fence, the blocks format writes every batch's blocks.
describe.each(['rows', 'blocks'] as const)(
  'the odds history under two ingest leaders (history_fence), HISTORY_FORMAT=%s',
  (format) => {
    const tag = `fence_${format}_${process.pid}_${Date.now().toString(36)}`;
    const env = { DATABASE_URL, DATABASE_SCHEMA: tag, HISTORY_FLUSH_MS: '60000', HISTORY_FORMAT: format };
    const clock = virtualClock(Date.UTC(2026, 10, 23, 12));
    let old: FastifyInstance;
    let next: FastifyInstance;

    beforeAll(async () => {
      old = await buildTestApp({ config: trialTestConfig(env), now: clock.now });
      await old.ready();
      next = await buildTestApp({ config: trialTestConfig(env), now: clock.now });
      await next.ready();
    });

    afterAll(async () => {
      await old?.db.execute(sql.raw(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`));
      await old?.close();
      await next?.close();
    });

    const history = async (app: FastifyInstance) =>
      (await app.inject({ method: 'GET', url: '/readyz' })).json().checks.history.details;

    it("records the takeover window as a gap, skips the new leader's unchanged first sights, and refuses the deposed leader's late batch", async () => {
      old.history.lead({ token: 7, holder: 'ingest-a' });
      const oldBoard = new HandBoard(old, clock, 'fa');
      const event = oldBoard.addEvent();
      oldBoard.price(event, 'fanduel', 'moneyline', 'home', -110);
      oldBoard.price(event, 'fanduel', 'moneyline', 'away', -110);
      await oldBoard.flush();
      const leftAt = clock.now();

      // The old leader goes quiet; 4 s later the standby leads with a greater token and sees the same market, but one
      // price has moved meanwhile.
      clock.advance(4_000);
      next.history.lead({ token: 8, holder: 'ingest-b' });
      const nextBoard = new HandBoard(next, clock, 'fa');
      const same = nextBoard.addEvent({ startsInMs: event.startsAt - clock.now() });
      expect(same.id).toBe(event.id);
      nextBoard.price(same, 'fanduel', 'moneyline', 'home', -110);
      nextBoard.price(same, 'fanduel', 'moneyline', 'away', -120);
      await nextBoard.flush();

      // The old leader, partitioned rather than dead, still hands over what it gathered: refused, never written.
      clock.advance(1_000);
      oldBoard.price(event, 'fanduel', 'moneyline', 'home', +250);
      expect(await old.history.flush()).toBe(true);

      const ticks = await ticksByOutcome(next, event.id, 'fanduel', clock.now());
      const of = (outcome: string) => ticks.get(outcome)!.map((tick) => tick.american);
      expect(of('home')).toEqual([-110]);
      expect(of('away')).toEqual([-110, -120]);
      expect(await next.history.gaps(0, clock.now())).toEqual([
        { from: leftAt, to: leftAt + 4_000, droppedChanges: 0, cause: 'takeover' },
      ]);

      const oldStats = await history(old);
      expect(oldStats).toMatchObject({ fencedBatches: 1, fencedChanges: 1, queuedChanges: 0 });
      expect(oldStats.fence).toEqual({ token: 7, holder: 'ingest-a' });
      const nextStats = await history(next);
      expect(nextStats).toMatchObject({
        fencedBatches: 0,
        unchangedSkipped: 1,
        fence: { token: 8, holder: 'ingest-b' },
        takeoverGap: { ms: 4_000 },
      });

      const fence = (await next.db.execute(
        sql.raw(`SELECT token::int AS token, holder FROM "${tag}".history_fence`),
      )) as unknown as { rows: unknown[] };
      expect(fence.rows).toEqual([{ token: 8, holder: 'ingest-b' }]);
    });
  },
);
