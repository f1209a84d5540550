import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArbSchema } from '#domain/schemas/feed.ts';
import { EventResponseSchema, OddsResponseSchema, type MarketDto } from '#domain/schemas/api/odds.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { propPrice } from '#tests/support/props.ts';

// Player props in the live odds API (issue 15, decision 124): /v1/odds carries prop markets with their stat, player,
// line and labels; `markets=props`, `player` and `stat` select them; /v1/events/{id} lists the roster; /v1/arbs shows
// prop arbs. The real app, fed through the engine as a source feeds it.

const clock = virtualClock();
let app: FastifyInstance;
let key: string;

const get = (url: string) => app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

const ROSTER = [
  { id: 'p-lebron', name: 'LeBron James', team: 'home' },
  { id: 'p-luka', name: 'Luka Dončić', team: 'home' },
  { id: 'p-jalen', name: 'Jalen Williams', team: 'away' },
];

let eventCounter = 0;
function addEvent(): { source: string; id: string } {
  eventCounter += 1;
  const source = `props-ev-${eventCounter}`;
  expect(
    app.engine.ingest({
      kind: 'event',
      sourceEventId: source,
      league: 'nba',
      home: { name: `Props Home ${eventCounter}`, abbreviation: `PH${eventCounter}` },
      away: { name: `Props Away ${eventCounter}`, abbreviation: `PA${eventCounter}` },
      startsAt: clock.now() + 3_600_000,
      players: ROSTER,
    }),
  ).toBe(true);
  const id = app.engine.store.events().find((event) => event.home.name === `Props Home ${eventCounter}`)!.id;
  return { source, id };
}

function ingest(message: Record<string, unknown>) {
  expect(app.engine.ingest({ kind: 'price', ...message } as never)).toBe(true);
}

function prop(
  source: string,
  book: string,
  player: { id?: string; name: string },
  outcome: string,
  american: number,
  extra: Record<string, unknown> = {},
) {
  ingest({ ...propPrice(source, book, player, outcome, american), ...extra });
}

const lebron = { id: 'p-lebron', name: 'LeBron James' };

/** An event with a moneyline, LeBron's points at 27.5 (three books) and 28.5 (one), his double-double, Luka's points. */
function boardEvent() {
  const event = addEvent();
  const { source } = event;
  ingest({ sourceEventId: source, book: 'fanduel', market: 'moneyline', outcome: 'home', american: -150 });
  ingest({ sourceEventId: source, book: 'fanduel', market: 'moneyline', outcome: 'away', american: 130 });
  for (const book of ['fanduel', 'draftkings', 'betmgm']) {
    prop(source, book, lebron, 'over', -110);
    prop(source, book, lebron, 'under', -110);
  }
  prop(source, 'fanduel', lebron, 'over', 120, { point: 28.5 });
  prop(source, 'fanduel', lebron, 'under', -150, { point: 28.5 });
  prop(source, 'fanduel', lebron, 'yes', 250, { stat: 'player_double_double', point: null });
  prop(source, 'fanduel', lebron, 'no', -350, { stat: 'player_double_double', point: null });
  // By name only, accents and all, as a book without player ids names him.
  prop(source, 'draftkings', { name: 'Luka Doncic' }, 'over', -115, { point: 30.5 });
  prop(source, 'draftkings', { name: 'Luka Doncic' }, 'under', -105, { point: 30.5 });
  return event;
}

