import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmerican, toAmericanOdds } from '#domain/odds.ts';
import { ArbSchema } from '#domain/schemas/feed.ts';
import { OddsResponseSchema } from '#domain/schemas/api/odds.ts';
import { MeResponseSchema } from '#domain/schemas/api/account.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';

const clock = virtualClock();
let app: FastifyInstance;
let elite: string;

const get = (url: string, key: string) => app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

let eventCounter = 0;
/** Ingests a fresh NBA (or given league) event and returns its source id and canonical id. */
function addEvent(overrides: Record<string, unknown> = {}): { source: string; id: string } {
  eventCounter += 1;
  const source = `ev-${eventCounter}`;
  const accepted = app.engine.ingest({
    kind: 'event',
    sourceEventId: source,
    league: 'nba',
    home: { name: `Home Team ${eventCounter}`, abbreviation: `H${eventCounter}` },
    away: { name: `Away Team ${eventCounter}`, abbreviation: `A${eventCounter}` },
    startsAt: clock.now() + 3_600_000,
    live: false,
    ...overrides,
  });
  expect(accepted).toBe(true);
  const id = app.engine.store.events().find((event) => event.home.name === `Home Team ${eventCounter}`)!.id;
  return { source, id };
}

function price(
  source: string,
  book: string,
  market: string,
  outcome: string,
  american: number,
  extra: Record<string, unknown> = {},
) {
  const accepted = app.engine.ingest({
    kind: 'price',
    sourceEventId: source,
    book,
    market,
    outcome,
    american,
    ...extra,
  });
  expect(accepted).toBe(true);
}

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  elite = await createKey(app, 'enterprise');
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/sports and /v1/leagues', () => {
  it('lists every league once, grouped under its sport', async () => {
    const sports = (await get('/v1/sports', elite)).json().sports as {
      key: string;
      leagues: { key: string; sport: string }[];
    }[];
    const leagues = sports.flatMap((sport) =>
      sport.leagues.map((league) => ({ ...league, parent: sport.key })),
    );
    expect(leagues.map((league) => league.key).sort()).toEqual([
      'epl',
      'mlb',
      'mls',
      'nba',
      'ncaab',
      'nfl',
      'nhl',
    ]);
    expect(leagues.every((league) => league.sport === league.parent)).toBe(true);
    const flat = (await get('/v1/leagues', elite)).json().leagues as { key: string; has_draws: boolean }[];
    expect(flat.find((league) => league.key === 'epl')!.has_draws).toBe(true);
  });
});

describe('GET /v1/events', () => {
  it('filters by league, live and start time, ordered by start', async () => {
    const early = addEvent({ startsAt: clock.now() + 60_000 });
    const late = addEvent({ startsAt: clock.now() + 7_200_000 });
    const live = addEvent({ startsAt: clock.now() - 600_000, live: true });
    const hockey = addEvent({ league: 'nhl', startsAt: clock.now() + 120_000 });
    const ids = async (query: string) =>
      ((await get(`/v1/events?${query}`, elite)).json().events as { id: string }[]).map((event) => event.id);

    const nba = await ids('league=nba');
    expect(nba).toEqual(expect.arrayContaining([early.id, late.id, live.id]));
    expect(nba).not.toContain(hockey.id);
    expect(nba.indexOf(live.id)).toBeLessThan(nba.indexOf(early.id));
    expect(nba.indexOf(early.id)).toBeLessThan(nba.indexOf(late.id));
    expect(await ids('live=true')).toEqual(expect.arrayContaining([live.id]));
    expect(await ids('live=false')).not.toContain(live.id);
    const window = await ids(
      `starts_after=${new Date(clock.now()).toISOString()}&starts_before=${new Date(clock.now() + 3_600_000).toISOString()}`,
    );
    expect(window).toEqual(expect.arrayContaining([early.id, hockey.id]));
    expect(window).not.toContain(late.id);
    expect(window).not.toContain(live.id);
  });

  it('answers 400 problem+json naming the field for an invalid filter', async () => {
    const response = await get('/v1/events?league=cricket&live=maybe', elite);
    expect(response.statusCode).toBe(400);
    expect(response.json().type).toBe('https://sharpline.io/problems/validation');
    expect(Object.keys(response.json().errors)).toEqual(expect.arrayContaining(['league', 'live']));
  });

  it('GET /v1/events/:eventId answers the event, or 404 event-not-found', async () => {
    const { id } = addEvent();
    expect((await get(`/v1/events/${id}`, elite)).json().event.id).toBe(id);
    const missing = await get('/v1/events/nba-nope', elite);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().type).toBe('https://sharpline.io/problems/event-not-found');
  });
});

