import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import type { SqlRunner } from './sql-client.ts';

// The odds history stored as rows (price_ticks) and as series blocks (price_blocks, decision 240) answers alike: one
// seeded replay of price changes (four events, two leagues, three books, game lines and spreads, suspensions, a start
// and an end, waits from a millisecond to minutes) is fed to two apps on one clock, one per format, and every history
// read (the service's reads and the API's movement, lines, CLV/OLV, historical boards and the public teaser) must
// give the same answer, while blocks are partly written and partly still open, and once all are written.

// Starts late in a UTC day: the replay (about two hours) crosses midnight, so reads look across day partitions (a
// block never crosses a day; the reads look at an instant's day first, decision 277).
const clock = virtualClock(Date.UTC(2026, 10, 23, 23, 20));
let rows: FastifyInstance;
let blocks: FastifyInstance;
const keys = new Map<FastifyInstance, string>();

beforeAll(async () => {
  // HISTORY_FORMAT set explicitly on both: a run that puts every suite on blocks leaves this comparison as it is.
  rows = await buildTestApp({ now: clock.now, config: trialTestConfig({ HISTORY_FORMAT: 'rows' }) });
  blocks = await buildTestApp({ now: clock.now, config: trialTestConfig({ HISTORY_FORMAT: 'blocks' }) });
  await Promise.all([rows.ready(), blocks.ready()]);
  for (const app of [rows, blocks]) keys.set(app, await createKey(app, 'enterprise'));
});

afterAll(async () => {
  await Promise.all([rows?.close(), blocks?.close()]);
});

/** A small deterministic generator (mulberry32): the replay is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BOOKS = ['fanduel', 'draftkings', 'caesars'];
/** Markets and, per outcome, the line the book quotes with it. */
const MARKETS: { market: string; outcomes: [string, Record<string, unknown>][] }[] = [
  {
    market: 'moneyline',
    outcomes: [
      ['home', {}],
      ['away', {}],
    ],
  },
  {
    market: 'spread',
    outcomes: [
      ['home', { point: -3.5 }],
      ['away', { point: 3.5 }],
    ],
  },
  {
    market: 'total',
    outcomes: [
      ['over', { point: 220.5 }],
      ['under', { point: 220.5 }],
    ],
  },
];

interface Fed {
  events: BoardEvent[];
  /** Instants worth asking about: before, between and after changes. */
  instants: number[];
}

/** Feeds the same `steps` changes to both apps; returns the events and some instants. */
function feed(seed: number, steps: number, leagues: string[], fed: Fed, quick = false): void {
  const next = random(seed);
  const boards = [new HandBoard(rows, clock, `fmt${seed}`), new HandBoard(blocks, clock, `fmt${seed}`)];
  const events: BoardEvent[][] = [[], []];
  for (const league of leagues) {
    const startsInMs = 4 * 60_000 + Math.floor(next() * 8 * 60_000);
    boards.forEach((board, index) => events[index]!.push(board.addEvent({ league, startsInMs })));
  }
  expect(events[0]!.map((event) => event.id)).toEqual(events[1]!.map((event) => event.id));
  const american = new Map<string, number>();
  for (let step = 0; step < steps; step += 1) {
    // Mostly seconds apart, sometimes within the same millisecond, sometimes minutes (blocks past their window).
    const roll = quick ? 0.5 : next();
    clock.advance(
      roll < 0.1 ? 0 : roll < 0.9 ? 1 + Math.floor(next() * 9_000) : 60_000 + Math.floor(next() * 90_000),
    );
    const e = Math.floor(next() * leagues.length);
    const { market, outcomes } = MARKETS[Math.floor(next() * MARKETS.length)]!;
    const [outcome, extra] = outcomes[Math.floor(next() * outcomes.length)]!;
    const book = BOOKS[Math.floor(next() * BOOKS.length)]!;
    const key = `${e}|${market}|${outcome}|${book}`;
    let price = american.get(key) ?? (next() < 0.5 ? -110 : 120);
    price += Math.round((next() - 0.5) * 40);
    if (price > -100 && price < 100) price = price < 0 ? 100 : -100;
    american.set(key, price);
    const suspended = next() < 0.1;
    boards.forEach((board, index) =>
      board.price(events[index]![e]!, book, market, outcome, price, { ...extra, suspended }),
    );
    const event = events[0]![e]!;
    if (clock.now() >= event.startsAt && !rows.engine.store.event(event.id)?.live) {
      boards.forEach((board, index) => board.start(events[index]![e]!));
    }
    if (step % 67 === 0) fed.instants.push(clock.now(), clock.now() - 1, clock.now() + 1);
  }
  fed.events.push(...events[0]!);
}

