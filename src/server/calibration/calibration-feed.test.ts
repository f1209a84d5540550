import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalibrationReport } from '#domain/calibration.ts';
import { devig } from '#domain/history.ts';
import { americanToDecimal, type AmericanOdds } from '#domain/odds.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { CALIBRATION_CACHE_MS } from './calibration-feed.ts';

// GET /tools/calibration.json (issue 57) on the real app: prices and finals go through the engine's intake on a
// virtual clock, the history writes the closing lines and the results, and the report is computed from them. The
// figures are worked out below from the prices and the results.

const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let board: HandBoard;
let nba: BoardEvent;
let nhl: BoardEvent;
let unfinished: BoardEvent;

const report = async () => {
  const answer = await app.inject({ method: 'GET', url: '/tools/calibration.json' });
  expect(answer.statusCode).toBe(200);
  return { answer, body: answer.json() as CalibrationReport };
};

/**
 * `nba`: two books hang the moneyline and home −3.5 / away +3.5 and home −3 / away +3 at −110 both sides (fair 0.5
 * every outcome); it ends 103–100: the home moneyline and away +3.5 win, the −3 line pushes (left out).
 * `nhl`: both books hang the moneyline home −200 / away +170; it ends 2–3 (the away side wins).
 * `unfinished`: priced, started, no final: not in the report.
 */
beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  board = new HandBoard(app, clock, 'cal');
  nba = board.addEvent({ startsInMs: 60_000 });
  nhl = board.addEvent({ startsInMs: 60_000, league: 'nhl' });
  unfinished = board.addEvent({ startsInMs: 60_000 });
  for (const book of ['fanduel', 'draftkings']) {
    for (const [home, away] of [
      [-3.5, 3.5],
      [-3, 3],
    ]) {
      board.price(nba, book, 'spread', 'home', -110, { point: home });
      board.price(nba, book, 'spread', 'away', -110, { point: away });
    }
    board.price(nba, book, 'moneyline', 'home', -110);
    board.price(nba, book, 'moneyline', 'away', -110);
    board.price(nhl, book, 'moneyline', 'home', -200);
    board.price(nhl, book, 'moneyline', 'away', 170);
    board.price(unfinished, book, 'moneyline', 'home', -110);
    board.price(unfinished, book, 'moneyline', 'away', -110);
  }
  clock.advance(61_000);
  for (const event of [nba, nhl, unfinished]) board.start(event);
  clock.advance(1_000);
  board.final(nba, 103, 100);
  board.final(nhl, 2, 3);
  board.end(nba);
  board.end(nhl);
  await board.flush();
});

afterAll(async () => {
  await app.close();
});

describe('GET /tools/calibration.json', () => {
  it('is public and cached, and says where its data come from (a hand-fed source: not the demo)', async () => {
    const { answer, body } = await report();
    expect(answer.headers['cache-control']).toBe(`public, max-age=${CALIBRATION_CACHE_MS / 1000}`);
    expect(body).toMatchObject({ source: 'replay', demo: false, window_days: 30, events: 2 });
    // The server's CLV defaults (no CLV_REFERENCE_BOOK here): the sharp books' close, de-vigged by Shin's method.
    expect(body.fair).toEqual({ reference: 'sharp', method: 'shin' });
  });

  it('scores the NBA games by hand: fair 0.5 on a win and a loss is Brier 0.25 and log loss ln 2; pushes left out', async () => {
    const { body } = await report();
    const groups = body.groups.filter((g) => g.league === 'nba');
    expect(groups.map((g) => g.market_type)).toEqual(['moneyline', 'spread']);
    for (const group of groups) {
      // One market each (the −3 spread pushed: no forecast), its two outcomes one won, one lost.
      expect(group).toMatchObject({ markets: 1, forecasts: 2, brier: 0.25, log_loss: 0.6931 });
      const bin = group.bins[5]!;
      expect(bin).toEqual({ from: 0.5, to: 0.6, forecasts: 2, mean_fair: 0.5, observed: 0.5 });
      expect(group.bins.reduce((n, b) => n + b.forecasts, 0)).toBe(2);
      expect(group.books).toEqual(
        ['draftkings', 'fanduel'].map((book) => ({
          book,
          forecasts: 2,
          brier: 0.25,
          log_loss: 0.6931,
          fair_brier: 0.25,
          fair_log_loss: 0.6931,
        })),
      );
    }
  });

  it('scores the NHL favourite that lost against its de-vigged close', async () => {
    const { body } = await report();
    const [group] = body.groups.filter((g) => g.league === 'nhl');
    const decimals = [-200, 170].map((american) => americanToDecimal(american as AmericanOdds));
    const [home, away] = devig(decimals, body.fair.method as Parameters<typeof devig>[1]);
    // Home (fair p ≈ 0.65) lost, away (≈ 0.35) won: Brier ((p_h − 0)² + (p_a − 1)²) / 2.
    const brier = (home! ** 2 + (away! - 1) ** 2) / 2;
    const logLoss = -(Math.log(1 - home!) + Math.log(away!)) / 2;
    expect(group).toMatchObject({ league_name: 'NHL', market_type: 'moneyline', markets: 1, forecasts: 2 });
    expect(group!.brier).toBeCloseTo(brier, 4);
    expect(group!.log_loss).toBeCloseTo(logLoss, 4);
    // Both books priced it the same, so each scores as we do.
    for (const book of group!.books) {
      expect(book.brier).toBeCloseTo(brier, 4);
      expect(book.fair_brier).toBeCloseTo(brier, 4);
    }
    expect(group!.bins[Math.floor(home! * 10)]).toMatchObject({ forecasts: 1, observed: 0 });
    expect(group!.bins[Math.floor(away! * 10)]).toMatchObject({ forecasts: 1, observed: 1 });
  });

  it('keeps its answer for the cache time, then counts games finished since', async () => {
    board.final(unfinished, 99, 98);
    board.end(unfinished);
    await board.flush();
    expect((await report()).body.events).toBe(2);
    clock.advance(CALIBRATION_CACHE_MS + 1);
    const { body } = await report();
    expect(body.events).toBe(3);
    const moneyline = body.groups.find((g) => g.league === 'nba' && g.market_type === 'moneyline')!;
    expect(moneyline).toMatchObject({ markets: 2, forecasts: 4, brier: 0.25 });
  });
});

describe('GET /tools/calibration.json on the simulator', () => {
  it('labels the report as demo data', async () => {
    const demo = await buildTestApp({
      now: clock.now,
      source: { name: 'simulator', start: (context) => context.ready(), stop: () => {} },
    });
    try {
      await demo.ready();
      const answer = await demo.inject({ method: 'GET', url: '/tools/calibration.json' });
      expect(answer.json()).toMatchObject({ source: 'simulator', demo: true, events: 0, groups: [] });
    } finally {
      await demo.close();
    }
  });
});
