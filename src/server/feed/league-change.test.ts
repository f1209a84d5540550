import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';

// A source that re-sends a fixture under another league (issue 31, decision 148): the paid API and the public feed
// must tell the same league for it.

const clock = virtualClock();
let app: FastifyInstance;
let key: string;

const get = (url: string) => app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

const START = clock.now() + 3_600_000;
const HOME = 'Duke Blue Devils';
const AWAY = 'North Carolina Tar Heels';

function sendEvent(league: string) {
  expect(
    app.engine.ingest({
      kind: 'event',
      sourceEventId: 'league-change-1',
      league,
      home: { name: HOME },
      away: { name: AWAY },
      startsAt: START,
    }),
  ).toBe(true);
}

/**
 * The source's prices for the fixture (as its next poll sends them again): an arb of about 0.5 % on the moneyline, under
 * the free tier's cap, so that the public feed shows it in full (decision 210).
 */
function sendPrices() {
  for (const [book, outcome] of [
    ['fanduel', 'away'],
    ['draftkings', 'home'],
  ] as const)
    expect(
      app.engine.ingest({
        kind: 'price',
        sourceEventId: 'league-change-1',
        book,
        market: 'moneyline',
        outcome,
        american: 101,
      }),
    ).toBe(true);
}

/** The fixture as /v1/events, /v1/odds (asked per league) and /tools/arbs.json tell it: its ids and leagues in each. */
async function views() {
  const events = (
    (await get('/v1/events')).json().events as { id: string; league: string; home: { name: string } }[]
  )
    .filter((event) => event.home.name === HOME)
    .map((event) => ({ id: event.id, league: event.league }));
  const odds: { id: string; league: string }[] = [];
  for (const league of ['nba', 'ncaab']) {
    const body = (await get(`/v1/odds?league=${league}&markets=moneyline`)).json() as {
      events: { event: { id: string; league: string; home: { name: string } } }[];
    };
    for (const { event } of body.events)
      if (event.home.name === HOME) odds.push({ id: event.id, league: event.league });
  }
  const feed = ArbFeedSchema.parse((await app.inject({ method: 'GET', url: '/tools/arbs.json' })).json());
  const arbs = feed.arbs
    .filter((arb) => arb.event.teams.home.name === HOME)
    .map((arb) => ({ id: arb.event.id, league: arb.event.league }));
  return { events, odds, arbs };
}

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  key = await createKey(app, 'enterprise');
});

afterAll(async () => {
  await app.close();
});

describe('a fixture re-sent under another league', () => {
  it('moves to that league in /v1/events, /v1/odds and /tools/arbs.json alike', async () => {
    sendEvent('nba');
    sendPrices();
    app.engine.tick();
    const before = await views();
    expect(before.events).toEqual([{ id: expect.stringMatching(/^nba-/), league: 'nba' }]);
    expect(before.arbs).toEqual([before.events[0]]);

    // The source corrects the league, then sends its prices again (its next poll).
    clock.advance(1_000);
    sendEvent('ncaab');
    app.engine.tick();
    const moved = await views();
    expect(moved.events.map((event) => event.league)).toEqual(['ncaab']);
    // Nothing of the fixture under the league it left; no odds or arb under the new one before its prices come again.
    expect(moved.odds).toEqual([]);
    expect(moved.arbs).toEqual([]);

    sendPrices();
    app.engine.tick();
    const after = await views();
    expect(after.events).toEqual(moved.events);
    expect(after.odds).toEqual(moved.events);
    expect(after.arbs).toEqual(moved.events);
    expect((await get('/v1/events?league=nba')).json().events).toEqual([]);
    // It is another fixture now: its id names its league.
    expect(after.events[0]!.id).toMatch(/^ncaab-/);
  });
});
