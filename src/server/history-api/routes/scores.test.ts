import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GradeResponseSchema, ScoresResponseSchema } from '#domain/schemas/api/scores.ts';
import { ResultsFeedSchema } from '#domain/schemas/results-feed.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';

// GET /v1/scores and POST /v1/grade (issue 57) on the real app: prices and scores go through the engine's intake on a
// virtual clock, the history writes the closing lines and the final, and the routes answer from them. Every expected
// figure is worked out by hand below.

const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let board: HandBoard;
const keys = { starter: '', pro: '' };
let finished: BoardEvent;
let live: BoardEvent;
/** Ended 100–96, scored only as a whole (`periodScores: false`, as The Odds API's finals). */
let wholeOnly: BoardEvent;
/** Priced (moneyline −110 both ways) and not started: no close yet. */
let upcoming: BoardEvent;

const get = (url: string, key = keys.pro) =>
  app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
const post = (payload: unknown, key = keys.pro) =>
  app.inject({ method: 'POST', url: '/v1/grade', payload: payload as object, headers: { 'x-api-key': key } });

/**
 * `finished` (NBA): two books hang home −3.5 / away +3.5, home −3 / away +3 and the moneyline at −110 both sides, so
 * the fair closing probability of every outcome is 0.5. It starts, ends 103–100 (h1 50–52) and is final.
 * `live`: priced as `finished`'s moneyline (fair close 0.5), started, 10–8 in the first quarter. `upcoming`: priced the
 * same, not started (no close).
 */
beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  board = new HandBoard(app, clock, 'sc');
  keys.starter = await createKey(app, 'starter');
  keys.pro = await createKey(app, 'pro');
  finished = board.addEvent({ startsInMs: 60_000 });
  live = board.addEvent({ startsInMs: 60_000 });
  wholeOnly = board.addEvent({ startsInMs: 60_000 });
  upcoming = board.addEvent({ startsInMs: 3_600_000 });
  board.roster(finished, [
    { id: 'sc-hale', name: 'Marcus Hale', team: 'home' },
    { id: 'sc-price', name: 'Devon Price', team: 'away' },
  ]);
  for (const book of ['fanduel', 'draftkings']) {
    for (const [home, away] of [
      [-3.5, 3.5],
      [-3, 3],
    ]) {
      board.price(finished, book, 'spread', 'home', -110, { point: home });
      board.price(finished, book, 'spread', 'away', -110, { point: away });
    }
    board.price(finished, book, 'moneyline', 'home', -110);
    board.price(finished, book, 'moneyline', 'away', -110);
    // Props at −110 both ways (fair 0.5): Hale's points 25.5 and first-quarter points 7.5, his double-double, Price's
    // points 19.5 (he will not play).
    const prop = (player: string, stat: string, outcome: string, point: number | null, period = 'full') =>
      board.price(finished, book, 'prop', outcome, -110, { stat, player: { id: player }, point, period });
    for (const outcome of ['over', 'under']) {
      prop('sc-hale', 'player_points', outcome, 25.5);
      prop('sc-hale', 'player_points', outcome, 7.5, 'q1');
      prop('sc-price', 'player_points', outcome, 19.5);
    }
    for (const outcome of ['yes', 'no']) prop('sc-hale', 'player_double_double', outcome, null);
    for (const event of [wholeOnly, live, upcoming]) {
      board.price(event, book, 'moneyline', 'home', -110);
      board.price(event, book, 'moneyline', 'away', -110);
    }
  }
  clock.advance(61_000);
  board.start(finished);
  board.start(live);
  clock.advance(1_000);
  board.score(live, {
    status: 'live',
    home: 10,
    away: 8,
    clock: 'Q1',
    periods: { q1: { home: 10, away: 8 } },
  });
  board.final(finished, 103, 100, {
    periods: { h1: { home: 50, away: 52 } },
    players: {
      'sc-hale': { full: { player_points: 27, player_double_double: 0 }, q1: { player_points: 7 } },
      'sc-price': null,
    },
  });
  board.start(wholeOnly);
  board.score(wholeOnly, { status: 'final', home: 100, away: 96, periodScores: false });
  board.end(finished);
  board.end(wholeOnly);
  await board.flush();
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/scores', () => {
  it('lists live games first, then finals, with periods and clock, as its schema says', async () => {
    const answer = await get('/v1/scores');
    expect(answer.statusCode).toBe(200);
    const { scores } = ScoresResponseSchema.parse(answer.json());
    expect(scores.map((s) => [s.event_id, s.status, s.score])).toEqual([
      [live.id, 'live', { home: 10, away: 8 }],
      [finished.id, 'final', { home: 103, away: 100 }],
      [wholeOnly.id, 'final', { home: 100, away: 96 }],
    ]);
    expect(scores[0]).toMatchObject({
      clock: 'Q1',
      completed_at: null,
      periods: { q1: { home: 10, away: 8 } },
    });
    expect(scores[1]).toMatchObject({ clock: null, periods: { h1: { home: 50, away: 52 } } });
    expect(scores[1]!.completed_at).toBe(new Date(clock.now()).toISOString());
    // The finals' box scores: the simulator-like source gives its players' figures, the whole-game one none.
    expect(scores[1]!.players).toEqual([
      {
        player_id: 'sc-hale',
        name: 'Marcus Hale',
        team: 'home',
        played: true,
        periods: { full: { player_points: 27, player_double_double: 0 }, q1: { player_points: 7 } },
      },
      { player_id: 'sc-price', name: 'Devon Price', team: 'away', played: false, periods: {} },
    ]);
    expect(scores[2]).toMatchObject({
      periods_reported: false,
      periods: { full: { home: 100, away: 96 } },
      players: null,
    });
    expect(scores[0]).toMatchObject({ periods_reported: true, players: null });
  });

  it('filters by status, event and league like the other routes', async () => {
    const ids = async (query: string) =>
      ((await get(`/v1/scores?${query}`)).json() as { scores: { event_id: string }[] }).scores.map(
        (s) => s.event_id,
      );
    expect(await ids('status=final')).toEqual([finished.id, wholeOnly.id]);
    expect(await ids(`event_id=${encodeURIComponent(live.id)}`)).toEqual([live.id]);
    expect(await ids('league=nhl')).toEqual([]);
    expect((await get('/v1/scores?league=xfl')).statusCode).toBe(400);
  });

  it('gives a Starter key the finals (as the free results feed) and no live game (decision 256)', async () => {
    const answer = await get('/v1/scores', keys.starter);
    expect(answer.statusCode).toBe(200);
    const body = ScoresResponseSchema.parse(answer.json());
    expect(body.includes_live).toBe(false);
    expect(body.scores.map((s) => [s.event_id, s.status])).toEqual([
      [finished.id, 'final'],
      [wholeOnly.id, 'final'],
    ]);
    // Every final of the public feed, with the same periods.
    const feed = ResultsFeedSchema.parse((await app.inject({ url: '/tools/results.json' })).json());
    expect(feed.games.map((game) => [game.event_id, game.periods])).toEqual(
      body.scores.map((s) => [s.event_id, s.periods]),
    );
    expect((await get('/v1/scores')).json()).toMatchObject({ includes_live: true });
  });

  it('answers 403 plan-feature to a Starter key asking for live games, naming the plans that include it', async () => {
    const answer = await get('/v1/scores?status=live', keys.starter);
    expect(answer.statusCode).toBe(403);
    expect(answer.headers['content-type']).toContain('application/problem+json');
    expect(answer.json()).toMatchObject({
      feature: 'scores-and-grading',
      required_plan: 'pro',
      plans: ['pro', 'elite', 'enterprise'],
    });
  });
});

