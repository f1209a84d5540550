import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { OddsEngine } from '../engine.ts';
import { parsePropMarketKey, propCadence, propMarketKeys, toaPlayerId } from './the-odds-api-props.ts';
import { TheOddsApiSource } from './the-odds-api.ts';
import type { SourceContext } from './types.ts';

// Player props from The Odds API (decision 123) against a local HTTP server answering in the documented format: the
// bulk odds endpoint lists the slate, the event-odds endpoint answers one event with `description` naming the player.
// Fixtures are our own answers (real shapes, invented prices).

const NOW = Date.parse('2026-11-22T00:00:00Z');
const MINUTE = 60_000;
const HOUR = 3_600_000;
const fixture = (name: string) =>
  JSON.parse(readFileSync(path.resolve('tests/fixtures', name), 'utf8')) as Record<string, unknown>;
const NBA_PROPS = fixture('the-odds-api-nba-event-props.json');
const NFL_PROPS = fixture('the-odds-api-nfl-event-props.json');
const OKC = NBA_PROPS.id as string;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let handler: Handler;
const requests: URL[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(new URL(request.url ?? '/', base));
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests.length = 0;
});

const send = (
  response: ServerResponse,
  body: unknown,
  headers: Record<string, string> = {},
  status = 200,
) => {
  response.writeHead(status, {
    'content-type': 'application/json',
    'x-requests-remaining': '90000',
    'x-requests-used': '10000',
    ...headers,
  });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** The bulk odds answer listing events (without game lines: the props are what is under test). */
const slate = (...events: Record<string, unknown>[]) =>
  events.map(({ bookmakers: _books, ...event }) => ({ ...event, bookmakers: [] }));

/** An event-odds answer for another event id and start, with the same props. */
const eventAt = (source: Record<string, unknown>, id: string, startsAt: number) => ({
  ...source,
  id,
  commence_time: new Date(startsAt).toISOString(),
});

/**
 * The stand-in API: `/v4/sports/{sport}/odds` answers the slate of that sport, `/v4/sports/{sport}/events/{id}/odds`
 * the event's props (`x-requests-last` as given per event, else none), anything else 404.
 */
function standIn(
  events: Record<string, unknown>[],
  headers: (url: URL) => Record<string, string> = () => ({}),
): Handler {
  return (request, response) => {
    const url = new URL(request.url ?? '/', base);
    const bulk = /^\/v4\/sports\/([a-z_]+)\/odds$/.exec(url.pathname);
    if (bulk)
      return send(response, slate(...events.filter((event) => event.sport_key === bulk[1])), headers(url));
    const single = /^\/v4\/sports\/([a-z_]+)\/events\/([^/]+)\/odds$/.exec(url.pathname);
    const event = single && events.find((e) => e.sport_key === single[1] && e.id === single[2]);
    if (event) return send(response, event, headers(url));
    send(response, { message: 'Event not found', error_code: 'EVENT_NOT_FOUND' }, {}, 404);
  };
}

function setup(
  leagues: ('nba' | 'nfl')[] = ['nba'],
  extra: Partial<ConstructorParameters<typeof TheOddsApiSource>[0]> = {},
) {
  let now = NOW;
  const engine = new OddsEngine({ source: 'the-odds-api', now: () => now });
  engine.markReady();
  const infos: string[] = [];
  const warnings: string[] = [];
  const context: SourceContext = {
    ingest: (message) => engine.ingest(message),
    drop: (reason) => engine.drop(reason),
    ready: () => engine.markReady(),
    now: () => now,
    log: {
      info: (_details, message) => infos.push(message),
      warn: (_details, message) => warnings.push(message),
    },
  };
  const source = new TheOddsApiSource({
    apiKey: 'test-key-123',
    baseUrl: base,
    intervalMs: 30_000,
    leagues,
    ...extra,
  });
  const feed = () => {
    engine.tick();
    return ArbFeedSchema.parse(JSON.parse(engine.latest!.body.toString('utf8')));
  };
  const propRequests = () => requests.filter((url) => url.pathname.includes('/events/'));
  return {
    engine,
    context,
    source,
    feed,
    infos,
    warnings,
    propRequests,
    advance(ms: number) {
      now += ms;
    },
  };
}

const propMarkets = (engine: OddsEngine) =>
  engine.store
    .events()
    .flatMap((event) => engine.store.markets(event.id))
    .filter((market) => market.spec.type === 'prop');

describe('The Odds API player props: mapping', () => {
  it('asks only for the league catalogue’s keys, partial periods by their suffix, and reads them back', () => {
    expect(propMarketKeys('nba')).toEqual([
      'player_points',
      'player_points_q1',
      'player_rebounds',
      'player_rebounds_q1',
      'player_assists',
      'player_assists_q1',
      'player_threes',
      'player_points_rebounds_assists',
      'player_double_double',
    ]);
    expect(propMarketKeys('nfl')).toContain('player_pass_yds_q1');
    expect(propMarketKeys('mlb')).toEqual(['batter_hits', 'batter_total_bases', 'pitcher_strikeouts']);
    expect(parsePropMarketKey('nba', 'player_points_q1')).toEqual({ stat: 'player_points', period: 'q1' });
    expect(parsePropMarketKey('nhl', 'player_points')).toEqual({ stat: 'player_points', period: 'full' });
    expect(parsePropMarketKey('ncaab', 'player_points_q1')).toBeUndefined(); // halves: full game only
    expect(parsePropMarketKey('nba', 'player_blocks')).toBeUndefined();
    expect(parsePropMarketKey('nba', 'player_pass_yds')).toBeUndefined();
  });

  it('gives a player one id per spelling: stable, accent-free, suffixes kept, shared surnames apart', () => {
    expect(toaPlayerId('Jalen Williams')).toBe('toa:jalen-williams');
    expect(toaPlayerId('Jaylin Williams')).toBe('toa:jaylin-williams');
    expect(toaPlayerId(' Luka Dončić ')).toBe(toaPlayerId('Luka Doncic'));
    expect(toaPlayerId("De'Aaron Fox")).toBe('toa:deaaron-fox');
    expect(toaPlayerId('Gary Payton II')).not.toBe(toaPlayerId('Gary Payton'));
    expect(toaPlayerId('Shai Gilgeous-Alexander')).toBe('toa:shai-gilgeous-alexander');
  });
});

describe('The Odds API player props: polling', () => {
  it('polls the event-odds endpoint for the league’s prop markets after the game lines', async () => {
    handler = standIn([NBA_PROPS]);
    const { source, context } = setup();
    await source.pollOnce(context);
    expect(requests.map((url) => url.pathname)).toEqual([
      '/v4/sports/basketball_nba/odds',
      `/v4/sports/basketball_nba/events/${OKC}/odds`,
    ]);
    expect(Object.fromEntries(requests[1]!.searchParams)).toEqual({
      apiKey: 'test-key-123',
      regions: 'us,us2',
      markets: propMarketKeys('nba').join(','),
      oddsFormat: 'american',
      dateFormat: 'iso',
      includeLinks: 'true',
    });
  });

  it('brings the props into the engine: prop markets naming the player, stat and period; a roster without teams', async () => {
    handler = standIn([NBA_PROPS]);
    const { source, context, engine } = setup();
    await source.pollOnce(context);
    const event = engine.store.events()[0]!;
    expect(event.home.name).toBe('Oklahoma City Thunder');
    const roster = [...engine.store.eventState(event.id)!.players.values()].map((entry) => entry.player);
    // Every player a mapped bookmaker's mapped market names; lowvig (unmapped) and player_blocks (not in the
    // catalogue) add nobody.
    expect(roster).toEqual([
      { id: 'toa:jalen-williams', name: 'Jalen Williams', team: '' },
      { id: 'toa:jaylin-williams', name: 'Jaylin Williams', team: '' },
      { id: 'toa:shai-gilgeous-alexander', name: 'Shai Gilgeous-Alexander', team: '' },
      { id: 'toa:chet-holmgren', name: 'Chet Holmgren', team: '' },
    ]);
    const markets = propMarkets(engine)
      .map((market) => {
        const spec = market.spec as { stat: string; period: string; point: number | null };
        return `${market.player!.name} ${spec.stat} ${spec.period} ${spec.point}`;
      })
      .sort();
    expect(markets).toEqual([
      'Chet Holmgren player_double_double full null',
      'Jalen Williams player_points full 21.5',
      'Jalen Williams player_rebounds full 5.5',
      'Jaylin Williams player_points full 6.5',
      'Jaylin Williams player_rebounds full 5.5',
      'Shai Gilgeous-Alexander player_points full 31.5',
      'Shai Gilgeous-Alexander player_points q1 8.5',
    ]);
    const drops = engine.stats().drops;
    expect(drops.unknown_market).toBe(1); // player_blocks at draftkings: asked for by nobody, counted
    expect(drops.unknown_player).toBe(0);
    expect(drops.ambiguous_player).toBe(0);
    expect(drops.malformed).toBe(0);
  });

  it('finds the arb across two books’ over and under of one player’s line, with its readable label', async () => {
    handler = standIn([NBA_PROPS]);
    const { source, context, feed } = setup();
    await source.pollOnce(context);
    const arbs = feed().arbs.filter((arb) => arb.edge_pct > 0);
    expect(
      arbs.map((arb) => [
        arb.market,
        arb.market_type,
        arb.sides.map((side) => `${side.sportsbook} ${side.name} ${side.price}`).join(' / '),
        arb.edge_pct,
      ]),
    ).toEqual([
      [
        'Jalen Williams Points Over/Under 21.5',
        'prop',
        'fanduel Jalen Williams Points Over 21.5 +105 / draftkings Jalen Williams Points Under 21.5 +102',
        1.744, // 1 / (1/2.05 + 1/2.02) − 1
      ],
      [
        'Shai Gilgeous-Alexander 1st Quarter Points Over/Under 8.5',
        'prop',
        'fanduel Shai Gilgeous-Alexander 1st Quarter Points Over 8.5 +105 / draftkings Shai Gilgeous-Alexander 1st Quarter Points Under 8.5 +100',
        1.234, // 1 / (1/2.05 + 1/2) − 1
      ],
    ]);
    expect(arbs.flatMap((arb) => arb.sides.map((side) => side.sportsbook))).not.toContain('lowvig');
  });

  it('keeps Jalen Williams and Jaylin Williams (one team, one surname) apart: their lines never pair', async () => {
    handler = standIn([NBA_PROPS]);
    const { source, context, feed, engine } = setup();
    await source.pollOnce(context);
    // fanduel's Jalen over 5.5 rebounds (+120) and draftkings' Jaylin under 5.5 (+120) would be a 10 % arb if merged.
    const rebounds = propMarkets(engine).filter(
      (market) => market.spec.type === 'prop' && market.spec.stat === 'player_rebounds',
    );
    expect(rebounds.map((market) => market.player!.id).sort()).toEqual([
      'toa:jalen-williams',
      'toa:jaylin-williams',
    ]);
    expect(feed().arbs.filter((arb) => arb.market.includes('Rebounds'))).toEqual([]);
  });

  it('keeps the same ids across polls: the roster and the markets do not grow when nothing new is named', async () => {
    handler = standIn([NBA_PROPS]);
    const { source, context, engine, advance, propRequests } = setup();
    await source.pollOnce(context);
    const eventId = engine.store.events()[0]!.id;
    const before = {
      players: engine.store.eventState(eventId)!.players.size,
      markets: propMarkets(engine).length,
    };
    advance(MINUTE); // 40 minutes before the start: polled every minute
    await source.pollOnce(context);
    expect(propRequests()).toHaveLength(2);
    expect({
      players: engine.store.eventState(eventId)!.players.size,
      markets: propMarkets(engine).length,
    }).toEqual(before);
  });

  it('a yes-only market (anytime TD with only "Yes") is stored, makes no arb and breaks nothing', async () => {
    handler = standIn([NFL_PROPS]);
    const { source, context, engine, feed, warnings } = setup(['nfl']);
    await source.pollOnce(context);
    const markets = propMarkets(engine);
    expect(markets.map((market) => market.player!.name).sort()).toEqual([
      'Isiah Pacheco',
      'James Cook',
      'Travis Kelce',
    ]);
    const kelce = markets.find((market) => market.player!.name === 'Travis Kelce')!;
    expect(kelce.spec).toMatchObject({ stat: 'player_anytime_td', period: 'full', point: null });
    expect(
      engine.store.prices(kelce.key).map((price) => [price.book, price.outcome, price.american]),
    ).toEqual([
      ['fanduel', 'yes', 120],
      ['draftkings', 'yes', 135],
    ]);
    expect(feed().arbs).toEqual([]);
    expect(engine.stats().dropped).toBe(0);
    expect(warnings).toEqual([]);
  });
});

describe('The Odds API player props: start', () => {
  it('signals ready once the game lines are in, without waiting for the first cycle’s props', async () => {
    const answer = standIn([NBA_PROPS]);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    handler = (request, response) => {
      if (request.url?.includes('/events/')) void held.then(() => answer(request, response));
      else answer(request, response);
    };
    const { source, context, engine, propRequests } = setup();
    let ready = false;
    source.start({ ...context, ready: () => (ready = true) });
    await vi.waitFor(() => expect(propRequests()).toHaveLength(1));
    expect(ready).toBe(true); // the props answer is still held back
    expect(propMarkets(engine)).toEqual([]);
    release();
    await vi.waitFor(() => expect(propMarkets(engine).length).toBeGreaterThan(0));
    source.stop();
  });
});

describe('The Odds API player props: budget', () => {
  const inMinutes = (minutes: number) => NOW + minutes * MINUTE;

  it('polls only events within the window (and live ones), nearer the start more often', async () => {
    const soon = eventAt(NBA_PROPS, 'a0000000000000000000000000000001', inMinutes(40));
    const later = eventAt(NBA_PROPS, 'a0000000000000000000000000000002', inMinutes(4 * 60));
    const tomorrow = eventAt(NBA_PROPS, 'a0000000000000000000000000000003', inMinutes(20 * 60));
    const beyond = eventAt(NBA_PROPS, 'a0000000000000000000000000000004', inMinutes(30 * 60));
    const live = eventAt(NBA_PROPS, 'a0000000000000000000000000000005', inMinutes(-60));
    handler = standIn([soon, later, tomorrow, beyond, live]);
    const { source, context, advance, propRequests } = setup();
    const polled = () => propRequests().map((url) => url.pathname.split('/')[5]!.slice(-1));
    await source.pollOnce(context);
    // Most urgent first: the last hour, live, within 6 hours, the rest of the window; 30 hours out: never.
    expect(polled()).toEqual(['1', '5', '2', '3']);
    requests.length = 0;
    advance(MINUTE);
    await source.pollOnce(context);
    expect(polled()).toEqual(['1']); // only the event in its last hour is due after a minute
    requests.length = 0;
    advance(4 * MINUTE);
    await source.pollOnce(context);
    expect(polled()).toEqual(['1', '5', '2']); // five minutes: live and within 6 hours again
    requests.length = 0;
    advance(25 * MINUTE);
    await source.pollOnce(context);
    expect(polled()).toEqual(['1', '5', '2', '3']); // thirty minutes: the rest of the window too
    expect(propCadence(inMinutes(30 * 60), NOW, 24 * HOUR)).toBeNull();
  });

  it('caps the prop calls of one cycle, most urgent first, and takes the rest next cycle', async () => {
    const events = [3, 2, 1].map((n) =>
      eventAt(NBA_PROPS, `b000000000000000000000000000000${n}`, inMinutes(10 * n)),
    );
    handler = standIn(events);
    const { source, context, advance, propRequests } = setup(['nba'], { propsMaxEvents: 2 });
    await source.pollOnce(context);
    expect(propRequests().map((url) => url.pathname.split('/')[5])).toEqual([
      'b0000000000000000000000000000001',
      'b0000000000000000000000000000002',
    ]);
    requests.length = 0;
    advance(30_000);
    await source.pollOnce(context);
    expect(propRequests().map((url) => url.pathname.split('/')[5])).toEqual([
      'b0000000000000000000000000000003',
    ]);
  });

  it('counts each call’s cost (x-requests-last, else markets answered × regions) and keeps within the 24-hour budget', async () => {
    const first = eventAt(NBA_PROPS, 'c0000000000000000000000000000001', inMinutes(20));
    const second = eventAt(NBA_PROPS, 'c0000000000000000000000000000002', inMinutes(30));
    const third = eventAt(NBA_PROPS, 'c0000000000000000000000000000003', inMinutes(40));
    handler = standIn([first, second, third], (url): Record<string, string> =>
      url.pathname.includes('c0000000000000000000000000000001') ? { 'x-requests-last': '8' } : {},
    );
    // Each NBA call may cost up to 9 markets × 2 regions = 18: the second fits after the first's 8 (26 <= 30), the
    // third not after 8 + 10 (36 > 30).
    const { source, context, advance, propRequests, infos } = setup(['nba'], { propsBudget: 30 });
    await source.pollOnce(context);
    expect(propRequests()).toHaveLength(2);
    const calls = source.propLedger.recent(NOW).map((call) => [call.eventId, call.cost]);
    // The fixture answers 5 market keys (player_blocks among them): 5 × 2 regions = 10 without the header.
    expect(calls).toEqual([
      ['c0000000000000000000000000000001', 8],
      ['c0000000000000000000000000000002', 10],
    ]);
    expect(source.propLedger.spent(NOW)).toBe(18);
    expect(infos).toContain('odds api props skipped: 24-hour budget');
    // Until those calls are 24 hours old nothing more fits; the game lines go on.
    requests.length = 0;
    advance(MINUTE);
    await source.pollOnce(context);
    expect(requests.map((url) => url.pathname)).toEqual(['/v4/sports/basketball_nba/odds']);
    expect(source.propLedger.spent(NOW + 24 * HOUR - 1)).toBe(18);
    expect(source.propLedger.spent(NOW + 24 * HOUR)).toBe(0);
  });

  it('lets the tiers far from the start draw on part of the budget only, so the last hour always has its share', async () => {
    const urgent = eventAt(NBA_PROPS, 'f0000000000000000000000000000001', inMinutes(20));
    const far = [10, 11, 12].map((hours) =>
      eventAt(NBA_PROPS, `f00000000000000000000000000000${hours}`, inMinutes(hours * 60)),
    );
    handler = standIn([urgent, ...far]);
    // Budget 100: the rest of the window (6 to 24 hours out) may spend while 24-hour spending + 18 stays within 30.
    const { source, context, propRequests } = setup(['nba'], { propsBudget: 100 });
    await source.pollOnce(context);
    // urgent (10 spent), then 10 + 18 <= 30: the first far event (20 spent); 20 + 18 > 30: the other two wait.
    expect(propRequests().map((url) => url.pathname.split('/')[5])).toEqual([
      'f0000000000000000000000000000001',
      'f0000000000000000000000000000010',
    ]);
    expect(source.propLedger.spent(NOW)).toBe(20);
  });

  it('stops polling props once x-requests-remaining falls below the reserve; the game lines go on', async () => {
    const one = eventAt(NBA_PROPS, 'd0000000000000000000000000000001', inMinutes(20));
    const two = eventAt(NBA_PROPS, 'd0000000000000000000000000000002', inMinutes(30));
    let remaining = 12_000;
    handler = standIn([one, two], (url) => {
      if (url.pathname.includes('/events/')) remaining -= 1_500;
      return { 'x-requests-remaining': String(remaining) };
    });
    const { source, context, advance, propRequests, infos } = setup(['nba'], { propsReserve: 10_000 });
    expect(await source.pollOnce(context)).toBe(30_000);
    // 12,000 before the first prop call, 10,500 after it: still above; 9,000 after the second.
    expect(propRequests()).toHaveLength(2);
    requests.length = 0;
    advance(MINUTE);
    expect(await source.pollOnce(context)).toBe(30_000);
    expect(requests.map((url) => url.pathname)).toEqual(['/v4/sports/basketball_nba/odds']);
    expect(infos).toContain('odds api props paused: quota reserve');
  });

  it('turns props off with a budget of 0', async () => {
    handler = standIn([NBA_PROPS]);
    const { source, context, propRequests, engine } = setup(['nba'], { propsBudget: 0 });
    await source.pollOnce(context);
    expect(propRequests()).toEqual([]);
    expect(engine.store.eventCount).toBe(1);
  });

  it('pauses props on a 429 without slowing the game lines, and skips an event the API no longer knows', async () => {
    const gone = eventAt(NBA_PROPS, 'e0000000000000000000000000000001', inMinutes(20));
    const fine = eventAt(NBA_PROPS, 'e0000000000000000000000000000002', inMinutes(30));
    const answer = standIn([fine]);
    let limited = true;
    handler = (request, response) => {
      const url = new URL(request.url ?? '/', base);
      if (url.pathname === '/v4/sports/basketball_nba/odds') return send(response, slate(gone, fine));
      if (limited && url.pathname.includes('/events/'))
        return send(response, { message: 'Too many requests' }, { 'retry-after': '120' }, 429);
      answer(request, response);
    };
    const { source, context, advance, propRequests, warnings, engine } = setup();
    expect(await source.pollOnce(context)).toBe(30_000);
    expect(propRequests()).toHaveLength(1);
    expect(warnings).toContain('odds api props rate limited (429)');
    limited = false;
    requests.length = 0;
    advance(MINUTE);
    await source.pollOnce(context);
    expect(propRequests()).toEqual([]); // paused for Retry-After's 120 s
    advance(MINUTE + 1);
    await source.pollOnce(context);
    expect(propRequests().map((url) => url.pathname.split('/')[5])).toEqual([
      'e0000000000000000000000000000001',
      'e0000000000000000000000000000002',
    ]);
    expect(warnings).toContain('odds api props error'); // the 404 of the event it no longer knows
    expect(propMarkets(engine).length).toBeGreaterThan(0);
  });
});
