import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeLegOnGame } from '#domain/bet-tracker.ts';
import { gradeGameMarket } from '#domain/grading.ts';
import { ResultsFeedSchema } from '#domain/schemas/results-feed.ts';
import { RECENT_FINAL_MS } from '#engine/scores.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import { RESULTS_CACHE_MS, RESULTS_PER_MINUTE } from './results-feed.ts';

// GET /tools/results.json (issue 57, decisions 256 and 283): the bet tracker's finals without a key, on the real app.
// Scores go through the engine's intake on a virtual clock, as the source sends them. The last block reads the finals
// an earlier app wrote to the history from a fresh app on the same database (an `api` instance, or a restart).

const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let board: HandBoard;
let finished: BoardEvent;
let live: BoardEvent;
let later: BoardEvent;

const feed = (headers: Record<string, string> = {}, ip = '203.0.113.7') =>
  app.inject({ method: 'GET', url: '/tools/results.json', headers, remoteAddress: ip });

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  board = new HandBoard(app, clock, 'rf');
  finished = board.addEvent({ startsInMs: 60_000 });
  live = board.addEvent({ startsInMs: 60_000, league: 'nhl' });
  later = board.addEvent({ startsInMs: 60_000 });
  board.roster(finished, [
    { id: 'rf-hale', name: 'Marcus Hale', team: 'home' },
    { id: 'rf-price', name: 'Devon Price', team: 'away' },
  ]);
  for (const event of [finished, live, later]) board.price(event, 'fanduel', 'moneyline', 'home', -110);
  clock.advance(61_000);
  for (const event of [finished, live, later]) board.start(event);
  clock.advance(1_000);
  board.score(live, { status: 'live', home: 1, away: 0, clock: 'P1', periods: { p1: { home: 1, away: 0 } } });
  board.final(finished, 103, 100, {
    periods: { h1: { home: 50, away: 52 } },
    players: {
      'rf-hale': { full: { player_points: 27, player_double_double: 0 }, q1: { player_points: 7 } },
      'rf-price': null,
    },
  });
  board.end(finished);
  await board.flush();
});

afterAll(async () => {
  await app.close();
});

