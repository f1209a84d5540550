import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';

// Decision 210: no paid plan gets less than the free page. The public feed shows the arbs up to the free tier's 1 %
// cap (near-arbs included) in real time and counts the others; /v1/arbs gives every plan that part in real time and
// the arbs above the cap as they were the plan's delay ago.

const clock = virtualClock();
let app: FastifyInstance;
const keys: Record<'starter' | 'pro' | 'elite', string> = { starter: '', pro: '', elite: '' };

/** Three games: a 3.6 % arb, a small arb under the cap and a near-arb. */
const GAMES = { big: ['BOS', 'NYK'], small: ['DEN', 'UTA'], near: ['LAL', 'LAL'] } as const;

function price(game: keyof typeof GAMES, book: string, outcome: 'home' | 'away', american: number) {
  app.engine.ingest({ kind: 'price', sourceEventId: game, book, market: 'moneyline', outcome, american });
}

/** Every game priced again (the scanner drops prices older than 60 s pre-match). */
function prices(bigAway: number, smallAway: number) {
  price('big', 'fanduel', 'away', bigAway);
  price('big', 'draftkings', 'home', -130);
  price('small', 'fanduel', 'away', smallAway);
  price('small', 'draftkings', 'home', 100);
  price('near', 'fanduel', 'away', 100);
  price('near', 'draftkings', 'home', -102);
}

/** Runs the engine for `ms` with the same prices, one tick a second. */
function run(ms: number, bigAway: number, smallAway: number) {
  for (let elapsed = 0; elapsed < ms; elapsed += 1000) {
    prices(bigAway, smallAway);
    app.engine.tick();
    clock.advance(1000);
  }
}

interface Body {
  delay_seconds: number;
  delayed_above_edge_pct: number | null;
  arbs: {
    edge_pct: number;
    event: { teams: { home: { abbreviation: string } } };
    sides: { price: string }[];
  }[];
}

async function arbsOf(plan: keyof typeof keys): Promise<Body> {
  const response = await app.inject({ url: '/v1/arbs', headers: { 'x-api-key': keys[plan] } });
  expect(response.statusCode).toBe(200);
  return response.json() as Body;
}

/** Each arb as "home abbreviation away-price". */
const summary = (body: Body) =>
  body.arbs.map(
    (arb) => `${arb.event.teams.home.abbreviation} ${arb.sides.find((s) => s.price !== '-130')!.price}`,
  );

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  app.engine.stop();
  for (const plan of ['starter', 'pro', 'elite'] as const) keys[plan] = await createKey(app, plan);
  for (const [id, [home, away]] of Object.entries(GAMES))
    app.engine.ingest({
      kind: 'event',
      sourceEventId: id,
      league: 'nba',
      home: { name: `${home} home`, abbreviation: home },
      away: { name: `${away} away`, abbreviation: away },
      startsAt: clock.now() + 6 * 3_600_000,
      live: false,
    });
});

afterAll(async () => {
  await app.close();
});

describe('GET /tools/arbs.json and GET /v1/arbs under the free tier (decision 210)', () => {
  it('shows on the public feed the arbs up to 1 % and the near-arbs in full, and only counts the arbs above', async () => {
    run(30_000, 150, 103);
    const feed = ArbFeedSchema.parse((await app.inject({ url: '/tools/arbs.json' })).json());
    expect(feed.arbs.map((arb) => arb.event.teams.home.abbreviation)).toEqual(['DEN', 'LAL']);
    expect(feed.arbs.every((arb) => arb.edge_pct <= 1)).toBe(true);
    expect(feed.above_cap).toEqual({
      edge_pct: 1,
      arbs: [{ live: false, books: ['fanduel', 'draftkings'], league: 'nba', market_type: 'moneyline' }],
    });
  });

  it('gives a delayed plan the free part in real time and the arbs above the cap as they were its delay ago', async () => {
    // 10 s later every price moved: Pro's horizon (15 s ago) still holds the old +150 of the big arb.
    run(10_000, 160, 102);
    const pro = await arbsOf('pro');
    expect(pro.delay_seconds).toBe(15);
    expect(pro.delayed_above_edge_pct).toBe(1);
    expect(summary(pro)).toEqual(['BOS +150', 'DEN +102', 'LAL +100']);
    // Starter's horizon (2 minutes ago) is before the first publish: only the free part, in real time.
    expect(summary(await arbsOf('starter'))).toEqual(['DEN +102', 'LAL +100']);
    const elite = await arbsOf('elite');
    expect(elite.delayed_above_edge_pct).toBeNull();
    expect(summary(elite)).toEqual(['BOS +160', 'DEN +102', 'LAL +100']);
  });

  it('gives every plan at least the free feed’s arbs at the free feed’s prices', async () => {
    run(130_000, 155, 104);
    // The small arb moves in the last 3 s: the free feed has it at +101 already.
    run(3_000, 155, 101);
    const feed = ArbFeedSchema.parse((await app.inject({ url: '/tools/arbs.json' })).json());
    const free = feed.arbs.map((arb) => JSON.stringify(arb));
    for (const plan of ['starter', 'pro', 'elite'] as const) {
      const body = await arbsOf(plan);
      const got = new Set(body.arbs.map((arb) => JSON.stringify(arb)));
      for (const arb of free) expect(got.has(arb), plan).toBe(true);
      expect(body.arbs.length, plan).toBe(free.length + 1);
      expect(summary(body), plan).toContain('DEN +101');
    }
  });
});
