import { once } from 'node:events';
import { request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candles } from '#domain/history.ts';
import {
  ClvResponseSchema,
  HistoricalOddsResponseSchema,
  MovementResponseSchema,
} from '#domain/schemas/api/history.ts';
import { SPORTSBOOK_KEYS } from '#domain/sportsbooks.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { countHistoryQueries, HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { external } from '#tests/support/server/trials.ts';

// What the odds-history routes bound (issue 31, decision 147): database work per request that does not grow with the
// time a window spans, signed cursors, pages that hold still while time passes, no candles of hours to come, weighted
// CLV batches, control characters refused before the database sees them, and pages of the historical board. Work is
// measured in SQL statements (countHistoryQueries), never in milliseconds. PostgreSQL and Redis in the twin
// (history-limits.integration.test.ts).

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const clock = virtualClock(Date.UTC(2026, 9, 1, 12));
let app: FastifyInstance;
let board: HandBoard;
const keys = { elite: '', enterprise: '' };
/** Called when a movement handler has returned or thrown (the onRoute wrapper below). */
const movementSettled: (() => void)[] = [];

const get = (url: string, key = keys.enterprise) =>
  app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
const post = (url: string, payload: unknown, key = keys.elite) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: { 'x-api-key': key } });
const isoAt = (ms: number) => new Date(ms).toISOString();

/** The route's own handler, wrapped to say when it is done: an aborted request's answer never comes back. */
function watchMovement(route: RouteOptions) {
  if (route.url !== '/v1/events/:eventId/movement' || route.method !== 'GET') return;
  const handler = route.handler;
  route.handler = async function (this: FastifyInstance, request, reply) {
    try {
      return await handler.call(this, request, reply);
    } finally {
      for (const settle of movementSettled.splice(0)) settle();
    }
  } as typeof handler;
}

/** An edited copy of a cursor: its payload (base64url JSON, before any `.`) changed by `edit`, the rest kept. */
function tamper(cursor: string, edit: (payload: Record<string, unknown>) => void): string {
  const [body, ...rest] = cursor.split('.');
  const payload = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as Record<string, unknown>;
  edit(payload);
  return [Buffer.from(JSON.stringify(payload)).toString('base64url'), ...rest].join('.');
}