describe('GET /tools/results.json', () => {
  it('carries every final with its periods, and no live game, without a key', async () => {
    const response = await feed();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['cache-control']).toBe(`public, max-age=${RESULTS_CACHE_MS / 1000}`);
    const body = ResultsFeedSchema.parse(response.json());
    expect(body.window_hours).toBe(72);
    expect(body.games).toEqual([
      {
        event_id: finished.id,
        sport: 'basketball',
        league: 'nba',
        home_team: expect.any(String),
        away_team: expect.any(String),
        commence_time: expect.any(String),
        completed_at: new Date(clock.now()).toISOString(),
        periods: { h1: { home: 50, away: 52 }, full: { home: 103, away: 100 } },
        periods_reported: true,
        // The box score, as much as grading a prop needs: who did not play is null (his props are void).
        players: [
          {
            id: 'rf-hale',
            name: 'Marcus Hale',
            periods: { full: { player_points: 27, player_double_double: 0 }, q1: { player_points: 7 } },
          },
          { id: 'rf-price', name: 'Devon Price', periods: null },
        ],
      },
    ]);
    // What the tracker grades with: home −3.5 lost by a 3-point win, the first half's away side won.
    const result = { periods: body.games[0]!.periods };
    expect(gradeGameMarket({ type: 'spread', period: 'full', point: -3.5 }, 'home', result)).toBe('lost');
    expect(gradeGameMarket({ type: 'moneyline', period: 'h1', point: null }, 'away', result)).toBe('won');
    // And a prop as the tracker grades it: Hale's 27 points beat 26.5; Price did not play, so his prop is void.
    const game = body.games[0]!;
    const prop = (player: string, playerId: string | null) =>
      gradeLegOnGame(
        {
          event_id: null,
          league: 'nba',
          home: game.home_team,
          away: game.away_team,
          starts_at: null,
          market: 'prop',
          period: 'full',
          line: 26.5,
          outcome: 'over',
          prop: { stat: 'player_points', player, player_id: playerId },
        },
        game,
      );
    expect(prop('Marcus Hale', 'rf-hale')).toBe('won');
    expect(prop('devon price', null)).toBe('void');
  });

  it('answers 304 to its ETag, and shows a new final once its cached answer is older than the cache time', async () => {
    const first = await feed({}, '203.0.113.8');
    const etag = first.headers.etag as string;
    expect((await feed({ 'if-none-match': etag }, '203.0.113.8')).statusCode).toBe(304);
    clock.advance(1_000);
    board.score(later, {
      status: 'final',
      home: 2,
      away: 2,
      periods: { full: { home: 2, away: 2 } },
      periodScores: false,
    });
    // Within the cache time the same bytes are served.
    expect((await feed({}, '203.0.113.8')).headers.etag).toBe(etag);
    clock.advance(RESULTS_CACHE_MS);
    const fresh = ResultsFeedSchema.parse((await feed({}, '203.0.113.8')).json());
    // Latest final first.
    expect(fresh.games.map((game) => game.event_id)).toEqual([later.id, finished.id]);
  });

  it(`answers 429 with Retry-After past ${RESULTS_PER_MINUTE} requests a minute from one address`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < RESULTS_PER_MINUTE + 1; i += 1)
      statuses.push((await feed({}, '198.51.100.9')).statusCode);
    expect(statuses.slice(0, RESULTS_PER_MINUTE).every((status) => status === 200)).toBe(true);
    const over = await feed({}, '198.51.100.9');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not limited by it.
    expect((await feed({}, '198.51.100.10')).statusCode).toBe(200);
  });

  it("answers the scoreboard's finals when the history cannot be read", async () => {
    const finalsSince = app.history.finalsSince.bind(app.history);
    let asked = 0;
    app.history.finalsSince = () => {
      asked += 1;
      return Promise.reject(new Error('the database is away'));
    };
    try {
      clock.advance(RESULTS_CACHE_MS);
      const response = await feed({}, '198.51.100.11');
      expect(response.statusCode).toBe(200);
      expect(asked).toBe(1);
      const body = ResultsFeedSchema.parse(response.json());
      const scoreboard = app.engine.scores
        .list()
        .filter((score) => score.status === 'final')
        .sort((a, b) => b.completedAt! - a.completedAt!)
        .map((score) => score.eventId);
      expect(scoreboard).toContain(finished.id);
      expect(body.games.map((game) => game.event_id)).toEqual(scoreboard);
    } finally {
      app.history.finalsSince = finalsSince;
    }
  });

  it('carries no box score for a source that gives none, and says when it scores only the whole game', async () => {
    clock.advance(RESULTS_CACHE_MS);
    const body = ResultsFeedSchema.parse((await feed({}, '203.0.113.9')).json());
    const whole = body.games.find((game) => game.event_id === later.id)!;
    expect(whole).toMatchObject({ players: null, periods_reported: false });
  });
});