async function bothFlushed(): Promise<void> {
  for (const app of [rows, blocks]) expect(await app.history.flush()).toBe(true);
}

async function api(app: FastifyInstance, url: string, payload?: unknown): Promise<unknown> {
  const response = await app.inject({
    method: payload === undefined ? 'GET' : 'POST',
    url,
    headers: { 'x-api-key': keys.get(app)! },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: unsigned(response.json()) };
}

/** A cursor's payload without its signature: each app signs with a secret of its own. */
function unsigned(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, field: unknown) =>
    key === 'next_cursor' && typeof field === 'string' ? field.split('.')[0] : field,
  );
}

/**
 * `value` with every series id replaced by its series' key (event, market, outcome, book): ids are the database's own,
 * and the blocks app's leagues' index series (decision 311) take some of them, so the two apps number the series they
 * share alike in order but not in value. A movement cursor's series (`s`) is renamed too.
 */
function keyedSeries(value: unknown, names: ReadonlyMap<number, string>): unknown {
  const name = (id: unknown) => (typeof id === 'number' ? (names.get(id) ?? `unknown ${id}`) : id);
  return JSON.parse(JSON.stringify(value), function (this: unknown, key, field: unknown) {
    if (key === 'seriesId') return name(field);
    if (key === 'id' && this !== null && typeof this === 'object' && 'marketKey' in this) return name(field);
    if (key === 'next_cursor' && typeof field === 'string') {
      const cursor = JSON.parse(Buffer.from(field, 'base64url').toString()) as Record<string, unknown>;
      if ('s' in cursor) cursor.s = name(cursor.s);
      return cursor;
    }
    // A map's entry as `[...map]` gives it: [series id, tick].
    if (
      Array.isArray(field) &&
      field.length === 2 &&
      typeof field[0] === 'number' &&
      field[1] !== null &&
      typeof field[1] === 'object' &&
      'seriesId' in field[1]
    ) {
      return [name(field[0]), field[1]];
    }
    return field;
  });
}

/** Every read of the history, for one state of both stores: what `app` answers (series ids as their keys). */
async function answers(app: FastifyInstance, fed: Fed): Promise<unknown[]> {
  const names = new Map<number, string>();
  for (const event of fed.events) {
    for (const row of await app.history.series(event.id))
      names.set(row.id, `${row.eventId}|${row.marketKey}|${row.outcome}|${row.book}`);
  }
  return keyedSeries(await rawAnswers(app, fed), names) as unknown[];
}

