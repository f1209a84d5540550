import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  awaitsClose,
  betId,
  betIssues,
  closesWanted,
  gradeRequestBet,
  legClvPct,
  settleFromResults,
  type ParlayLeg,
  type TrackedBet,
} from '#domain/bet-tracker.ts';
import { GradeResponseSchema, ScoresResponseSchema, type GradeResponse } from '#domain/schemas/api/scores.ts';
import {
  ClosingFeedSchema,
  ResultsFeedSchema,
  type ClosingFeed,
  type ResultsFeed,
  type ResultsFeedGame,
} from '#domain/schemas/results-feed.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { homeMoneylineOf } from '#tests/support/tracked-bets.ts';

// GET /tools/closing.json (issue 57, decisions 289 and 310) over real HTTP: the fair close of the results feed's finals
// and of games started (in play), made by the app's own history writer from prices sent through the engine's intake,
// and the bet tracker's CLV from it equal, bet for bet, to what POST /v1/grade answers a Pro key for the same bets (sent
// as the page sends them), a parlay lost while its other game is in play included.

type GradeResult = GradeResponse['results'][number];

const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let origin: string;
let pro: string;
let starter: string;
let finished: BoardEvent;
let live: BoardEvent;
/** Priced, starting in an hour: not started. */
let ahead: BoardEvent;
let board: HandBoard;
let feed: ResultsFeed;
let closing: ClosingFeed;

/**
 * `finished` (NBA, ends 103–100): two books, the favourite's side dearer at one than the other, so that the fair close
 * is not a round 0.5: the spread at the home team's −3.5 and −3, the moneyline, Hale's points 25.5 and his
 * double-double. Nothing on the first half. `live` is in play (its moneyline −110 both ways: its close 0.5); `ahead`
 * is priced and starts in an hour.
 */
beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  board = new HandBoard(app, clock, 'cf');
  pro = await createKey(app, 'pro');
  starter = await createKey(app, 'starter');
  finished = board.addEvent({ startsInMs: 60_000 });
  live = board.addEvent({ startsInMs: 60_000 });
  ahead = board.addEvent({ startsInMs: 3_600_000 });
  board.roster(finished, [
    { id: 'cf-hale', name: 'Marcus Hale', team: 'home' },
    { id: 'cf-price', name: 'Devon Price', team: 'away' },
  ]);
  for (const [book, lean] of [
    ['fanduel', 0],
    ['draftkings', 8],
  ] as const) {
    board.price(finished, book, 'spread', 'home', -118 - lean, { point: -3.5 });
    board.price(finished, book, 'spread', 'away', lean === 0 ? -102 : 106, { point: 3.5 });
    board.price(finished, book, 'spread', 'home', -125, { point: -3 });
    board.price(finished, book, 'spread', 'away', 105, { point: 3 });
    board.price(finished, book, 'moneyline', 'home', -160 - lean);
    board.price(finished, book, 'moneyline', 'away', 140 + lean);
    const prop = (outcome: string, american: number, stat: string, point: number | null) =>
      board.price(finished, book, 'prop', outcome, american, { stat, player: { id: 'cf-hale' }, point });
    prop('over', -130 - lean, 'player_points', 25.5);
    prop('under', 110, 'player_points', 25.5);
    prop('yes', 240, 'player_double_double', null);
    prop('no', -300, 'player_double_double', null);
    board.price(live, book, 'moneyline', 'home', -110);
    board.price(live, book, 'moneyline', 'away', -110);
    board.price(ahead, book, 'moneyline', 'home', -120 - lean);
    board.price(ahead, book, 'moneyline', 'away', 100);
  }
  clock.advance(61_000);
  board.start(finished);
  board.start(live);
  clock.advance(1_000);
  expect(
    app.engine.ingest({
      kind: 'score',
      sourceEventId: finished.source,
      status: 'final',
      home: 103,
      away: 100,
      periods: { h1: { home: 50, away: 52 }, full: { home: 103, away: 100 } },
      players: { 'cf-hale': { full: { player_points: 27, player_double_double: 0 } }, 'cf-price': null },
    }),
  ).toBe(true);
  expect(
    app.engine.ingest({ kind: 'score', sourceEventId: live.source, status: 'live', home: 2, away: 0 }),
  ).toBe(true);
  board.end(finished);
  await board.flush();
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  feed = ResultsFeedSchema.parse(await (await fetch(`${origin}/tools/results.json`)).json());
  const answer = await fetch(
    `${origin}/tools/closing.json?events=${finished.id},${live.id},${ahead.id},nope`,
  );
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('public, max-age=15');
  closing = ClosingFeedSchema.parse(await answer.json());
});