async function markets(url: string): Promise<MarketDto[]> {
  const response = await get(url);
  expect(response.statusCode).toBe(200);
  const body = OddsResponseSchema.parse(response.json());
  return body.events.flatMap((event) => event.markets);
}

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  key = await createKey(app, 'enterprise');
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/odds with player props', () => {
  it('carries prop markets with stat, player, line, labels and outcomes; game lines without stat or player', async () => {
    const { id } = boardEvent();
    const response = await get(`/v1/odds?event=${id}`);
    const body = OddsResponseSchema.parse(response.json());
    const all = body.events[0]!.markets;
    expect(
      all.map((market) => `${market.type}:${market.stat ?? '-'}:${market.point}:${market.main}`).sort(),
    ).toEqual([
      'moneyline:-:null:true',
      'prop:player_double_double:null:true',
      'prop:player_points:27.5:true',
      'prop:player_points:28.5:false',
      'prop:player_points:30.5:true',
    ]);
    const points = all.find((market) => market.type === 'prop' && market.point === 27.5)!;
    expect(points).toMatchObject({
      key: `${id}|prop|player_points|full|p-lebron|27.5`,
      type: 'prop',
      period: 'full',
      stat: 'player_points',
      player: { id: 'p-lebron', name: 'LeBron James', team: 'home' },
      label: 'LeBron James Points Over/Under 27.5',
    });
    expect(points.outcomes.map((outcome) => [outcome.outcome, outcome.name, outcome.prices.length])).toEqual([
      ['over', 'LeBron James Points Over 27.5', 3],
      ['under', 'LeBron James Points Under 27.5', 3],
    ]);
    const doubleDouble = all.find((market) => market.stat === 'player_double_double')!;
    expect(doubleDouble.label).toBe('LeBron James Double-Double');
    expect(doubleDouble.outcomes.map((outcome) => [outcome.outcome, outcome.name])).toEqual([
      ['yes', 'LeBron James Double-Double — Yes'],
      ['no', 'LeBron James Double-Double — No'],
    ]);
    expect(all.find((market) => market.point === 30.5)!.player).toEqual({
      id: 'p-luka',
      name: 'Luka Dončić',
      team: 'home',
    });
    // A game line's JSON has no stat or player key at all: what existing clients read is unchanged.
    const raw = response
      .json()
      .events[0].markets.find((market: { type: string }) => market.type === 'moneyline');
    expect(Object.keys(raw)).toEqual(['key', 'type', 'period', 'point', 'label', 'main', 'outcomes']);
  });

  it('markets=props (or prop) selects props, markets=moneyline none, and the two combine', async () => {
    const { id } = boardEvent();
    const types = async (query: string) =>
      [...new Set((await markets(`/v1/odds?event=${id}&${query}`)).map((market) => market.type))].sort();
    expect(await types('markets=props')).toEqual(['prop']);
    expect(await types('markets=prop')).toEqual(['prop']);
    expect(await types('markets=moneyline')).toEqual(['moneyline']);
    expect(await types('markets=moneyline,props')).toEqual(['moneyline', 'prop']);
    expect(await types('markets=moneyline&markets=props')).toEqual(['moneyline', 'prop']);
    expect((await get(`/v1/odds?event=${id}&markets=player_props`)).statusCode).toBe(400);
    // main=true keeps each player's main line per stat, and the yes/no props.
    expect(
      (await markets(`/v1/odds?event=${id}&markets=props&main=true`)).map((market) => market.point).sort(),
    ).toEqual([27.5, 30.5, null]);
  });

  it('player= selects one player’s props by name (case and accents ignored) or by id, without game lines', async () => {
    const { id } = boardEvent();
    const players = async (query: string) =>
      (await markets(`/v1/odds?event=${id}&${query}`)).map((market) => `${market.type}:${market.player?.id}`);
    for (const query of [
      'player=lebron%20james',
      'player=LeBron%20James',
      'player=LEBRON+JAMES',
      'player=p-lebron',
      'player=%20LeBron%20James%20',
    ]) {
      const found = await players(query);
      expect(found, query).toHaveLength(3);
      expect(new Set(found), query).toEqual(new Set(['prop:p-lebron']));
    }
    expect(await players('player=luka%20doncic')).toEqual(['prop:p-luka']);
    expect(await players(`player=${encodeURIComponent('LUKA DONČIĆ')}`)).toEqual(['prop:p-luka']);
    // Combined with markets: game lines stay out even when asked for.
    expect(await players('player=p-luka&markets=moneyline,props')).toEqual(['prop:p-luka']);
    // Nobody of that name: no market, so the event is left out (as with any filter matching nothing).
    const nobody = OddsResponseSchema.parse((await get(`/v1/odds?event=${id}&player=lebron`)).json());
    expect(nobody.events).toEqual([]);
    expect((await get(`/v1/odds?event=${id}&player=`)).statusCode).toBe(400);
  });

  it('stat= selects props of those stats, and the league answer filters like the event answer', async () => {
    const { id } = boardEvent();
    const stats = (list: MarketDto[]) => [...new Set(list.map((market) => market.stat))].sort();
    expect(stats(await markets(`/v1/odds?event=${id}&stat=player_double_double`))).toEqual([
      'player_double_double',
    ]);
    expect(stats(await markets(`/v1/odds?event=${id}&stat=player_points&player=lebron%20james`))).toEqual([
      'player_points',
    ]);
    expect((await get(`/v1/odds?event=${id}&stat=points`)).statusCode).toBe(400);
    const league = OddsResponseSchema.parse(
      (await get('/v1/odds?league=nba&markets=props&player=p-luka')).json(),
    );
    expect(league.events.map((event) => event.event.id)).toContain(id);
    expect(
      league.events.every((event) =>
        event.markets.every((market) => market.type === 'prop' && market.player?.id === 'p-luka'),
      ),
    ).toBe(true);
  });

  it('answers each filter from its own cache entry, and a prop price change on the next request', async () => {
    const { id, source } = boardEvent();
    const lebronOver = async (query: string) =>
      (await markets(`/v1/odds?event=${id}${query}`))
        .find((market) => market.point === 27.5)
        ?.outcomes[0]!.prices.find((p) => p.book === 'fanduel')!.american;
    expect(await lebronOver('')).toBe('-110');
    expect(await lebronOver('&player=p-lebron')).toBe('-110');
    expect(await lebronOver('&player=p-luka')).toBeUndefined();
    expect(await lebronOver('&markets=moneyline')).toBeUndefined();
    prop(source, 'fanduel', lebron, 'over', 105);
    expect(await lebronOver('&player=p-lebron')).toBe('+105');
    expect(await lebronOver('&markets=props')).toBe('+105');
  });
});

