import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delayMs, PLANS } from '#domain/plans.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey, openRawStream } from '#tests/support/server/odds-api.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';

// Delayed plans read the board as it was exactly their delay ago (within 2 s), for as long as the server runs. The
// market here changes on every publish (250 ms), as a busy real market does: the attack that found stale arbs saw Pro
// keys served one arb set for ten minutes, then sets 89–153 s old.

const clock = virtualClock();
const STEP_MS = 250;
const RUN_MS = 15 * 60_000;
/** HTTP reads every 5 s keep Starter's 30 requests a minute; the engine's answer is checked at every step. */
const CHECK_EVERY_MS = 5_000;
/** How far behind `now − delay` a delayed answer may be. */
const TOLERANCE_MS = 2_000;
/** A stream is opened, and its snapshot read, every 3 minutes. */
const STREAM_EVERY_MS = 180_000;

let app: FastifyInstance;
const keys: Record<'starter' | 'pro', string> = { starter: '', pro: '' };

beforeAll(async () => {
  // The stream requests come from this process's own client: on a loaded CI machine a stall between the server
  // accepting the connection and the client writing its request outlasted the 10 s header timeout (a 408). The
  // timeouts are not what this file tests, so they are given room.
  app = await buildTestApp({
    now: clock.now,
    config: trialTestConfig({ HEADERS_TIMEOUT_MS: '120000', REQUEST_TIMEOUT_MS: '120000' }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  app.engine.stop();
  keys.starter = await createKey(app, 'starter');
  keys.pro = await createKey(app, 'pro');
  app.engine.ingest({
    kind: 'event',
    sourceEventId: 'busy',
    league: 'nba',
    home: { name: 'Denver Nuggets', abbreviation: 'DEN' },
    away: { name: 'Utah Jazz', abbreviation: 'UTA' },
    startsAt: clock.now() + RUN_MS + 3_600_000,
    live: false,
  });
});

afterAll(async () => {
  await app.close();
});

/** The arbs of the snapshot event a new stream of this key starts with. */
async function streamSnapshotArbs(key: string): Promise<{ arb: { sides: { price: string }[] } }[]> {
  const { port } = app.server.address() as { port: number };
  const stream = await openRawStream(`http://127.0.0.1:${port}/v1/stream?types=arb`, { 'x-api-key': key });
  expect(stream.status).toBe(200);
  while (!/event: snapshot\ndata: .*\n/.test(stream.text()))
    await new Promise((resolve) => setTimeout(resolve, 5));
  stream.abort();
  await stream.ended;
  return JSON.parse(/event: snapshot\ndata: (.*)\n/.exec(stream.text())![1]!).arbs;
}

/** Both sides priced again; the away price walks through 150…169 so that the arb's edge changes every step. */
function move(step: number): void {
  for (const [book, outcome, american] of [
    ['fanduel', 'away', 150 + (step % 20)],
    ['draftkings', 'home', -130],
  ] as const) {
    app.engine.ingest({ kind: 'price', sourceEventId: 'busy', book, market: 'moneyline', outcome, american });
  }
}

interface ArbsBody {
  generated_at: number;
  realtime_generated_at: number;
  delay_seconds: number;
  arbs: { edge_pct: number; sides: { price: string }[] }[];
}

describe('delayed reads under a market that changes every publish', () => {
  it('a Pro and a Starter key get, for 15 minutes, the arbs, odds and stream snapshots as they were their delay ago, within 2 s', async () => {
    /** Every published snapshot: when, and the away side's price text of its one arb. */
    const published: { at: number; away: string }[] = [];
    let checks = 0;
    let steps = 0;
    let streams = 0;
    for (let elapsed = 0; elapsed <= RUN_MS; elapsed += STEP_MS) {
      move(elapsed / STEP_MS);
      const snapshot = app.engine.tick();
      if (snapshot) {
        const away = snapshot.arbs[0]?.sides.find((side) => side.sportsbook === 'fanduel')?.price;
        published.push({ at: snapshot.at, away: away ?? '' });
      }
      clock.advance(STEP_MS);
      for (const plan of ['pro', 'starter'] as const) {
        const delay = delayMs(PLANS.find((item) => item.id === plan)!);
        const horizon = clock.now() - delay;
        if (horizon < published[0]!.at + TOLERANCE_MS) continue;
        const past = app.engine.snapshotAt(horizon)!;
        expect(past.at, `${plan} at +${elapsed} ms`).toBeLessThanOrEqual(horizon);
        expect(past.at, `${plan} at +${elapsed} ms`).toBeGreaterThanOrEqual(horizon - TOLERANCE_MS);
        steps += 1;
        if (elapsed % CHECK_EVERY_MS !== 0) continue;
        const arbs = await app.inject({ url: '/v1/arbs', headers: { 'x-api-key': keys[plan] } });
        expect(arbs.statusCode).toBe(200);
        const body = arbs.json() as ArbsBody;
        expect(body.delay_seconds).toBe(delay / 1000);
        // generated_at is in whole seconds: the snapshot was built in [horizon − 2 s, horizon].
        expect(body.generated_at, `${plan} at +${elapsed} ms`).toBeLessThanOrEqual(
          Math.floor(horizon / 1000),
        );
        expect(body.generated_at, `${plan} at +${elapsed} ms`).toBeGreaterThanOrEqual(
          Math.floor((horizon - TOLERANCE_MS) / 1000),
        );
        // The real-time part (arbs the free page shows) is the newest snapshot's, and the answer says when that was.
        expect(body.realtime_generated_at, `${plan} at +${elapsed} ms`).toBe(
          Math.floor(published.at(-1)!.at / 1000),
        );
        expect(body.realtime_generated_at - body.generated_at).toBeGreaterThanOrEqual(delay / 1000 - 1);
        // …and its arb is one that real time showed in that window.
        const shown = published.filter((item) => item.at <= horizon && item.at >= horizon - TOLERANCE_MS);
        const newestBefore = published.findLast((item) => item.at <= horizon)!;
        const candidates = new Set([...shown, newestBefore].map((item) => item.away));
        expect(body.arbs).toHaveLength(1);
        const away = body.arbs[0]!.sides.find((side) => side.price.startsWith('+'))!.price;
        expect(candidates, `${plan} at +${elapsed} ms`).toContain(away);

        const odds = await app.inject({ url: '/v1/odds?league=nba', headers: { 'x-api-key': keys[plan] } });
        expect(odds.statusCode).toBe(200);
        const updated = (
          odds.json() as { events: { markets: { outcomes: { prices: { updated_at: string }[] }[] }[] }[] }
        ).events.flatMap((event) =>
          event.markets.flatMap((market) =>
            market.outcomes.flatMap((outcome) => outcome.prices.map((price) => Date.parse(price.updated_at))),
          ),
        );
        expect(updated.length).toBeGreaterThan(0);
        expect(Math.max(...updated)).toBeLessThanOrEqual(horizon);
        expect(Math.max(...updated)).toBeGreaterThanOrEqual(horizon - TOLERANCE_MS);
        checks += 1;

        if (elapsed % STREAM_EVERY_MS !== 0) continue;
        const streamed = await streamSnapshotArbs(keys[plan]);
        expect(streamed).toHaveLength(1);
        const streamedAway = streamed[0]!.arb.sides.find((side) => side.price.startsWith('+'))!.price;
        expect(candidates, `${plan} stream at +${elapsed} ms`).toContain(streamedAway);
        streams += 1;
      }
    }
    // Pro is checked from its 17th second, Starter from its 122nd: most of the 2 × 3,600 steps and 2 × 180 reads ran.
    expect(steps).toBeGreaterThan(6_500);
    expect(checks).toBeGreaterThan(320);
    expect(streams).toBe(10);
  }, 120_000);
});