afterAll(async () => {
  await app?.close();
});

/** The close of one game of the answer read in beforeAll. */
function closeOf(id: string) {
  return closing.games.find((game) => game.event_id === id)!.markets;
}

function gameOf(id: string): ResultsFeedGame {
  return feed.games.find((game) => game.event_id === id)!;
}

/** A tracked single on `finished` as the page keeps it. */
function single(extra: Partial<TrackedBet>): TrackedBet {
  const game = gameOf(finished.id);
  const base: Omit<TrackedBet, 'id'> = {
    group: null,
    kind: 'ev',
    placed_at: '2026-11-22T11:00:00.000Z',
    ...homeMoneylineOf(game),
    selection: 'a side',
    book: 'fanduel',
    decimal_odds: 1.65,
    american_odds: '-154',
    stake: 10_000,
    settlement: null,
    ...extra,
  };
  return { id: betId(base), ...base };
}

const hale = (stat: 'player_points' | 'player_double_double', player = 'cf-hale') => ({
  stat,
  player: player === 'cf-hale' ? 'Marcus Hale' : player,
  player_id: player === 'cf-hale' ? 'cf-hale' : null,
});

describe('GET /tools/closing.json', () => {
  it('carries the fair close of the final and of the game in play asked for (not the game ahead, not an unknown id)', () => {
    expect(closing.games.map((game) => game.event_id)).toEqual([finished.id, live.id].sort());
    expect(feed.games.map((game) => game.event_id)).not.toContain(live.id);
    // The game in play: its close, the last prices before its start (decision 310).
    expect(closeOf(live.id)).toEqual([
      { market: 'moneyline', period: 'full', line: null, fair: { home: 0.5, away: 0.5 } },
    ]);
    const markets = closeOf(finished.id);
    expect(markets.map((m) => [m.market, m.period, m.line, m.stat ?? null, m.player ?? null]).sort()).toEqual(
      [
        ['moneyline', 'full', null, null, null],
        ['prop', 'full', 25.5, 'player_points', 'cf-hale'],
        ['prop', 'full', null, 'player_double_double', 'cf-hale'],
        ['spread', 'full', -3, null, null],
        ['spread', 'full', -3.5, null, null],
      ].sort(),
    );
    // Each market's probabilities add up to one (devigged), none a round half.
    for (const market of markets) {
      const ps = Object.values(market.fair);
      expect(ps.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      expect(ps).not.toContain(0.5);
    }
  });

  it('is the close GET /v1/scores?closing=true gives for the game in play on a plan that lists games in play', async () => {
    // The game in play (its closing lines taken): its close on the plan that lists games in play, the public one
    // (decision 310); the Starter plan lists no game in play, so it has none here (the public route has it).
    const inPlay = async (key: string) =>
      ScoresResponseSchema.parse(
        await (
          await fetch(`${origin}/v1/scores?event_id=${live.id}&closing=true`, {
            headers: { 'x-api-key': key },
          })
        ).json(),
      ).scores;
    expect((await inPlay(pro)).map((score) => [score.status, score.closing])).toEqual([
      ['live', closeOf(live.id)],
    ]);
    expect(await inPlay(starter)).toEqual([]);
  });

  it('refuses a request without events, or with too many, with a clear problem; limits a client like the results', async () => {
    const none = await fetch(`${origin}/tools/closing.json`);
    expect(none.status).toBe(400);
    expect(((await none.json()) as { detail: string }).detail).toMatch(/events: 1 to 50 event ids/);
    const many = Array.from({ length: 51 }, (_, n) => `e${n}`).join(',');
    expect((await fetch(`${origin}/tools/closing.json?events=${many}`)).status).toBe(400);
    const ask = () =>
      app.inject({ url: `/tools/closing.json?events=${finished.id}`, remoteAddress: '10.9.8.7' });
    for (let n = 0; n < 30; n += 1) expect((await ask()).statusCode).toBe(200);
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('CLV in the tracker equals POST /v1/grade’s, bet for bet', () => {
  it('singles, props, a parlay and bets without a close: the same result, payout and CLV', async () => {
    const legOf = (bet: TrackedBet, price: number): ParlayLeg => ({
      sport: bet.sport,
      league: bet.league,
      event_id: bet.event_id,
      home: bet.home,
      away: bet.away,
      starts_at: bet.starts_at,
      market: bet.market as ParlayLeg['market'],
      period: bet.period,
      line: bet.line,
      outcome: bet.outcome!,
      selection: bet.selection,
      ...(bet.prop ? { prop: bet.prop } : {}),
      decimal_odds: price,
      result: null,
    });
    const awaySpread = single({ market: 'spread', line: 3.5, outcome: 'away', decimal_odds: 1.9524 });
    const homeSpread = single({ market: 'spread', line: -3, outcome: 'home', decimal_odds: 1.8 });
    const moneyline = single({ decimal_odds: 1.65 });
    const bets = [
      awaySpread,
      homeSpread,
      moneyline,
      single({ outcome: 'away', decimal_odds: 2.5 }),
      single({ market: 'prop', line: 25.5, outcome: 'over', prop: hale('player_points'), decimal_odds: 1.8 }),
      // By name, as a bet typed by hand names him (the API is sent the name).
      single({
        market: 'prop',
        line: 25.5,
        outcome: 'under',
        prop: hale('player_points', 'marcus HALE'),
        decimal_odds: 2.2,
      }),
      single({
        market: 'prop',
        line: null,
        outcome: 'yes',
        prop: hale('player_double_double'),
        decimal_odds: 3.6,
      }),
      // No close: a line no book hung, and the first half nobody priced.
      single({ market: 'spread', line: 7.5, outcome: 'away', decimal_odds: 1.9 }),
      single({ period: 'h1', outcome: 'away', decimal_odds: 2 }),
      {
        ...single({}),
        kind: 'parlay',
        market: 'parlay',
        event_id: null,
        home: '',
        away: '',
        starts_at: null,
        outcome: null,
        selection: '2-leg parlay',
        decimal_odds: 3.3,
        legs: [legOf(awaySpread, 1.9524), legOf(moneyline, 1.65)],
      } satisfies TrackedBet,
    ];
    const closes = new Map([[finished.id, closeOf(finished.id)]]);
    const tracked = settleFromResults(bets, feed.games, closes);
    const answer = await fetch(`${origin}/v1/grade`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': pro },
      body: JSON.stringify({ bets: bets.map(gradeRequestBet) }),
    });
    expect(answer.status).toBe(200);
    const { results } = GradeResponseSchema.parse(await answer.json());
    expect(tracked.map((bet) => bet.settlement?.result)).toEqual(results.map((r) => r.result));
    expect(tracked.map((bet) => bet.settlement?.payout)).toEqual(
      results.map((r) => Math.round(r.payout! * 100)),
    );
    expect(tracked.map((bet) => bet.settlement?.clv_pct)).toEqual(results.map((r) => r.clv_pct));
    // The close was there for the first seven and the parlay, not round figures; none for the two without.
    expect(results.map((r) => r.clv_pct === null)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      false,
    ]);
    expect(results[0]!.clv_pct).not.toBe(results[1]!.clv_pct);
    // A parlay leg keeps its close, the API's fair closing probability of the leg.
    expect(tracked[9]!.legs!.map((leg) => leg.closing_probability)).toEqual(
      results[9]!.legs.map((leg) => leg.fair_closing_probability),
    );
  });

  it('a prop on a player the box score does not name: the API answers unknown_player, the tracker says so', async () => {
    const typo = single({
      market: 'prop',
      line: 25.5,
      outcome: 'over',
      prop: hale('player_points', 'Marcus Hail'),
      decimal_odds: 1.8,
    });
    const answer = await fetch(`${origin}/v1/grade`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': pro },
      body: JSON.stringify({ bets: [gradeRequestBet(typo)] }),
    });
    const { results } = GradeResponseSchema.parse(await answer.json());
    expect(results[0]).toMatchObject({ status: 'unknown_player', result: null });
    const closes = new Map([[finished.id, closeOf(finished.id)]]);
    expect(settleFromResults([typo], feed.games, closes)[0]!.settlement).toBeNull();
    // The same players named close to it, by the same function (nearPlayers): the API with their ids.
    expect(results[0]!.legs[0]!.near_players).toEqual([{ id: 'cf-hale', name: 'Marcus Hale' }]);
    expect(results[0]!.detail).toBe(
      'No player named “Marcus Hail” in this event’s props or box score; did you mean Marcus Hale (cf-hale)?',
    );
    expect(betIssues(typo, feed.games)).toEqual([
      expect.objectContaining({ kind: results[0]!.status, near: ['Marcus Hale'] }),
    ]);
  });

  // Last of this file's tests on `live`: it ends here.
  it('a parlay lost while its other game is in play: the API’s ticket CLV at once (decision 310), the same once it ends', async () => {
    const lostSide = single({ outcome: 'away', decimal_odds: 2.5 });
    const onGame = (event: BoardEvent): TrackedBet => ({
      ...lostSide,
      event_id: event.id,
      home: app.engine.store.event(event.id)!.home.name,
      away: app.engine.store.event(event.id)!.away.name,
      starts_at: new Date(event.startsAt).toISOString(),
      outcome: 'home' as const,
    });
    const legOf = (bet: TrackedBet, price: number): ParlayLeg => ({
      sport: bet.sport,
      league: bet.league,
      event_id: bet.event_id,
      home: bet.home,
      away: bet.away,
      starts_at: bet.starts_at,
      market: 'moneyline',
      period: 'full',
      line: null,
      outcome: bet.outcome!,
      selection: bet.selection,
      decimal_odds: price,
      result: null,
    });
    const parlayOf = (second: BoardEvent): TrackedBet => ({
      ...single({}),
      kind: 'parlay',
      market: 'parlay',
      event_id: null,
      home: '',
      away: '',
      starts_at: null,
      outcome: null,
      selection: '2-leg parlay',
      decimal_odds: 4.6,
      legs: [legOf(lostSide, 2.5), legOf(onGame(second), 1.9)],
    });
    // On `live` (in play), and on `ahead` (not started).
    const ticket = parlayOf(live);
    const early = parlayOf(ahead);
    const grade = async () => {
      const answer = await fetch(`${origin}/v1/grade`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': pro },
        body: JSON.stringify({ bets: [ticket, early].map(gradeRequestBet) }),
      });
      return GradeResponseSchema.parse(await answer.json()).results;
    };
    /** One check of the page: the results, the closes it wants (finals' kept in `finals`), then the grading. */
    const finals = new Map<string, ClosingFeed['games'][number]['markets']>();
    const check = async (bets: TrackedBet[]) => {
      const results = ResultsFeedSchema.parse(await (await fetch(`${origin}/tools/results.json`)).json());
      const wanted = closesWanted(bets, results.games, finals, results.generated_at * 1000);
      const started = new Map<string, ClosingFeed['games'][number]['markets']>();
      if (wanted.length > 0) {
        const answer = ClosingFeedSchema.parse(
          await (await fetch(`${origin}/tools/closing.json?events=${wanted.join(',')}`)).json(),
        );
        for (const game of answer.games)
          (results.games.some((final) => final.event_id === game.event_id) ? finals : started).set(
            game.event_id,
            game.markets,
          );
      }
      return { wanted, bets: settleFromResults(bets, results.games, new Map([...started, ...finals])) };
    };
    // The away side lost 103–100: lost at once, by both. The page asks for the final's close and for `live`'s (started),
    // not for `ahead`'s (its start is an hour away).
    const first = await check([ticket, early]);
    expect(first.wanted.sort()).toEqual([finished.id, live.id].sort());
    const [lost, lostAhead] = first.bets as [TrackedBet, TrackedBet];
    const [api, apiAhead] = (await grade()) as [GradeResult, GradeResult];
    expect(lost.settlement).toMatchObject({ result: 'lost', payout: 0 });
    expect(api).toMatchObject({ result: 'lost', payout: 0 });
    expect(lost.legs![0]!.closing_probability).toBe(api.legs[0]!.fair_closing_probability);
    expect(legClvPct(lost.legs![0]!)).toBe(api.legs[0]!.clv_pct);
    expect(api.legs[0]!.clv_pct).not.toBeNull();
    // `live` has started: the API reads its close from the history (0.5), and the tracker from the public close: the
    // same ticket CLV, 4.6 × p × 0.5 − 1, to the digit. The open leg keeps no close of its own until its game ends.
    expect(api.legs[1]).toMatchObject({ status: 'pending', fair_closing_probability: 0.5 });
    expect(api.clv_pct).not.toBeNull();
    expect(lost.settlement!.clv_pct).toBe(api.clv_pct);
    expect(lost.legs![1]).toMatchObject({ result: null });
    expect(lost.legs![1]!.closing_probability).toBeUndefined();
    expect(awaitsClose(lost, clock.now())).toBe(true);
    // `ahead` has not started: no close from either, and the public close leaves it out even when asked.
    expect(apiAhead).toMatchObject({ result: 'lost', clv_pct: null });
    expect(apiAhead.legs[1]).toMatchObject({ status: 'pending', fair_closing_probability: null });
    expect(lostAhead.settlement).toMatchObject({ result: 'lost', clv_pct: null });
    const notYet = ClosingFeedSchema.parse(
      await (await fetch(`${origin}/tools/closing.json?events=${ahead.id}`)).json(),
    );
    expect(notYet.games).toEqual([]);
    // `live` ends; the tracker reads its final's close as the page does: the same figures as the API's, leg by leg.
    board.final(live, 98, 90);
    board.end(live);
    await board.flush();
    clock.advance(16_000);
    const after = await check([lost]);
    expect(after.wanted).toEqual([live.id]);
    expect(finals.has(live.id)).toBe(true);
    const done = after.bets[0]!;
    const [again] = (await grade()) as [GradeResult];
    expect(done.legs!.map((leg) => leg.result)).toEqual(again.legs.map((leg) => leg.result));
    expect(done.legs!.map((leg) => leg.result)).toEqual(['lost', 'won']);
    expect(done.legs!.map(legClvPct)).toEqual(again.legs.map((leg) => leg.clv_pct));
    expect(done.settlement!.clv_pct).toBe(again.clv_pct);
    expect(done.settlement).toEqual(lost.settlement);
    expect(awaitsClose(done, clock.now())).toBe(false);
  });

  it('a started game’s close is read once while the history keeps it; a start moved later leaves it out within 15 s', async () => {
    const delayed = board.addEvent({ startsInMs: 60_000 });
    board.price(delayed, 'fanduel', 'moneyline', 'home', -110);
    board.price(delayed, 'fanduel', 'moneyline', 'away', -110);
    clock.advance(61_000);
    board.start(delayed);
    clock.advance(1_000);
    await board.flush();
    const reads = vi.spyOn(app.history, 'series');
    const ask = async () =>
      ClosingFeedSchema.parse(await (await fetch(`${origin}/tools/closing.json?events=${delayed.id}`)).json())
        .games;
    try {
      const close = [{ event_id: delayed.id, markets: [expect.objectContaining({ market: 'moneyline' })] }];
      expect(await ask()).toEqual(close);
      expect(reads).toHaveBeenCalledTimes(1);
      // Past the answer's hold: the event is looked at again, its closing lines are the same, not read again.
      clock.advance(16_000);
      expect(await ask()).toEqual(close);
      expect(reads).toHaveBeenCalledTimes(1);
      // The source moves the start half an hour later (a delay), the game no longer in play: the history clears its
      // closing lines (to be taken at the new start), and once the answer's hold is over the close is left out.
      const known = app.engine.store.event(delayed.id)!;
      const moved = clock.now() + 1_800_000;
      expect(
        app.engine.ingest({
          kind: 'event',
          sourceEventId: delayed.source,
          league: known.league,
          home: { name: known.home.name },
          away: { name: known.away.name },
          startsAt: moved,
          live: false,
        }),
      ).toBe(true);
      await board.flush();
      expect((await app.history.events([delayed.id])).get(delayed.id)!.closedAt).toBeNull();
      expect(await ask()).toEqual(close);
      clock.advance(16_000);
      expect(await ask()).toEqual([]);
      // The game starts at its new time (an in-play price follows): its closing lines taken again, and read again.
      clock.set(moved + 1_000);
      board.start({ ...delayed, startsAt: moved });
      board.price(delayed, 'fanduel', 'moneyline', 'home', -150);
      await board.flush();
      expect((await app.history.events([delayed.id])).get(delayed.id)!.closedAt).not.toBeNull();
      expect(await ask()).toEqual(close);
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });
});

describe('GET /v1/scores?closing=true (decision 210: no plan gets less than the free page)', () => {
  it('gives a Starter key and a Pro key a final’s fair close, the public one; asks for event_id', async () => {
    for (const key of [starter, pro]) {
      const answer = await fetch(`${origin}/v1/scores?event_id=${finished.id}&closing=true`, {
        headers: { 'x-api-key': key },
      });
      expect(answer.status).toBe(200);
      const { scores } = ScoresResponseSchema.parse(await answer.json());
      expect(scores.map((score) => score.closing)).toEqual([closeOf(finished.id)]);
    }
    // Without closing=true the answer is as before: no close.
    const plain = await fetch(`${origin}/v1/scores?event_id=${finished.id}`, {
      headers: { 'x-api-key': starter },
    });
    expect(ScoresResponseSchema.parse(await plain.json()).scores[0]).not.toHaveProperty('closing');
    const all = await fetch(`${origin}/v1/scores?closing=true`, { headers: { 'x-api-key': starter } });
    expect(all.status).toBe(400);
    expect(((await all.json()) as { detail: string }).detail).toBe('`closing=true` needs `event_id`.');
  });
});