// Two fixtures whose first prices come at the same instant: `week` was first seen 7 days before it, `hour` 1 hour.
let week: BoardEvent;
let hour: BoardEvent;
let firstPriceAt: number;

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now, onRoute: watchMovement });
  await app.ready();
  board = new HandBoard(app, clock, 'lim');
  keys.elite = await createKey(app, 'elite');
  keys.enterprise = await createKey(app, 'enterprise');
  week = board.addEvent({ startsInMs: 9 * DAY });
  await board.flush();
  clock.advance(7 * DAY - HOUR);
  hour = board.addEvent({ startsInMs: 2 * DAY });
  await board.flush();
  clock.advance(HOUR + 15_000);
  firstPriceAt = clock.now();
  for (const event of [week, hour]) {
    board.price(event, 'fanduel', 'moneyline', 'home', -110);
    board.price(event, 'fanduel', 'moneyline', 'away', -110);
  }
  clock.advance(MINUTE);
  for (const event of [week, hour]) board.price(event, 'fanduel', 'moneyline', 'home', -120);
  clock.advance(MINUTE);
  for (const event of [week, hour]) board.price(event, 'fanduel', 'moneyline', 'home', -130);
  clock.advance(10 * MINUTE);
  await board.flush();
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/events/{eventId}/movement: bounded work', () => {
  it('runs the same few SQL statements for a 1-hour and a 7-day gap before the first price', async () => {
    const bucket = Math.floor(firstPriceAt / MINUTE) * MINUTE;
    const counts: Record<string, number[]> = { candles: [], points: [] };
    for (const event of [hour, week]) {
      // `from` a month before the fixture existed: clamped to when the history first saw it.
      const from = isoAt(firstPriceAt - 30 * DAY);
      for (const [mode, query] of [
        ['candles', `interval=1m&limit=1&from=${from}`],
        ['points', `limit=1&from=${from}`],
      ] as const) {
        const counter = countHistoryQueries(app);
        const answer = await get(`/v1/events/${event.id}/movement?${query}`);
        counter.restore();
        expect(answer.statusCode, query).toBe(200);
        const body = MovementResponseSchema.parse(answer.json());
        expect(body.from).toBe(body.event.first_seen_at);
        const first = body.series[0]!;
        if (mode === 'candles')
          expect(first.candles).toEqual([expect.objectContaining({ at: isoAt(bucket) })]);
        else expect(first.points).toEqual([expect.objectContaining({ at: isoAt(firstPriceAt) })]);
        expect(body.next_cursor).not.toBeNull();
        counts[mode]!.push(counter.count);
      }
    }
    expect(counts.candles![0]).toBe(counts.candles![1]);
    expect(counts.points![0]).toBe(counts.points![1]);
    for (const count of [...counts.candles!, ...counts.points!]) expect(count).toBeLessThanOrEqual(6);
  });

  it('refuses an edited cursor with 400 (cursors are signed)', async () => {
    const first = (await get(`/v1/events/${hour.id}/movement?interval=1m&limit=1`)).json();
    expect(
      (await get(`/v1/events/${hour.id}/movement?interval=1m&limit=1&cursor=${first.next_cursor}`))
        .statusCode,
    ).toBe(200);
    const edits: ((payload: Record<string, unknown>) => void)[] = [
      (payload) => (payload.u = Number(payload.u) + MINUTE),
      (payload) => (payload.u = 9e15),
      (payload) => (payload.s = Number(payload.s) + 1),
    ];
    for (const edit of edits) {
      const answer = await get(
        `/v1/events/${hour.id}/movement?interval=1m&limit=1&cursor=${tamper(first.next_cursor, edit)}`,
      );
      expect(answer.statusCode).toBe(400);
      expect(answer.json().type).toBe('https://sharpline.io/problems/validation');
      expect(Object.keys(answer.json().errors)).toEqual(['cursor']);
    }
  });

  it('pages without `to` while time passes: the first page pins the window, pages join without overlap', async () => {
    for (const mode of ['', 'interval=1m&']) {
      const pages: MovementPage[] = [];
      let cursor: string | null = null;
      do {
        const answer = await get(
          `/v1/events/${hour.id}/movement?${mode}limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(answer.statusCode, `${mode} page ${pages.length + 1}`).toBe(200);
        const page = MovementResponseSchema.parse(answer.json());
        pages.push(page);
        cursor = page.next_cursor;
        // Time passes and prices move between pages: the pages still continue the first page's window.
        clock.advance(MINUTE);
        board.price(hour, 'fanduel', 'moneyline', 'away', -110 - pages.length);
        await board.flush();
      } while (cursor !== null);
      expect(pages.length).toBeGreaterThan(2);
      expect(new Set(pages.map((page) => page.to))).toEqual(new Set([pages[0]!.to]));
      const items = (page: MovementPage) =>
        page.series.flatMap((series) =>
          [...(series.points ?? []), ...(series.candles ?? [])].map((item) => `${series.outcome}|${item.at}`),
        );
      const joined = pages.flatMap(items);
      expect(new Set(joined).size).toBe(joined.length);
      const whole = MovementResponseSchema.parse(
        (await get(`/v1/events/${hour.id}/movement?${mode}to=${pages[0]!.to}`)).json(),
      );
      expect(joined).toEqual(items(whole));
    }
  });

  it('builds no candles of hours that have not happened: `to` stops at now', async () => {
    const now = clock.now();
    const answer = await get(`/v1/events/${hour.id}/movement?interval=1m&to=${isoAt(now + 6 * HOUR)}`);
    expect(answer.statusCode).toBe(200);
    const body = MovementResponseSchema.parse(answer.json());
    expect(Date.parse(body.to)).toBeLessThanOrEqual(now);
    const candles = body.series.flatMap((series) => series.candles!);
    expect(candles.length).toBeGreaterThan(0);
    for (const candle of candles) expect(Date.parse(candle.at)).toBeLessThanOrEqual(now);
  });

  it('stops reading when the client goes away', async () => {
    const controller = new AbortController();
    const settled = new Promise<void>((resolve) => movementSettled.push(resolve));
    // The client leaves as soon as the first statement (the event) has answered.
    const counter = countHistoryQueries(app, (_text, index) => {
      if (index === 1) controller.abort();
    });
    const answer = app
      .inject({
        method: 'GET',
        url: `/v1/events/${week.id}/movement?interval=1m&limit=5000`,
        headers: { 'x-api-key': keys.enterprise },
        signal: controller.signal,
      })
      .catch((error: unknown) => error);
    await settled;
    counter.restore();
    await answer;
    expect(counter.count).toBe(1);
  });

  it('stops reading when the client closes its connection (a real socket)', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const sockets: Socket[] = [];
    app.server.on('connection', (socket: Socket) => sockets.push(socket));
    const settled = new Promise<void>((resolve) => movementSettled.push(resolve));
    const client = request({
      host: '127.0.0.1',
      port,
      path: `/v1/events/${week.id}/movement?interval=1m&limit=5000`,
      headers: { 'x-api-key': keys.enterprise },
    });
    client.on('error', () => {});
    // The client hangs up once the first statement has answered; the server has seen its socket close.
    const counter = countHistoryQueries(app, async (_text, index) => {
      if (index !== 1) return;
      client.destroy();
      const socket = sockets.at(-1)!;
      if (!socket.destroyed) await once(socket, 'close');
    });
    client.end();
    await settled;
    counter.restore();
    expect(counter.count).toBe(1);
  });

  it('reads candles across tick chunks, and pages them while time passes, as candles() makes them from every tick', async () => {
    // 10,500 changes of one price (over the 10,000 ticks a statement reads), one a second, suspended now and then,
    // and a few of the other side: the reads cross a chunk inside a series and then move to the next series.
    const busy = board.addEvent({ league: 'epl', startsInMs: DAY });
    for (let step = 0; step < 10_500; step += 1) {
      clock.advance(1_000);
      board.price(
        busy,
        'fanduel',
        '1x2',
        'home',
        150 + (step % 9),
        step % 500 === 7 ? { suspended: true } : {},
      );
      if (step % 2_000 === 0) board.price(busy, 'fanduel', '1x2', 'away', 200 + step / 1_000);
    }
    clock.advance(MINUTE);
    await board.flush();
    const series = await app.history.series(busy.id);
    const ticks = await app.history.ticks(
      series.map((row) => row.id),
      { from: 0, to: clock.now(), limit: 20_000 },
    );
    expect(ticks.length).toBeGreaterThan(10_000);
    const first = MovementResponseSchema.parse(
      (await get(`/v1/events/${busy.id}/movement?interval=1m`)).json(),
    );
    const expected = series
      .sort((a, b) => a.id - b.id)
      .flatMap((row) =>
        candles(
          ticks.filter((tick) => tick.seriesId === row.id),
          MINUTE,
          Date.parse(first.from),
          Date.parse(first.to),
        ).map(
          (candle) =>
            `${row.outcome}|${isoAt(candle.at)}|${candle.open}|${candle.high}|${candle.low}|${candle.close}`,
        ),
      );
    const flat = (page: MovementPage) =>
      page.series.flatMap((entry) =>
        entry.candles!.map(
          (candle) =>
            `${entry.outcome}|${candle.at}|${candle.open}|${candle.high}|${candle.low}|${candle.close}`,
        ),
      );
    expect(expected.length).toBeGreaterThan(170);
    expect(flat(first)).toEqual(expected);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = MovementResponseSchema.parse(
        (
          await get(`/v1/events/${busy.id}/movement?interval=1m&limit=37${cursor ? `&cursor=${cursor}` : ''}`)
        ).json(),
      );
      paged.push(...flat(page));
      cursor = page.next_cursor;
      clock.advance(1_000); // time passes between pages, as it does for a client
    } while (cursor !== null);
    expect(paged).toEqual(expected);
  });

  it('answers 503 read-budget-exceeded when a request outlives its time budget', async () => {
    // Each statement takes 2 s on the server's clock: the budget (5 s) is spent after the third.
    const counter = countHistoryQueries(app, () => clock.advance(2_000));
    const answer = await get(`/v1/events/${week.id}/movement?interval=1m&limit=5000`);
    counter.restore();
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['content-type']).toContain('application/problem+json');
    expect(answer.json()).toMatchObject({
      type: 'https://sharpline.io/problems/read-budget-exceeded',
      status: 503,
    });
    expect(counter.count).toBe(3);
  });
});

type MovementPage = ReturnType<typeof MovementResponseSchema.parse>;

describe('control characters in an event id', () => {
  it('answer 400 validation on /lines, /movement and POST /v1/clv, never 500', async () => {
    for (const id of ['nba%00x', 'x%01', '%7F', 'nba-1%0A']) {
      for (const [path, key] of [
        ['lines', keys.elite],
        ['movement', keys.enterprise],
      ] as const) {
        const answer = await get(`/v1/events/${id}/${path}`, key);
        expect(answer.statusCode, `${path} ${id}`).toBe(400);
        expect(answer.json().type).toBe('https://sharpline.io/problems/validation');
        expect(Object.keys(answer.json().errors)).toEqual(['eventId']);
      }
      const clv = await post('/v1/clv', {
        bets: [{ event_id: decodeURIComponent(id), market: 'moneyline', outcome: 'home', price: 120 }],
      });
      expect(clv.statusCode, `clv ${id}`).toBe(400);
      expect(Object.keys(clv.json().errors)).toEqual(['bets.0.event_id']);
    }
    // In a market key too (the event part of `market`).
    const market = await get(`/v1/events/${hour.id}/movement?market=x%00%7Cmoneyline%7Cfull%7C`);
    expect(market.statusCode).toBe(400);
    expect(Object.keys(market.json().errors)).toEqual(['market']);
  });
});

describe('POST /v1/clv: batched reads, weighed by size', () => {
  let events: BoardEvent[];

  beforeAll(async () => {
    events = Array.from({ length: 100 }, () => board.addEvent({ league: 'nhl', startsInMs: 2 * HOUR }));
    for (const event of events) {
      board.price(event, 'fanduel', 'moneyline', 'home', -110);
      board.price(event, 'fanduel', 'moneyline', 'away', -110);
    }
    clock.advance(MINUTE);
    await board.flush();
  });

  const bets = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      event_id: events[index % events.length]!.id,
      market: 'moneyline',
      outcome: 'home',
      price: 150,
    }));

  it('answers 100 bets on 100 events with a fixed number of statements', async () => {
    const counter = countHistoryQueries(app);
    const answer = await post('/v1/clv', { bets: bets(100) });
    counter.restore();
    expect(answer.statusCode).toBe(200);
    const { results } = ClvResponseSchema.parse(answer.json());
    expect(results.map((result) => result.status)).toEqual(Array.from({ length: 100 }, () => 'pending'));
    // (2.5 × 0.5 − 1) × 100: one book, even prices.
    expect(new Set(results.map((result) => result.olv_pct))).toEqual(new Set([25]));
    expect(counter.count).toBeLessThanOrEqual(2);
    const unknown = countHistoryQueries(app);
    const mixed = await post('/v1/clv', {
      bets: [...bets(3), { event_id: 'nhl-none', market: 'moneyline', outcome: 'home', price: 150 }],
    });
    unknown.restore();
    expect(mixed.json().results.map((result: { status: string }) => result.status)).toEqual([
      'pending',
      'pending',
      'pending',
      'unknown_event',
    ]);
    expect(unknown.count).toBeLessThanOrEqual(2);
  });

  it('counts one request per started 10 bets; a batch that does not fit is refused and not charged', async () => {
    const key = await createKey(app, 'elite');
    const reset = Number((await get('/v1/me', key)).headers['x-ratelimit-reset']);
    if (external() && reset < 20) {
      // Redis keeps real time: start in a fresh window rather than straddle one.
      await new Promise((resolve) => setTimeout(resolve, reset * 1000 + 200));
    }
    let remaining = Number((await get('/v1/me', key)).headers['x-ratelimit-remaining']);
    for (const [count, weight] of [
      [1, 1],
      [10, 1],
      [11, 2],
      [25, 3],
      [100, 10],
    ] as const) {
      const answer = await post('/v1/clv', { bets: bets(count) }, key);
      expect(answer.statusCode, `${count} bets`).toBe(200);
      expect(Number(answer.headers['x-ratelimit-remaining']), `${count} bets`).toBe(remaining - weight);
      remaining -= weight;
    }
    while (remaining >= 10) {
      expect((await post('/v1/clv', { bets: bets(100) }, key)).statusCode).toBe(200);
      remaining -= 10;
    }
    const refused = await post('/v1/clv', { bets: bets(100) }, key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      type: 'https://sharpline.io/problems/rate-limited',
      request_cost: 10,
    });
    expect(Number(refused.headers['x-ratelimit-remaining'])).toBe(remaining);
    if (remaining > 0) expect((await post('/v1/clv', { bets: bets(1) }, key)).statusCode).toBe(200);
  });
});

describe('GET /v1/historical/odds: pages', () => {
  it('pages the board by `limit` with a signed cursor: every event exactly once, the walk on every page', async () => {
    const events = Array.from({ length: 7 }, (_, index) =>
      board.addEvent({ league: 'mlb', startsInMs: 3 * HOUR + index * MINUTE }),
    );
    for (const event of events) board.price(event, 'draftkings', 'moneyline', 'home', 120);
    clock.advance(MINUTE);
    await board.flush();
    const at = isoAt(clock.now());
    const seen: string[] = [];
    const walks = new Set<string>();
    const sizes: number[] = [];
    let cursor: string | null = null;
    let first: string | undefined;
    do {
      const answer = await get(
        `/v1/historical/odds?league=mlb&at=${at}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        keys.elite,
      );
      expect(answer.statusCode).toBe(200);
      const page = HistoricalOddsResponseSchema.parse(answer.json());
      sizes.push(page.events.length);
      seen.push(...page.events.map((entry) => entry.event.id));
      walks.add(`${page.previous_change_at}|${page.next_change_at}`);
      first ??= page.next_cursor ?? undefined;
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(events.map((event) => event.id));
    expect(walks.size).toBe(1);
    // The cursor is bound to its question and signed.
    const other = await get(
      `/v1/historical/odds?league=mlb&at=${at}&limit=3&books=fanduel&cursor=${first}`,
      keys.elite,
    );
    expect(other.statusCode).toBe(400);
    const edited = await get(
      `/v1/historical/odds?league=mlb&at=${at}&limit=3&cursor=${tamper(first!, (payload) => (payload.i = 0))}`,
      keys.elite,
    );
    expect(edited.statusCode).toBe(400);
    expect(Object.keys(edited.json().errors)).toEqual(['cursor']);
    for (const limit of ['0', '1001', 'x'])
      expect(
        (await get(`/v1/historical/odds?league=mlb&at=${at}&limit=${limit}`, keys.elite)).statusCode,
      ).toBe(400);
  });

  it('caps a page at 1 MB of JSON: a large board comes in several pages, each event once', async () => {
    // 3 events × 81 spread lines × 2 outcomes × 15 books: about 1.6 MB of board.
    const events = Array.from({ length: 3 }, () => board.addEvent({ league: 'ncaab', startsInMs: 5 * HOUR }));
    for (const event of events) {
      for (let line = -20; line <= 20; line += 0.5) {
        for (const book of SPORTSBOOK_KEYS) {
          board.price(event, book, 'spread', 'home', -110, { point: line });
          board.price(event, book, 'spread', 'away', -110, { point: -line });
        }
      }
    }
    clock.advance(MINUTE);
    await board.flush();
    const at = isoAt(clock.now());
    const seen: string[] = [];
    let total = 0;
    let pages = 0;
    let cursor: string | null = null;
    do {
      const answer = await get(
        `/v1/historical/odds?league=ncaab&at=${at}${cursor ? `&cursor=${cursor}` : ''}`,
        keys.elite,
      );
      expect(answer.statusCode).toBe(200);
      expect(answer.body.length).toBeLessThanOrEqual(1024 * 1024);
      total += answer.body.length;
      const page = HistoricalOddsResponseSchema.parse(answer.json());
      expect(page.events.length).toBeGreaterThan(0);
      seen.push(...page.events.map((entry) => entry.event.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null);
    expect(total).toBeGreaterThan(1024 * 1024);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(events.map((event) => event.id));
  });
});