describe('POST /v1/grade', () => {
  const leg = (event: BoardEvent, extra: Record<string, unknown>) => ({ event_id: event.id, ...extra });

  it('grades singles with payout, profit and CLV against the fair close (0.5 here)', async () => {
    const answer = await post({
      bets: [
        { legs: [leg(finished, { market: 'spread', line: -3.5, outcome: 'away' })], price: -110, stake: 110 },
        { legs: [leg(finished, { market: 'spread', line: -3, outcome: 'home' })], price: '+105', stake: 50 },
        { legs: [leg(finished, { market: 'moneyline', outcome: 'home' })], decimal_odds: 2.1, stake: 10 },
        {
          legs: [leg(finished, { market: 'spread', period: 'h1', line: 1.5, outcome: 'home' })],
          price: -110,
          stake: 11,
        },
      ],
    });
    expect(answer.statusCode).toBe(200);
    const { results } = GradeResponseSchema.parse(answer.json());
    // Away +3.5 with a 3-point loss: won; $110 at −110 pays $210. CLV: 1.90909… × 0.5 − 1 = −4.545 %.
    expect(results[0]).toMatchObject({
      status: 'graded',
      result: 'won',
      payout: 210,
      profit: 100,
      clv_pct: -4.545,
    });
    expect(results[0]!.legs[0]).toMatchObject({
      status: 'graded',
      result: 'won',
      fair_closing_probability: 0.5,
    });
    // Home −3 winning by 3: a push, the stake back.
    expect(results[1]).toMatchObject({ result: 'push', payout: 50, profit: 0, clv_pct: 2.5 });
    expect(results[2]).toMatchObject({ result: 'won', payout: 21, profit: 11, clv_pct: 5 });
    // First half: home +1.5 lost by 2. No closing line was hung on it: no CLV.
    expect(results[3]).toMatchObject({ result: 'lost', payout: 0, profit: -11, clv_pct: null });
  });

  it('reprices a parlay without its pushed leg, and says a bet on a game not final is pending', async () => {
    const answer = await post({
      bets: [
        {
          legs: [
            leg(finished, { market: 'spread', line: -3, outcome: 'home', price: -110 }),
            leg(finished, { market: 'moneyline', outcome: 'home', price: '+100' }),
          ],
          decimal_odds: 3.8,
          stake: 10,
        },
        { legs: [leg(live, { market: 'moneyline', outcome: 'home' })], price: -150, stake: 15 },
        { legs: [{ event_id: 'nope', market: 'moneyline', outcome: 'home' }], price: -150, stake: 15 },
        { legs: [leg(finished, { market: 'total', line: 200.5, outcome: 'home' })], price: -110, stake: 1 },
      ],
    });
    const { results } = GradeResponseSchema.parse(answer.json());
    // The push drops out: the ticket is paid at the moneyline leg's 2.0.
    expect(results[0]).toMatchObject({ result: 'won', settled_decimal: 2, payout: 20, profit: 10 });
    expect(results[0]!.legs.map((l) => l.result)).toEqual(['push', 'won']);
    expect(results[1]).toMatchObject({ status: 'pending', result: null, payout: null });
    expect(results[2]).toMatchObject({ status: 'unknown_event', result: null });
    expect(results[3]).toMatchObject({ status: 'outcome_not_in_market', result: null });
  });

  it('grades props from the box score: by name or id, a period, yes/no, void for a player who did not play', async () => {
    const prop = (player: string, stat: string, outcome: string, line?: number, period?: string) =>
      leg(finished, {
        market: 'prop',
        stat,
        player,
        outcome,
        ...(line === undefined ? {} : { line }),
        ...(period ? { period } : {}),
      });
    const answer = await post({
      bets: [
        { legs: [prop('marcus hale', 'player_points', 'over', 25.5)], price: -110, stake: 110 },
        { legs: [prop('sc-hale', 'player_points', 'under', 7.5, 'q1')], price: -110, stake: 110 },
        { legs: [prop('Marcus Hale', 'player_double_double', 'yes')], price: '+250', stake: 10 },
        { legs: [prop('Devon Price', 'player_points', 'over', 19.5)], price: -110, stake: 11 },
        {
          legs: [
            { ...prop('Devon Price', 'player_points', 'under', 19.5), price: -110 },
            leg(finished, { market: 'spread', line: -3.5, outcome: 'away', price: -110 }),
          ],
          decimal_odds: 3.64,
          stake: 10,
        },
        { legs: [prop('Nobody Here', 'player_points', 'over', 10.5)], price: -110, stake: 1 },
      ],
    });
    expect(answer.statusCode).toBe(200);
    const { results } = GradeResponseSchema.parse(answer.json());
    // 27 points over 25.5: won, $110 at −110 pays $210; CLV against the fair 0.5 as for game lines.
    expect(results[0]).toMatchObject({ status: 'graded', result: 'won', payout: 210, clv_pct: -4.545 });
    expect(results[0]!.legs[0]!.fair_closing_probability).toBe(0.5);
    // 7 first-quarter points under 7.5: won.
    expect(results[1]).toMatchObject({ result: 'won', payout: 210 });
    // No double-double: yes lost.
    expect(results[2]).toMatchObject({ result: 'lost', payout: 0, profit: -10 });
    // Price did not play: void, the stake back; in a parlay his leg drops out and the spread leg is paid alone.
    expect(results[3]).toMatchObject({ result: 'void', payout: 11, profit: 0 });
    expect(results[4]!.legs.map((l) => l.result)).toEqual(['void', 'won']);
    expect(results[4]).toMatchObject({ result: 'won', settled_decimal: 1.909091, payout: 19.09 });
    expect(results[5]).toMatchObject({ status: 'unknown_player', result: null });
  });

  it('says in words which player it could not find, with the players of the event the name may mean', async () => {
    const prop = (player: string) =>
      leg(finished, { market: 'prop', stat: 'player_points', player, outcome: 'over', line: 25.5 });
    const answer = await post({
      bets: [
        { legs: [prop('Marcus Hail')], price: -110, stake: 10 },
        { legs: [prop('sc-hal')], price: -110, stake: 10 },
        { legs: [prop('Nobody Here')], price: -110, stake: 10 },
        {
          legs: [
            leg(finished, { market: 'moneyline', outcome: 'home', price: -110 }),
            { ...prop('Devin Prize'), price: -110 },
          ],
          decimal_odds: 3.64,
          stake: 10,
        },
      ],
    });
    expect(answer.statusCode).toBe(200);
    const { results } = GradeResponseSchema.parse(answer.json());
    const hale = { id: 'sc-hale', name: 'Marcus Hale' };
    // One letter off the name, or off the id: Hale is the player meant.
    expect(results[0]).toMatchObject({
      status: 'unknown_player',
      detail:
        'No player named “Marcus Hail” in this event’s props or box score; did you mean Marcus Hale (sc-hale)?',
    });
    expect(results[0]!.legs[0]).toMatchObject({ status: 'unknown_player', near_players: [hale] });
    expect(results[1]!.legs[0]!.near_players).toEqual([hale]);
    // Nobody close: the words say to check the spelling or send the id, and the list is empty.
    expect(results[2]!.legs[0]).toMatchObject({
      near_players: [],
      detail:
        'No player named “Nobody Here” in this event’s props or box score; check the spelling, or send the player’s id.',
    });
    // A parlay names the leg; its graded leg has no detail.
    expect(results[3]).toMatchObject({ status: 'unknown_player', result: null });
    expect(results[3]!.detail).toMatch(/^Leg 2: No player named “Devin Prize”.*Devon Price \(sc-price\)\?$/);
    expect(results[3]!.legs[0]).not.toHaveProperty('detail');
    expect(results[3]!.legs[0]).not.toHaveProperty('near_players');
    // Graded bets carry neither.
    const graded = GradeResponseSchema.parse(
      (await post({ bets: [{ legs: [prop('Marcus Hale')], price: -110, stake: 10 }] })).json(),
    ).results[0]!;
    expect(graded).toMatchObject({ status: 'graded', result: 'won' });
    expect(graded).not.toHaveProperty('detail');
    expect(graded.legs[0]).not.toHaveProperty('near_players');
  });

  it('a parlay lost on its first leg: each leg with a close has its CLV, the ticket its own once every game has closed', async () => {
    const lostLeg = leg(finished, { market: 'moneyline', outcome: 'away', price: -110 });
    const answer = await post({
      bets: [
        {
          legs: [lostLeg, leg(upcoming, { market: 'moneyline', outcome: 'home', price: -110 })],
          decimal_odds: 3.64,
          stake: 10,
        },
        {
          legs: [lostLeg, leg(live, { market: 'moneyline', outcome: 'home', decimal_odds: 1.9 })],
          decimal_odds: 3.64,
          stake: 10,
        },
      ],
    });
    const { results } = GradeResponseSchema.parse(answer.json());
    // Away lost 103–100: the ticket is lost at once. Its first leg closed at 0.5: 1.90909… × 0.5 − 1 = −4.545 %.
    // The other game has not started: no close, so the ticket has no CLV yet.
    expect(results[0]).toMatchObject({ status: 'graded', result: 'lost', payout: 0, clv_pct: null });
    expect(results[0]!.legs).toEqual([
      {
        event_id: finished.id,
        status: 'graded',
        result: 'lost',
        fair_closing_probability: 0.5,
        clv_pct: -4.545,
      },
      {
        event_id: upcoming.id,
        status: 'pending',
        result: null,
        fair_closing_probability: null,
        clv_pct: null,
      },
    ]);
    // The other game has started (closed), not ended: both closes are known, the ticket's CLV is
    // 3.64 × 0.5 × 0.5 − 1 = −9 %; that leg's, its own decimal price taken as given, 1.9 × 0.5 − 1 = −5 %.
    expect(results[1]).toMatchObject({ status: 'graded', result: 'lost', clv_pct: -9 });
    expect(results[1]!.legs[1]).toEqual({
      event_id: live.id,
      status: 'pending',
      result: null,
      fair_closing_probability: 0.5,
      clv_pct: -5,
    });
    // A leg's price is American or decimal, not both.
    const both = await post({
      bets: [
        {
          legs: [{ ...lostLeg, decimal_odds: 1.9 }, leg(live, { market: 'moneyline', outcome: 'home' })],
          decimal_odds: 3.64,
          stake: 10,
        },
      ],
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().errors).toEqual({
      'bets.0.legs.0.price': ['Give at most one of price and decimal_odds'],
    });
  });

  it('leaves ungraded (not_graded) a period of a game its source scored only as a whole; a lost leg still loses', async () => {
    const answer = await post({
      bets: [
        { legs: [leg(wholeOnly, { market: 'moneyline', outcome: 'home' })], price: -110, stake: 11 },
        {
          legs: [leg(wholeOnly, { market: 'moneyline', period: 'h1', outcome: 'home' })],
          price: -110,
          stake: 11,
        },
        {
          legs: [
            leg(wholeOnly, { market: 'moneyline', outcome: 'away', price: -110 }),
            leg(wholeOnly, { market: 'total', period: 'q1', line: 50.5, outcome: 'over', price: -110 }),
          ],
          decimal_odds: 3.64,
          stake: 10,
        },
      ],
    });
    const { results } = GradeResponseSchema.parse(answer.json());
    expect(results[0]).toMatchObject({ status: 'graded', result: 'won', payout: 21 });
    expect(results[1]).toMatchObject({ status: 'not_graded', result: null, payout: null });
    expect(results[1]!.legs[0]).toMatchObject({ status: 'not_graded', result: null });
    // A lost leg still loses the parlay.
    expect(results[2]).toMatchObject({ status: 'graded', result: 'lost', payout: 0 });
  });

  it('refuses bad input with a 400 problem naming the field, and a Starter key with 403', async () => {
    const bad = await post({
      bets: [{ legs: [leg(finished, { market: 'spread', outcome: 'home' })], price: -110, stake: 10 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(Object.keys(bad.json().errors)).toEqual(['bets.0.legs.0.line']);
    const both = await post({
      bets: [
        {
          legs: [leg(finished, { market: 'moneyline', outcome: 'home' })],
          price: -110,
          decimal_odds: 2,
          stake: 1,
        },
      ],
    });
    expect(both.statusCode).toBe(400);
    const noStat = await post({
      bets: [
        {
          legs: [leg(finished, { market: 'prop', player: 'sc-hale', outcome: 'over', line: 25.5 })],
          price: -110,
          stake: 1,
        },
      ],
    });
    expect(noStat.statusCode).toBe(400);
    expect(Object.keys(noStat.json().errors)).toEqual(['bets.0.legs.0.stat']);
    const noLine = await post({
      bets: [
        {
          legs: [
            leg(finished, { market: 'prop', stat: 'player_points', player: 'sc-hale', outcome: 'over' }),
          ],
          price: -110,
          stake: 1,
        },
      ],
    });
    expect(Object.keys(noLine.json().errors)).toEqual(['bets.0.legs.0.line']);
    const starter = await post(
      { bets: [{ legs: [leg(finished, { market: 'moneyline', outcome: 'home' })], price: -110, stake: 1 }] },
      keys.starter,
    );
    expect(starter.statusCode).toBe(403);
  });
});

// Decisions 210 and 283: an `api` instance, or a server started after a game ended, lists that final from the history
// as the public results feed does, with its box score (the players named by their prop series).
describe('GET /v1/scores from the history', () => {
  it("a fresh app on the same database lists the finals it never saw, box score included, beside its scoreboard's", async () => {
    const start = Date.UTC(2026, 10, 23, 12);
    const at = virtualClock(start);
    const config = trialTestConfig({ PGLITE_DIR: '' });
    const writer = await buildTestApp({ config, now: at.now });
    const writerBoard = new HandBoard(writer, at, 'sh');
    const game = writerBoard.addEvent({ startsInMs: 60_000 });
    writerBoard.roster(game, [
      { id: 'sh-hale', name: 'Marcus Hale', team: 'home' },
      { id: 'sh-price', name: 'Devon Price', team: 'away' },
    ]);
    for (const outcome of ['over', 'under']) {
      writerBoard.price(game, 'fanduel', 'prop', outcome, -110, {
        stat: 'player_points',
        player: { id: 'sh-hale' },
        point: 25.5,
      });
      writerBoard.price(game, 'fanduel', 'prop', outcome, -110, {
        stat: 'player_points',
        player: { id: 'sh-price' },
        point: 19.5,
      });
    }
    at.advance(61_000);
    writerBoard.start(game);
    at.advance(1_000);
    writerBoard.final(game, 103, 100, {
      periods: { h1: { home: 50, away: 52 } },
      players: { 'sh-hale': { full: { player_points: 27 } }, 'sh-price': null },
    });
    const completedAt = at.now();
    writerBoard.end(game);
    await writerBoard.flush();
    const seen = ScoresResponseSchema.parse(
      (
        await writer.inject({
          method: 'GET',
          url: '/v1/scores?status=final',
          headers: { 'x-api-key': await createKey(writer, 'pro') },
        })
      ).json(),
    ).scores.find((score) => score.event_id === game.id)!;
    await writer.close();

    at.advance(60_000);
    const reader = await buildTestApp({ config, now: at.now });
    try {
      await reader.ready();
      expect(reader.engine.scores.list()).toEqual([]);
      const read = async (plan: 'starter' | 'pro') =>
        ScoresResponseSchema.parse(
          (
            await reader.inject({
              method: 'GET',
              url: '/v1/scores',
              headers: { 'x-api-key': await createKey(reader, plan) },
            })
          ).json(),
        ).scores;
      for (const plan of ['starter', 'pro'] as const) {
        const [final, ...others] = await read(plan);
        expect(others).toEqual([]);
        // What the writer's scoreboard showed, but for when the source last saw it (the final's arrival here).
        expect(final).toEqual({ ...seen, updated_at: new Date(completedAt).toISOString() });
        expect(final!.players).toEqual([
          {
            player_id: 'sh-hale',
            name: 'Marcus Hale',
            team: 'home',
            played: true,
            periods: { full: { player_points: 27 } },
          },
          { player_id: 'sh-price', name: 'Devon Price', team: 'away', played: false, periods: {} },
        ]);
      }
      // Live games only: none from the history.
      const live = await reader.inject({
        method: 'GET',
        url: '/v1/scores?status=live',
        headers: { 'x-api-key': await createKey(reader, 'pro') },
      });
      expect(ScoresResponseSchema.parse(live.json()).scores).toEqual([]);
    } finally {
      await reader.close();
    }
  });
});
