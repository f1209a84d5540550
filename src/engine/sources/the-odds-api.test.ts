import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { OddsEngine } from '../engine.ts';
import { MAX_TIMER_MS } from '../ingest.ts';
import { TheOddsApiSource } from './the-odds-api.ts';
import type { SourceContext } from './types.ts';

// The Odds API v4 source against a local HTTP server answering in the documented format (tests/fixtures/ holds our own
// responses: real shapes, invented prices).

// The port the system picked when the server started (never a fixed one: two runs on one machine would collide).
let PORT = 0;
const NOW = Date.parse('2026-11-22T00:00:00Z');
const fixture = (name: string) => readFileSync(path.resolve('tests/fixtures', name));

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let handler: Handler;
const requests: URL[] = [];
let server: Server;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(new URL(request.url ?? '/', `http://127.0.0.1:${PORT}`));
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  PORT = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests.length = 0;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const json =
  (body: Buffer | string, headers: Record<string, string> = {}, status = 200): Handler =>
  (_request, response) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'x-requests-remaining': '480',
      'x-requests-used': '20',
      ...headers,
    });
    response.end(body);
  };

function setup(
  leagues: ('nba' | 'epl')[] = ['nba', 'epl'],
  extra: Partial<ConstructorParameters<typeof TheOddsApiSource>[0]> = {},
) {
  const engine = new OddsEngine({ source: 'the-odds-api', now: () => NOW });
  engine.markReady();
  const warnings: string[] = [];
  const context: SourceContext = {
    ingest: (message) => engine.ingest(message),
    drop: (reason) => engine.drop(reason),
    ready: () => engine.markReady(),
    now: () => NOW,
    log: { info: () => {}, warn: (_details, message) => warnings.push(message) },
  };
  const source = new TheOddsApiSource({
    apiKey: 'test-key-123',
    baseUrl: `http://127.0.0.1:${PORT}`,
    intervalMs: 30_000,
    leagues,
    ...extra,
  });
  const feed = () => {
    engine.tick();
    return ArbFeedSchema.parse(JSON.parse(engine.latest!.body.toString('utf8')));
  };
  return { engine, context, source, feed, warnings };
}

const byPath: Handler = (request, response) => {
  if (request.url?.startsWith('/v4/sports/basketball_nba/odds'))
    return json(fixture('the-odds-api-nba.json'))(request, response);
  if (request.url?.startsWith('/v4/sports/soccer_epl/odds'))
    return json(fixture('the-odds-api-epl.json'))(request, response);
  response.writeHead(404).end('[]');
};