describe('GET /tools/results.json from the history (decision 283)', () => {
  it('a fresh app on the same database, which never saw the games, serves the finals of its window from the history, merged with its own scoreboard', async () => {
    const start = Date.UTC(2026, 10, 23, 12);
    const clock = virtualClock(start);
    // One database for both apps: PGlite on disk in one DATA_DIR, or one PostgreSQL schema (the integration run).
    const config = trialTestConfig({ PGLITE_DIR: '' });
    const writer = await buildTestApp({ config, now: clock.now });
    const board = new HandBoard(writer, clock, 'rh');
    const old = board.addEvent({ startsInMs: 60_000, league: 'nhl' });
    const recent = board.addEvent({ startsInMs: 60_000 });
    for (const event of [old, recent]) board.price(event, 'fanduel', 'moneyline', 'home', -110);
    // Props on two of `recent`'s players: the box score the history keeps names them through their series.
    board.roster(recent, [
      { id: 'rh-hale', name: 'Marcus Hale', team: 'home' },
      { id: 'rh-price', name: 'Devon Price', team: 'away' },
    ]);
    for (const [player, stat] of [
      ['rh-hale', 'player_points'],
      ['rh-price', 'player_rebounds'],
    ] as const)
      for (const outcome of ['over', 'under'])
        board.price(recent, 'fanduel', 'prop', outcome, -110, { stat, player: { id: player }, point: 7.5 });
    clock.advance(61_000);
    for (const event of [old, recent]) board.start(event);
    clock.advance(1_000);
    const oldAt = clock.now();
    board.final(old, 2, 3, { periods: { p1: { home: 1, away: 0 } } });
    clock.advance(60_000);
    const recentAt = clock.now();
    board.final(recent, 103, 100, {
      periods: { h1: { home: 50, away: 52 } },
      players: { 'rh-hale': { full: { player_points: 27 } }, 'rh-price': null },
    });
    for (const event of [old, recent]) board.end(event);
    await board.flush();
    await writer.close();

    // Half a minute short of three days after the first final: both finals are in the window. The fresh app's
    // scoreboard is empty until `late`, a game of its own, gets its final, which the history has not written yet.
    clock.set(oldAt + RECENT_FINAL_MS - 30_000);
    const reader = await buildTestApp({ config, now: clock.now });
    try {
      await reader.ready();
      expect(reader.engine.scores.list()).toEqual([]);
      const readerBoard = new HandBoard(reader, clock, 'rl');
      const late = readerBoard.addEvent({ startsInMs: -60_000, live: true, league: 'epl' });
      clock.advance(1_000);
      readerBoard.final(late, 1, 1);
      const lateAt = clock.now();
      const feed = async () => {
        const response = await reader.inject({
          method: 'GET',
          url: '/tools/results.json',
          remoteAddress: '203.0.113.70',
        });
        expect(response.statusCode).toBe(200);
        return ResultsFeedSchema.parse(response.json());
      };
      const first = await feed();
      expect(first.games).toEqual([
        {
          event_id: late.id,
          sport: 'soccer',
          league: 'epl',
          home_team: 'rl Home 1',
          away_team: 'rl Away 1',
          commence_time: new Date(late.startsAt).toISOString(),
          completed_at: new Date(lateAt).toISOString(),
          periods: { full: { home: 1, away: 1 } },
          periods_reported: true,
          players: null,
        },
        {
          event_id: recent.id,
          sport: 'basketball',
          league: 'nba',
          home_team: 'rh Home 2',
          away_team: 'rh Away 2',
          commence_time: new Date(recent.startsAt).toISOString(),
          completed_at: new Date(recentAt).toISOString(),
          periods: { h1: { home: 50, away: 52 }, full: { home: 103, away: 100 } },
          periods_reported: true,
          // The history keeps the figures of who played; its prop series name them, and who did not play.
          players: [
            { id: 'rh-hale', name: 'Marcus Hale', periods: { full: { player_points: 27 } } },
            { id: 'rh-price', name: 'Devon Price', periods: null },
          ],
        },
        {
          event_id: old.id,
          sport: 'hockey',
          league: 'nhl',
          home_team: 'rh Home 1',
          away_team: 'rh Away 1',
          commence_time: new Date(old.startsAt).toISOString(),
          completed_at: new Date(oldAt).toISOString(),
          periods: { p1: { home: 1, away: 0 }, full: { home: 2, away: 3 } },
          periods_reported: true,
          players: null,
        },
      ]);
      // What the tracker grades with: the history's final settles a bet as the scoreboard's did.
      expect(
        gradeGameMarket({ type: 'spread', period: 'full', point: -3.5 }, 'home', {
          periods: first.games[1]!.periods,
        }),
      ).toBe('lost');

      // Once the first final is older than the window (and the cached answer has expired), it is left out; a final
      // both on the scoreboard and in the history is there once.
      await readerBoard.flush();
      clock.set(oldAt + RECENT_FINAL_MS + 1);
      const later = await feed();
      expect(later.games.map((game) => game.event_id)).toEqual([late.id, recent.id]);
    } finally {
      await reader.close();
    }
  });
});
