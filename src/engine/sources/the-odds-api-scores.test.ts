import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OddsEngine } from '../engine.ts';
import { TheOddsApiSource } from './the-odds-api.ts';
import type { SourceContext } from './types.ts';

// The Odds API's scores endpoint (decision 262) against a local HTTP server answering in its documented format
// (`GET /v4/sports/{sport}/scores?daysFrom=3`: id, sport_key, commence_time, completed, home_team, away_team,
// scores [{name, score}] or null, last_update). tests/fixtures holds our own answers: the NBA odds of
// the-odds-api-nba.json (Lakers–Celtics from 01:10, Warriors–Nuggets from 03:10), their scores at 03:40 (the first
// game completed 112–108, the second in play 54–60, one upcoming, one of two days ago) and at 05:45 (the second
// completed 117–121).

let PORT = 0;
const fixture = (name: string) => readFileSync(path.resolve('tests/fixtures', name));
const at = (iso: string) => Date.parse(iso);

let server: Server;
const requests: URL[] = [];
/** What the stand-in answers now: the odds (a fixture's name, or none: no event) and the scores fixture. */
let odds: string | null = 'the-odds-api-nba.json';
let scores = 'the-odds-api-nba-scores.json';
let scoresStatus = 200;

function answer(response: ServerResponse, body: Buffer | string, status = 200) {
  response.writeHead(status, { 'content-type': 'application/json', 'x-requests-remaining': '4800' });
  response.end(body);
}

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${PORT}`);
    requests.push(url);
    if (url.pathname === '/v4/sports/basketball_nba/odds')
      return answer(response, odds ? fixture(odds) : '[]');
    if (url.pathname === '/v4/sports/basketball_nba/scores')
      return answer(response, fixture(scores), scoresStatus);
    answer(response, '[]', 404);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  PORT = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests.length = 0;
  odds = 'the-odds-api-nba.json';
  scores = 'the-odds-api-nba-scores.json';
  scoresStatus = 200;
});

function setup(start: string, extra: Partial<ConstructorParameters<typeof TheOddsApiSource>[0]> = {}) {
  let now = at(start);
  const engine = new OddsEngine({ source: 'the-odds-api', now: () => now });
  engine.markReady();
  const context: SourceContext = {
    ingest: (message) => engine.ingest(message),
    drop: (reason) => engine.drop(reason),
    ready: () => engine.markReady(),
    now: () => now,
    log: { info: () => {}, warn: () => {} },
  };
  const source = new TheOddsApiSource({
    apiKey: 'test-key-123',
    baseUrl: `http://127.0.0.1:${PORT}`,
    leagues: ['nba'],
    propsBudget: 0,
    ...extra,
  });
  const scoreOf = (home: string) => engine.scores.list().find((score) => score.home.name === home);
  return {
    engine,
    source,
    scoreOf,
    poll: () => source.pollOnce(context),
    set: (iso: string) => {
      now = at(iso);
    },
  };
}

const scoreCalls = () => requests.filter((url) => url.pathname.endsWith('/scores'));

describe('The Odds API source: scores', () => {
  it('asks the scores endpoint of a league with a game started (daysFrom=3) and sends a completed game’s final and a live one’s score', async () => {
    const { engine, poll, scoreOf } = setup('2026-11-22T03:40:00Z');
    await poll();
    expect(scoreCalls()).toHaveLength(1);
    expect(Object.fromEntries(scoreCalls()[0]!.searchParams)).toEqual({
      apiKey: 'test-key-123',
      daysFrom: '3',
      dateFormat: 'iso',
    });
    expect(scoreOf('Los Angeles Lakers')).toMatchObject({
      status: 'final',
      score: { home: 112, away: 108 },
      periods: {},
      periodScores: false,
      players: null,
      updatedAt: at('2026-11-22T03:38:12Z'),
    });
    expect(scoreOf('Golden State Warriors')).toMatchObject({
      status: 'live',
      score: { home: 54, away: 60 },
      periodScores: false,
    });
    // The upcoming game (no scores) and the one of two days ago (not in the odds) give nothing, and no drop.
    expect(engine.scores.list()).toHaveLength(2);
    expect(engine.stats().drops.unknown_event).toBe(0);
    expect(engine.stats().drops.malformed).toBe(0);
  });

  it('holds the end of a started game gone from the odds until the scores endpoint completes it, then ends it', async () => {
    const { engine, poll, scoreOf, set } = setup('2026-11-22T03:40:00Z');
    await poll();
    // Both games leave the odds: the Lakers' (final already sent) ends now, the Warriors' waits for its final.
    odds = null;
    set('2026-11-22T03:42:00Z');
    await poll();
    expect(engine.store.events().map((event) => event.home.name)).toEqual(['Golden State Warriors']);
    expect(scoreOf('Golden State Warriors')).toMatchObject({ status: 'live' });
    scores = 'the-odds-api-nba-scores-later.json';
    set('2026-11-22T05:45:00Z');
    await poll();
    expect(engine.store.events()).toEqual([]);
    expect(scoreOf('Golden State Warriors')).toMatchObject({
      status: 'final',
      score: { home: 117, away: 121 },
    });
    expect(scoreOf('Los Angeles Lakers')).toMatchObject({ status: 'final' });
    expect(engine.stats().drops.unknown_event).toBe(0);
  });

  it('asks no more often than its interval, not before a game starts, and not at all with the interval at 0', async () => {
    const early = setup('2026-11-22T00:00:00Z');
    await early.poll();
    expect(scoreCalls()).toHaveLength(0);
    early.set('2026-11-22T03:40:00Z');
    await early.poll();
    early.set('2026-11-22T03:40:30Z');
    await early.poll();
    expect(scoreCalls()).toHaveLength(1);
    early.set('2026-11-22T03:41:00Z');
    await early.poll();
    expect(scoreCalls()).toHaveLength(2);
    requests.length = 0;
    const off = setup('2026-11-22T03:40:00Z', { scoresIntervalMs: 0 });
    await off.poll();
    expect(scoreCalls()).toHaveLength(0);
    // Without scores a game gone from the odds ends at once, as before.
    odds = null;
    off.set('2026-11-22T03:42:00Z');
    await off.poll();
    expect(off.engine.store.events()).toEqual([]);
  });

  it('ends a held game without a final once finalWaitMs has passed, and keeps polling through a failed scores call', async () => {
    const { engine, poll, set, scoreOf } = setup('2026-11-22T03:40:00Z', { finalWaitMs: 3_600_000 });
    scoresStatus = 500;
    await poll();
    expect(engine.scores.list()).toEqual([]);
    odds = null;
    set('2026-11-22T03:42:00Z');
    await poll();
    expect(engine.store.events()).toHaveLength(2);
    set('2026-11-22T04:43:00Z');
    await poll();
    expect(engine.store.events()).toEqual([]);
    expect(scoreOf('Golden State Warriors')).toBeUndefined();
  });
});