describe('The Odds API source', () => {
  it('asks for us,us2 regions, h2h/spreads/totals, American odds and links, per league', async () => {
    handler = byPath;
    const { source, context } = setup();
    await source.pollOnce(context);
    // Then the scores of the league with a game in play (the EPL's; decision 262).
    expect(requests.map((url) => url.pathname)).toEqual([
      '/v4/sports/basketball_nba/odds',
      '/v4/sports/soccer_epl/odds',
      '/v4/sports/soccer_epl/scores',
    ]);
    const query = Object.fromEntries(requests[0]!.searchParams);
    expect(query).toMatchObject({
      apiKey: 'test-key-123',
      regions: 'us,us2',
      markets: 'h2h,spreads,totals',
      oddsFormat: 'american',
      includeLinks: 'true',
    });
  });

  it('maps events, bookmakers and markets onto the catalogue and finds the arbs', async () => {
    handler = byPath;
    const { source, context, feed, engine } = setup();
    await source.pollOnce(context);
    const arbs = feed().arbs;
    const summary = arbs
      .filter((a) => a.edge_pct > 0)
      .map((a) => [a.market, a.sides.map((s) => `${s.sportsbook} ${s.price}`).join(' / '), a.edge_pct]);
    expect(summary).toEqual([
      ['Total 226.5', 'caesars +105 / draftkings +110', 3.734],
      ['Moneyline', 'fanduel +150 / caesars -130', 3.602],
      ['1X2', 'bodog +170 / betonline +260 / fanatics +190', 0.707],
    ]);
    const moneyline = arbs.find((a) => a.market === 'Moneyline')!;
    expect(moneyline.event).toMatchObject({
      live: false,
      date: '2026-11-22T01:10:00.000Z',
      teams: {
        away: { name: 'Boston Celtics', abbreviation: 'BOS' },
        home: { name: 'Los Angeles Lakers', abbreviation: 'LAL' },
      },
    });
    // {state} filled with the book's default state; the page rewrites it for the visitor.
    expect(moneyline.sides[0]!.links.desktop).toBe(
      'https://az.sportsbook.fanduel.com/addToBetslip?marketId=734.11&selectionId=101',
    );
    const soccer = arbs.find((a) => a.market === '1X2')!;
    expect(soccer.event.live).toBe(true);
    // Unmapped bookmakers (lowvig) are skipped: their 400/300 would be a false arb.
    expect(arbs.flatMap((a) => a.sides.map((s) => s.sportsbook))).not.toContain('lowvig');
    const drops = engine.stats().drops;
    expect(drops.unfilled_placeholder).toBe(2); // {wagerAmount}, as desktop and as mobile link
    expect(drops.bad_link).toBe(2); // javascript:, both links
    expect(drops.invalid_odds).toBe(1); // price 0
    expect(drops.american_out_of_range).toBe(1); // price -50
    const total = arbs.find((a) => a.market === 'Total 226.5')!;
    expect(total.sides.map((s) => s.links.desktop)).toEqual([null, null]);
  });

  it('ends events that disappear from the next response', async () => {
    let body: Buffer | string = fixture('the-odds-api-nba.json');
    handler = (request, response) => json(body)(request, response);
    const { source, context, engine } = setup(['nba']);
    await source.pollOnce(context);
    expect(engine.store.eventCount).toBe(2);
    body = '[]';
    await source.pollOnce(context);
    expect(engine.store.eventCount).toBe(0);
  });

  it('honours x-requests-remaining: slows down when low, stops when none are left', async () => {
    handler = json('[]', { 'x-requests-remaining': '10' });
    const { source, context } = setup(['nba'], { lowQuota: 50, lowQuotaIntervalMs: 300_000 });
    expect(await source.pollOnce(context)).toBe(300_000);
    expect(source.remaining).toBe(10);
    handler = json('[]', { 'x-requests-remaining': '0' });
    const second = setup(['nba', 'epl'], { maxBackoffMs: 600_000 });
    expect(await second.source.pollOnce(second.context)).toBe(600_000);
    expect(requests.filter((url) => url.pathname.includes('soccer_epl'))).toHaveLength(0);
  });

  it('backs off on 429 (Retry-After first, then exponentially) and recovers', async () => {
    handler = json('{"message":"Too many requests"}', { 'retry-after': '45' }, 429);
    const { source, context, warnings } = setup(['nba'], { intervalMs: 10_000, maxBackoffMs: 60_000 });
    expect(await source.pollOnce(context)).toBe(45_000);
    handler = json('{"message":"Too many requests"}', {}, 429);
    expect(await source.pollOnce(context)).toBe(20_000);
    handler = json('', {}, 500);
    expect(await source.pollOnce(context)).toBe(40_000);
    expect(await source.pollOnce(context)).toBe(60_000);
    handler = json('[]');
    expect(await source.pollOnce(context)).toBe(10_000);
    expect(warnings).toContain('odds api rate limited (429)');
    expect(warnings.join(' ')).not.toContain('test-key-123');
  });

  it('drops an event whose commence_time arrives as an implausible number, and keeps the others', async () => {
    const events = JSON.parse(fixture('the-odds-api-nba.json').toString('utf8')) as {
      commence_time: unknown;
    }[];
    events[0]!.commence_time = 9e15;
    handler = json(JSON.stringify(events));
    const { source, context, engine } = setup(['nba']);
    await source.pollOnce(context);
    expect(engine.stats().drops.time_out_of_range).toBe(1);
    expect(engine.store.eventCount).toBe(1);
  });

  it('keeps a numeric last_update as the price time, so a stale price stays stale', async () => {
    const events = JSON.parse(fixture('the-odds-api-nba.json').toString('utf8')) as {
      bookmakers: { last_update: unknown; markets: { last_update?: unknown }[] }[];
    }[];
    for (const bookmaker of events.flatMap((event) => event.bookmakers)) {
      bookmaker.last_update = NOW - 600_000;
      for (const market of bookmaker.markets) delete market.last_update;
    }
    handler = json(JSON.stringify(events));
    const { source, context, engine, feed } = setup(['nba']);
    await source.pollOnce(context);
    expect(engine.stats().accepted).toBeGreaterThan(2);
    expect(feed().arbs).toEqual([]);
    const market = engine.store.markets(engine.store.events()[0]!.id)[0]!;
    expect(engine.store.prices(market.key).map((price) => price.updatedAt)).toContain(NOW - 600_000);
  });

  it('never hands its timer a delay above 2^31 − 1 ms, whatever Retry-After says', async () => {
    handler = json('{"message":"Too many requests"}', { 'retry-after': '10000000000' }, 429);
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const { source, context } = setup(['nba']);
    source.start(context);
    await vi.waitFor(() =>
      expect(setTimeoutSpy.mock.calls.some((call) => (call[1] ?? 0) >= 300_000)).toBe(true),
    );
    source.stop();
    const delays = setTimeoutSpy.mock.calls.map((call) => call[1] ?? 0);
    expect(Math.max(...delays)).toBe(MAX_TIMER_MS);
  });

  it('refuses bodies over the byte cap before parsing, and non-JSON bodies', async () => {
    handler = json(`[${' '.repeat(5000)}]`);
    const { source, context, engine } = setup(['nba'], { maxBytes: 1000 });
    await source.pollOnce(context);
    expect(engine.stats().drops.payload_too_large).toBe(1);
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      response.end(' '.repeat(4000) + ']'); // chunked: no content-length, counted while reading
    };
    await source.pollOnce(context);
    expect(engine.stats().drops.payload_too_large).toBe(2);
    handler = json('<html>Bad gateway</html>');
    await source.pollOnce(context);
    expect(engine.stats().drops.not_json).toBe(1);
    expect(engine.store.eventCount).toBe(0);
  });

  it('starts, signals ready after the first cycle, and stops its timer', async () => {
    handler = byPath;
    const { source, context, engine } = setup(['nba']);
    engine.markReady = () => {
      ready = true;
    };
    let ready = false;
    source.start({ ...context, ready: () => engine.markReady() });
    for (let i = 0; i < 100 && !ready; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ready).toBe(true);
    expect(engine.store.eventCount).toBe(2);
    source.stop();
  });
});
