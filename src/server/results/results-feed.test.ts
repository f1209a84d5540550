import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeLegOnGame } from '#domain/bet-tracker.ts';
import { gradeGameMarket } from '#domain/grading.ts';
import { ResultsFeedSchema } from '#domain/schemas/results-feed.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { RESULTS_CACHE_MS, RESULTS_PER_MINUTE } from './results-feed.ts';

// GET /tools/results.json (issue 57, decision 256): the bet tracker's finals without a key, on the real app. Scores go
// through the engine's intake on a virtual clock, as the source sends them.

const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let board: HandBoard;
let finished: BoardEvent;
let live: BoardEvent;
let later: BoardEvent;

const score = (event: BoardEvent, extra: Record<string, unknown>) =>
  expect(app.engine.ingest({ kind: 'score', sourceEventId: event.source, ...extra })).toBe(true);
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
  score(live, { status: 'live', home: 1, away: 0, clock: 'P1', periods: { p1: { home: 1, away: 0 } } });
  score(finished, {
    status: 'final',
    home: 103,
    away: 100,
    periods: { h1: { home: 50, away: 52 }, full: { home: 103, away: 100 } },
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
    score(later, {
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

  it('carries no box score for a source that gives none, and says when it scores only the whole game', async () => {
    clock.advance(RESULTS_CACHE_MS);
    const body = ResultsFeedSchema.parse((await feed({}, '203.0.113.9')).json());
    const whole = body.games.find((game) => game.event_id === later.id)!;
    expect(whole).toMatchObject({ players: null, periods_reported: false });
  });
});
