import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sideId } from '#domain/markets.ts';
import { HistoryTeaserSchema } from '#domain/schemas/history-teaser.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';

// GET /tools/history.json: the arbitrage page's one-hour teaser, built from the stored ticks.

const MINUTE = 60_000;
// On a minute boundary, so the hour's points are the minutes from start − 60 to start.
const clock = virtualClock(Date.UTC(2026, 10, 22, 14, 0, 0));
let app: FastifyInstance;
let board: HandBoard;
let event: BoardEvent;
const moneyline = { type: 'moneyline', period: 'full', point: null } as const;

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  board = new HandBoard(app, clock, 'tz');
  event = board.addEvent({ startsInMs: 3 * 3_600_000 });
  // 70 minutes of FanDuel's home price: −110 + one point every 10 minutes, suspended from minute 40 to 45.
  board.price(event, 'draftkings', 'moneyline', 'away', 120);
  for (let minute = 0; minute < 70; minute += 1) {
    if (minute % 10 === 0) board.price(event, 'fanduel', 'moneyline', 'home', -110 - minute / 10);
    if (minute === 40) board.price(event, 'fanduel', 'moneyline', 'home', -114, { suspended: true });
    if (minute === 45) board.price(event, 'fanduel', 'moneyline', 'home', -116);
    clock.advance(MINUTE);
  }
  await board.flush();
});

afterAll(async () => {
  await app.close();
});

const url = (sides: string[]) =>
  `/tools/history.json?event=${encodeURIComponent(event.id)}&sides=${sides.join(',')}`;

describe('GET /tools/history.json', () => {
  it('answers each side at every minute of the last hour, with gaps while suspended', async () => {
    const home = sideId(event.id, moneyline, 'home', 'fanduel');
    const away = sideId(event.id, moneyline, 'away', 'draftkings');
    const response = await app.inject({ method: 'GET', url: url([home, away, 'fanduel-unknown']) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=30');
    const body = HistoryTeaserSchema.parse(response.json());
    const now = clock.now();
    expect(body.to).toBe(now / 1000);
    expect(body.from).toBe((now - 60 * MINUTE) / 1000);
    // The unknown side is left out; the others keep the order asked for.
    expect(body.sides.map((side) => [side.book, side.outcome])).toEqual([
      ['fanduel', 'home'],
      ['draftkings', 'away'],
    ]);
    const points = body.sides[0]!.points;
    expect(points).toHaveLength(61);
    // Minute m of the run is point m − 10 (the hour starts at run minute 10).
    const expected = (minute: number): number | null => {
      if (minute >= 40 && minute < 45) return null;
      if (minute >= 45 && minute < 50) return -116;
      return -110 - Math.min(6, Math.floor(minute / 10)); // the last change was at run minute 60
    };
    for (const [index, point] of points.entries()) {
      expect(point[0]).toBe(body.from + index * 60);
      expect(point[1]).toBe(expected(index + 10));
      expect(point[2] === null).toBe(point[1] === null);
    }
    expect(body.sides[1]!.points.every((point) => point[1] === 120 && point[2] === 2.2)).toBe(true);
  });

  it('keeps an answer 30 seconds: a change is seen once the cached one expires', async () => {
    const home = sideId(event.id, moneyline, 'home', 'fanduel');
    const first = (await app.inject({ method: 'GET', url: url([home]) })).json();
    board.price(event, 'fanduel', 'moneyline', 'home', -150);
    await board.flush();
    clock.advance(10_000);
    const cached = (await app.inject({ method: 'GET', url: url([home]) })).json();
    expect(cached).toEqual(first);
    clock.advance(30_000);
    const fresh = (await app.inject({ method: 'GET', url: url([home]) })).json();
    expect(fresh.sides[0].points.at(-1)[1]).toBe(-150);
  });

  it('refuses bad parameters (400) and unknown events (404) with problem details', async () => {
    for (const bad of [
      '/tools/history.json',
      `/tools/history.json?event=${encodeURIComponent(event.id)}`,
      `/tools/history.json?event=${encodeURIComponent(event.id)}&sides=a,b,c,d`,
      `/tools/history.json?event=${encodeURIComponent(event.id)}&sides=a,,b`,
    ]) {
      const response = await app.inject({ method: 'GET', url: bad });
      expect(response.statusCode, bad).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    const missing = await app.inject({ method: 'GET', url: '/tools/history.json?event=nba-nope&sides=x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404 });
  });

  it('limits how often one client may ask (429 with Retry-After)', async () => {
    const home = sideId(event.id, moneyline, 'home', 'fanduel');
    let refused;
    for (let attempt = 0; attempt < 130 && !refused; attempt += 1) {
      const response = await app.inject({ method: 'GET', url: url([home]), remoteAddress: '192.0.2.77' });
      if (response.statusCode === 429) refused = response;
      else expect(response.statusCode).toBe(200);
    }
    expect(refused).toBeDefined();
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
  });
});