describe('GET /v1/odds', () => {
  it('serves American and decimal odds with update times, filtered by market type, books and main lines', async () => {
    const { source, id } = addEvent();
    const stamp = clock.now() - 5_000;
    price(source, 'fanduel', 'moneyline', 'home', -150, { updatedAt: stamp });
    price(source, 'fanduel', 'moneyline', 'away', 130, { updatedAt: stamp });
    price(source, 'draftkings', 'moneyline', 'home', -145);
    price(source, 'draftkings', 'moneyline', 'away', 125);
    // Main spread −3.5 at three books; an alternate −7.5 at one.
    for (const book of ['fanduel', 'draftkings', 'betmgm']) {
      price(source, book, 'spread', 'home', -110, { point: -3.5 });
      price(source, book, 'spread', 'away', -110, { point: 3.5 });
    }
    price(source, 'fanduel', 'spread', 'home', 180, { point: -7.5 });
    price(source, 'fanduel', 'spread', 'away', -220, { point: 7.5 });

    const all = OddsResponseSchema.parse((await get(`/v1/odds?event=${id}`, elite)).json());
    expect(all.delay_seconds).toBe(0);
    const markets = all.events[0]!.markets;
    expect(markets.map((market) => `${market.type}:${market.point}:${market.main}`).sort()).toEqual([
      'moneyline:null:true',
      'spread:-3.5:true',
      'spread:-7.5:false',
    ]);
    const moneyline = markets.find((market) => market.type === 'moneyline')!;
    const fanduelHome = moneyline.outcomes
      .find((outcome) => outcome.outcome === 'home')!
      .prices.find((p) => p.book === 'fanduel')!;
    expect(fanduelHome).toMatchObject({
      american: '-150',
      decimal: 1.6666,
      updated_at: new Date(stamp).toISOString(),
    });
    expect(fanduelHome.implied_prob).toBeCloseTo(0.6, 3);

    const main = OddsResponseSchema.parse(
      (await get(`/v1/odds?event=${id}&main=true&markets=spread`, elite)).json(),
    );
    expect(main.events[0]!.markets.map((market) => market.point)).toEqual([-3.5]);

    const books = OddsResponseSchema.parse(
      (await get(`/v1/odds?event=${id}&books=draftkings`, elite)).json(),
    );
    const seen = new Set(
      books.events[0]!.markets.flatMap((market) =>
        market.outcomes.flatMap((o) => o.prices.map((p) => p.book)),
      ),
    );
    expect([...seen]).toEqual(['draftkings']);

    const league = OddsResponseSchema.parse(
      (await get('/v1/odds?league=nba&markets=moneyline', elite)).json(),
    );
    expect(league.events.map((event) => event.event.id)).toContain(id);
    expect(league.events.every((event) => event.markets.every((market) => market.type === 'moneyline'))).toBe(
      true,
    );
  });

  it('answers a price change on the next request (no stale cached answer)', async () => {
    const { source, id } = addEvent();
    const homeFanduel = async () =>
      OddsResponseSchema.parse((await get(`/v1/odds?event=${id}`, elite)).json())
        .events[0]!.markets[0]!.outcomes.find((outcome) => outcome.outcome === 'home')!
        .prices.find((p) => p.book === 'fanduel')!.american;
    price(source, 'fanduel', 'moneyline', 'home', -150);
    expect(await homeFanduel()).toBe('-150');
    price(source, 'fanduel', 'moneyline', 'home', -170);
    expect(await homeFanduel()).toBe('-170');
  });

  it('writes even money as "+100", whether the source sent −100, +100 or decimal 2.0 (issue 56)', async () => {
    const { source, id } = addEvent();
    price(source, 'fanduel', 'moneyline', 'home', -100);
    price(source, 'draftkings', 'moneyline', 'home', 100);
    const accepted = app.engine.ingest({
      kind: 'price',
      sourceEventId: source,
      book: 'betmgm',
      market: 'moneyline',
      outcome: 'home',
      decimal: 2,
    });
    expect(accepted).toBe(true);
    // An arb with the even-money side: −100 and +105 (S = 0.5 + 1/2.05 < 1).
    price(source, 'caesars', 'moneyline', 'away', 105);
    const home = OddsResponseSchema.parse(
      (await get(`/v1/odds?event=${id}`, elite)).json(),
    ).events[0]!.markets[0]!.outcomes.find((outcome) => outcome.outcome === 'home')!;
    expect(home.prices.map((p) => [p.book, p.american]).sort()).toEqual([
      ['betmgm', '+100'],
      ['draftkings', '+100'],
      ['fanduel', '+100'],
    ]);
    app.engine.tick();
    const arbs = ((await get('/v1/arbs', elite)).json() as { arbs: unknown[] }).arbs.map((arb) =>
      ArbSchema.parse(arb),
    );
    const even = arbs
      .filter((arb) => arb.event.id === id)
      .flatMap((arb) => arb.sides)
      .filter((side) => side.decimal_odds === 2);
    expect(even.length).toBeGreaterThan(0);
    expect(even.every((side) => side.price === '+100')).toBe(true);
  });

  it('answers 400 without league or event, and 404 for an unknown event', async () => {
    expect((await get('/v1/odds', elite)).statusCode).toBe(400);
    expect((await get('/v1/odds?event=nope', elite)).statusCode).toBe(404);
  });
});