async function rawAnswers(app: FastifyInstance, fed: Fed): Promise<unknown[]> {
  const out: unknown[] = [];
  const leagues = [...new Set(fed.events.map((event) => app.engine.store.event(event.id)?.league ?? 'nba'))];
  for (const event of fed.events) {
    const series = await app.history.series(event.id);
    const ids = series.map((row) => row.id);
    out.push(series);
    out.push([...(await app.history.lastTicks(ids))]);
    for (const at of fed.instants) {
      out.push([...(await app.history.lastTicks(ids, at))]);
      out.push(await app.history.nextChangeAfter(ids, at));
      out.push(await app.history.changesAround(event.id, at, undefined, 5));
      out.push(
        await app.history.changesAround(
          event.id,
          at,
          { marketKey: series[3]!.marketKey, outcome: '', book: '' },
          4,
        ),
      );
    }
    // Every tick, read in pages of 7 through the cursor, and a window of them.
    const pages: unknown[] = [];
    let after: { seriesId: number; atUs: number } | undefined;
    for (;;) {
      const page = await app.history.ticks(ids, { from: 0, to: clock.now(), limit: 7, after });
      pages.push(page);
      if (page.length < 7) break;
      after = { seriesId: page.at(-1)!.seriesId, atUs: page.at(-1)!.atUs };
    }
    out.push(pages);
    const middle = fed.instants[Math.floor(fed.instants.length / 2)]!;
    out.push(await app.history.ticks(ids, { from: middle - 120_000, to: middle, limit: 1_000 }));
    const id = encodeURIComponent(event.id);
    out.push(await api(app, `/v1/events/${id}/movement?limit=5000`));
    out.push(await api(app, `/v1/events/${id}/movement?interval=1m&book=fanduel`));
    out.push(await api(app, `/v1/events/${id}/movement?interval=5m&market=spread&limit=3`));
    out.push(await api(app, `/v1/events/${id}/lines`));
    out.push(await api(app, `/v1/events/${id}/lines?devig=multiplicative&reference=consensus`));
    out.push(
      await api(app, '/v1/clv', {
        bets: [
          { event_id: event.id, market: 'moneyline', outcome: 'home', price: 150, book: 'fanduel' },
          { event_id: event.id, market: 'spread', line: -3.5, outcome: 'away', price: -105 },
          { event_id: event.id, market: 'total', line: 220.5, outcome: 'over', price: 110, book: 'caesars' },
        ],
      }),
    );
    const sides = series.slice(0, 3).map((row) => row.sideId);
    const teaser = await app.inject({
      method: 'GET',
      url: `/tools/history.json?event=${id}&sides=${sides.join(',')}`,
    });
    out.push({ status: teaser.statusCode, body: teaser.json() });
  }
  const eventIds = fed.events.map((event) => event.id);
  for (const at of fed.instants) {
    const together = await app.history.changesAroundEvents(eventIds, at);
    // What the walk over each event says, gathered: the latest previous and the earliest next.
    const apart = await Promise.all(
      eventIds.map((id) => app.history.changesAround(id, at, undefined, 1_000)),
    );
    const previous = apart.map((one) => one.previous).filter((value) => value !== null);
    const next = apart.map((one) => one.next).filter((value) => value !== null);
    expect(together).toEqual({
      previous: previous.length > 0 ? Math.max(...previous) : null,
      next: next.length > 0 ? Math.min(...next) : null,
    });
    out.push(together);
  }
  for (const league of leagues) {
    for (const at of fed.instants.filter((_, index) => index % 4 === 0)) {
      out.push(await api(app, `/v1/historical/odds?league=${league}&at=${new Date(at).toISOString()}`));
      out.push(
        await api(
          app,
          `/v1/historical/odds?league=${league}&at=${new Date(at).toISOString()}&bookmakers=draftkings&markets=spread&limit=1`,
        ),
      );
    }
  }
  return out;
}

async function count(app: FastifyInstance, table: string): Promise<number> {
  const db = (app.history as unknown as { db: SqlRunner }).db;
  const [row] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
  return Number(row!.n);
}

describe('odds history: rows and blocks answer alike', () => {
  it('every history read gives the same answer from both formats, blocks partly open and then all written', async () => {
    const fed: Fed = { events: [], instants: [] };
    feed(59, 500, ['nba', 'nba', 'nhl'], fed);
    // The last changes seconds apart: their blocks are still open when the reads run.
    feed(61, 12, ['nba'], fed, true);
    await bothFlushed();
    // Not a vacuous comparison: the blocks app wrote blocks and no rows, holds some in memory, and the rows app rows.
    expect(await count(rows, 'price_ticks')).toBeGreaterThan(300);
    expect(await count(rows, 'price_blocks')).toBe(0);
    expect(await count(blocks, 'price_ticks')).toBe(0);
    expect(await count(blocks, 'price_blocks')).toBeGreaterThan(10);
    expect(blocks.history.stats().writtenChanges).toBe(rows.history.stats().writtenChanges);
    const open = (blocks.history as unknown as { writer: { openBlocks: { size: number } } }).writer
      .openBlocks;
    expect(open.size).toBeGreaterThan(0);
    fed.instants.push(clock.now() + 5);
    expect(await answers(blocks, fed)).toEqual(await answers(rows, fed));

    // An event ends, more changes come, minutes pass and then all is written (as at shutdown).
    for (const app of [rows, blocks])
      expect(app.engine.ingest({ kind: 'end', sourceEventId: 'fmt59-1' })).toBe(true);
    feed(60, 200, ['nhl'], fed);
    clock.advance(3 * 60_000);
    await bothFlushed();
    (blocks.history as unknown as { writer: { sealBlocks(): void } }).writer.sealBlocks();
    await bothFlushed();
    expect(open.size).toBe(0);
    expect(await answers(blocks, fed)).toEqual(await answers(rows, fed));
  });
});