describe('GET /v1/events/{eventId} with players', () => {
  it('lists the event’s roster', async () => {
    const { id } = boardEvent();
    const body = EventResponseSchema.parse((await get(`/v1/events/${id}`)).json());
    expect(body.players).toEqual([
      { id: 'p-lebron', name: 'LeBron James', team: 'home' },
      { id: 'p-luka', name: 'Luka Dončić', team: 'home' },
      { id: 'p-jalen', name: 'Jalen Williams', team: 'away' },
    ]);
  });
});

describe('a player whose team the source does not know', () => {
  it('shows team null on /v1/odds and /v1/events/{eventId}, never a guessed team', async () => {
    eventCounter += 1;
    const source = `props-teamless-${eventCounter}`;
    expect(
      app.engine.ingest({
        kind: 'event',
        sourceEventId: source,
        league: 'nba',
        home: { name: 'Teamless Home', abbreviation: 'TH' },
        away: { name: 'Teamless Away', abbreviation: 'TA' },
        startsAt: clock.now() + 3_600_000,
        players: [{ id: 'p-sga', name: 'Shai Gilgeous-Alexander' }] as never,
      }),
    ).toBe(true);
    const id = app.engine.store.events().find((event) => event.home.name === 'Teamless Home')!.id;
    prop(source, 'fanduel', { name: 'Shai Gilgeous-Alexander' }, 'over', -110, { point: 31.5 });
    const [market] = await markets(`/v1/odds?event=${id}&player=shai%20gilgeous%20alexander`);
    expect(market!.player).toEqual({ id: 'p-sga', name: 'Shai Gilgeous-Alexander', team: null });
    const body = EventResponseSchema.parse((await get(`/v1/events/${id}`)).json());
    expect(body.players).toEqual([{ id: 'p-sga', name: 'Shai Gilgeous-Alexander', team: null }]);
  });
});

describe('GET /v1/arbs with player props', () => {
  it('shows a prop arb, selected by markets=props and left out by markets=moneyline', async () => {
    const { source, id } = addEvent();
    prop(source, 'fanduel', { id: 'p-jalen', name: 'Jalen Williams' }, 'over', 125, { point: 19.5 });
    prop(source, 'draftkings', { id: 'p-jalen', name: 'Jalen Williams' }, 'under', 110, { point: 19.5 });
    app.engine.tick();
    const find = async (query: string) =>
      ((await get(`/v1/arbs${query}`)).json().arbs as unknown[])
        .map((arb) => ArbSchema.parse(arb))
        .filter((arb) => arb.event.id === id);
    const all = await find('');
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ market: 'Jalen Williams Points Over/Under 19.5', market_type: 'prop' });
    expect(all[0]!.sides.map((side) => side.name).sort()).toEqual([
      'Jalen Williams Points Over 19.5',
      'Jalen Williams Points Under 19.5',
    ]);
    expect(await find('?markets=props')).toHaveLength(1);
    expect(await find('?markets=moneyline,prop')).toHaveLength(1);
    expect(await find('?markets=moneyline')).toHaveLength(0);
    const props = (await get('/v1/arbs?markets=props')).json().arbs as { market_type: string }[];
    expect(props.every((arb) => arb.market_type === 'prop')).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  it('documents the prop fields and filters with an example prop market', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const odds = doc.paths['/v1/odds'].get;
    expect(odds.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['markets', 'player', 'stat']),
    );
    const markets = odds.parameters.find((parameter: { name: string }) => parameter.name === 'markets');
    expect(JSON.stringify(markets)).toContain('props');
    expect(Object.keys(doc.components.schemas.Market.properties)).toEqual(
      expect.arrayContaining(['stat', 'player']),
    );
    expect(doc.components.schemas.Market.required).not.toContain('player');
    const example = OddsResponseSchema.parse(
      odds.responses['200'].content['application/json'].example ??
        doc.components.schemas.OddsResponse.examples[0],
    );
    expect(example.events[0]!.markets.some((market) => market.type === 'prop' && market.player)).toBe(true);
    for (const path of ['/v1/arbs', '/v1/stream'])
      expect(doc.paths[path].get.parameters.map((parameter: { name: string }) => parameter.name)).toContain(
        'markets',
      );
    expect(
      doc.paths['/v1/stream'].get.parameters.map((parameter: { name: string }) => parameter.name),
    ).toEqual(expect.arrayContaining(['player', 'stat']));
  });

  it('shows the example prop market on /docs under /v1/odds, and a player props section', async () => {
    const html = (await app.inject({ method: 'GET', url: '/docs' })).body;
    expect(html).toContain('id="props"');
    expect(html).toContain('markets=props');
    const odds = html.slice(html.indexOf('id="GET--v1-odds"'));
    const section = odds.slice(0, odds.indexOf('</section>'));
    expect(section).toContain('Example response');
    expect(section).toContain('LeBron James Points Over/Under 27.5');
  });
});