describe('GET /v1/arbs', () => {
  it('answers the engine’s arbs in the feed’s shapes, best edge first, filtered by live', async () => {
    const { source } = addEvent();
    price(source, 'fanduel', 'moneyline', 'home', 120);
    price(source, 'draftkings', 'moneyline', 'away', 120);
    app.engine.tick();
    const body = (await get('/v1/arbs', elite)).json() as { arbs: unknown[]; delay_seconds: number };
    expect(body.delay_seconds).toBe(0);
    const arbs = body.arbs.map((arb) => ArbSchema.parse(arb));
    expect(
      arbs.some(
        (arb) =>
          arb.sides
            .map((side) => side.sportsbook)
            .sort()
            .join() === 'draftkings,fanduel',
      ),
    ).toBe(true);
    const edges = arbs.map((arb) => arb.edge_pct);
    expect(edges).toEqual([...edges].sort((a, b) => b - a));
    const live = (await get('/v1/arbs?live=true', elite)).json().arbs as { event: { live: boolean } }[];
    expect(live.every((arb) => arb.event.live)).toBe(true);
  });
});

describe('GET /v1/me', () => {
  it("matches its schema, names the features of the plan and shows the month's SGP credits", async () => {
    const body = MeResponseSchema.parse((await get('/v1/me', elite)).json());
    expect(body.plan.id).toBe('enterprise');
    expect(body.features).toEqual([
      'line-movement',
      'closing-lines',
      'historical-odds',
      'same-game-parlays',
      'scores-and-grading',
    ]);
    expect(body.sgp_credits).toEqual({
      limit: 100_000,
      used: 0,
      remaining: 100_000,
      resets_at: '2026-12-01T00:00:00.000Z',
    });
  });
});

// Latency tiers: random update streams (book clock lag, gaps) and random query instants; a delayed key must see, for
// every price, exactly the newest version the engine had received by now − delay, and nothing newer.
describe('latency tiers (property)', () => {
  const books = ['fanduel', 'draftkings', 'betmgm'] as const;
  const update = fc.record({
    gapMs: fc.integer({ min: 0, max: 40_000 }),
    lagMs: fc.integer({ min: 0, max: 30_000 }),
    book: fc.constantFrom(...books),
    outcome: fc.constantFrom('home' as const, 'away' as const),
    american: fc.oneof(fc.integer({ min: -400, max: -101 }), fc.integer({ min: 100, max: 400 })),
    query: fc.boolean(),
  });

  it('a Starter key never gets a price newer than now − 120 s, a Pro key never newer than now − 15 s', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(update, { minLength: 1, maxLength: 25 }), async (updates) => {
        const { source, id } = addEvent({ startsAt: clock.now() + 86_400_000 });
        const keys = { starter: await createKey(app, 'starter'), pro: await createKey(app, 'pro') };
        const delays = { starter: 120_000, pro: 15_000 };
        const history: { key: string; receivedAt: number; updatedAt: number; american: string }[] = [];
        const check = async () => {
          const now = clock.now();
          for (const plan of ['starter', 'pro'] as const) {
            // Reads are served at the horizon floored to the second (cacheable, and never later than allowed).
            const horizon = Math.floor((now - delays[plan]) / 1000) * 1000;
            const response = await get(`/v1/odds?event=${id}`, keys[plan]);
            expect(response.statusCode).toBe(200);
            const body = OddsResponseSchema.parse(response.json());
            expect(Date.parse(body.as_of)).toBe(horizon);
            const served = new Map<string, { american: string; updated_at: string }>();
            for (const market of body.events[0]?.markets ?? []) {
              for (const outcome of market.outcomes) {
                for (const p of outcome.prices) {
                  expect(Date.parse(p.updated_at)).toBeLessThanOrEqual(now - delays[plan]);
                  served.set(`${p.book}|${outcome.outcome}`, {
                    american: p.american,
                    updated_at: p.updated_at,
                  });
                }
              }
            }
            const expected = new Map<string, { american: string; updated_at: string }>();
            for (const version of history) {
              if (version.receivedAt <= horizon) {
                expected.set(version.key, {
                  american: version.american,
                  updated_at: new Date(version.updatedAt).toISOString(),
                });
              }
            }
            expect(Object.fromEntries(served)).toEqual(Object.fromEntries(expected));
          }
        };
        for (const step of updates) {
          clock.advance(step.gapMs);
          const updatedAt = clock.now() - step.lagMs;
          price(source, step.book, 'moneyline', step.outcome, step.american, { updatedAt });
          history.push({
            key: `${step.book}|${step.outcome}`,
            receivedAt: clock.now(),
            updatedAt,
            american: formatAmerican(toAmericanOdds(step.american)),
          });
          if (step.query) await check();
        }
        clock.advance(20_000);
        await check();
        // Keep the next run's keys clear of this run's per-minute quota.
        clock.advance(60_000);
      }),
      { numRuns: 40 },
    );
  });
});
