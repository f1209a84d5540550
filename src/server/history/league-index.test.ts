import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceMessage } from '#engine/messages.ts';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import { leagueIndexEvent } from './price-blocks.ts';
import type { SqlRunner } from './sql-client.ts';
import { seededRandom as random } from '#domain/random.ts';

// The leagues' index of changes (decision 311): /v1/historical/odds takes a board's previous and next change from one
// series per league instead of walking every series of the league's events. On a history the simulator writes through
// the real recorder and writer (blocks format, a run across midnight UTC, some blocks still open, an event ended on
// the way), the index answers what the walk answers at many instants, the walk answers where the index does not reach
// (history older than it), and the index's series shows in no answer.

const MIDNIGHT = Date.UTC(2026, 10, 24);
const clock = virtualClock(MIDNIGHT - 150_000);
const START = clock.now();
let app: FastifyInstance;
let key: string;
/** Instants at which changes were ingested: the instants around them are asked about. */
const changeTimes: number[] = [];
let endedAt = 0;
let leagues: string[] = [];

const db = () => (app.history as unknown as { db: SqlRunner }).db;

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now, config: trialTestConfig({ HISTORY_FORMAT: 'blocks' }) });
  app.engine.stop();
  key = await createKey(app, 'enterprise');
  const simulator = new MarketSimulator({
    seed: 311,
    startMs: START,
    events: 14,
    stepMs: 1_000,
    props: false,
  });
  const initial = simulator.initial();
  for (const message of initial) app.engine.ingest(message);
  app.engine.markReady();
  app.engine.tick();
  const next = random(311);
  // An event ends on the way; nothing of it is ingested after (the simulator would bring it back).
  const ending = initial.find((message) => message.kind === 'event')!.sourceEventId;
  let ended = false;
  for (let step = 0; step < 300; step += 1) {
    const stepStart = clock.now();
    const messages: SourceMessage[] = simulator
      .step()
      .filter((message) => !(ended && message.sourceEventId === ending));
    // In slices a few milliseconds apart: changes in the same millisecond and in distinct ones.
    for (let from = 0; from < messages.length;) {
      const size = 1 + Math.floor(next() * 30);
      for (const message of messages.slice(from, from + size)) app.engine.ingest(message);
      changeTimes.push(clock.now());
      from += size;
      clock.advance(Math.floor(next() * 4));
    }
    if (step === 150) {
      expect(app.engine.ingest({ kind: 'end', sourceEventId: ending })).toBe(true);
      ended = true;
      endedAt = clock.now();
      changeTimes.push(endedAt);
    }
    app.engine.tick();
    clock.advance(Math.max(0, 1_000 - (clock.now() - stepStart)));
    if (step % 20 === 19) expect(await app.history.flush()).toBe(true);
  }
  expect(await app.history.flush()).toBe(true);
  const [row] = await db().query<{ leagues: string[] }>(
    `SELECT array_agg(DISTINCT league ORDER BY league) AS leagues FROM history_events`,
  );
  leagues = row!.leagues;
}, 600_000);

afterAll(async () => {
  await app?.close();
});

/** The walk (the board's answer before decision 311): the events known at `at` or ending at it, and fixture times. */
async function walk(league: string, at: number): Promise<{ previous: number | null; next: number | null }> {
  const known = await app.history.eventsAt(league, at);
  const ending = (await app.history.eventsAt(league, at - 1)).filter((event) => event.endedAt === at);
  const around = await app.history.eventTimesAround(league, at);
  const changes = await app.history.changesAroundEvents(
    [...known, ...ending].map((event) => event.id),
    at,
  );
  const max = [around.previous, changes.previous].filter((value) => value !== null);
  const min = [around.next, changes.next].filter((value) => value !== null);
  return {
    previous: max.length > 0 ? Math.max(...max) : null,
    next: min.length > 0 ? Math.min(...min) : null,
  };
}

let asked = 0;

/** What the board's first page says (a narrow read: one book, one market, one event). */
async function board(league: string, at: number): Promise<{ previous: number | null; next: number | null }> {
  // A board counts 10 of a key's 2,000 requests a minute, and the clock stands still: a new key every 150 boards.
  asked += 1;
  if (asked % 150 === 0) key = await createKey(app, 'enterprise');
  const response = await app.inject({
    url: `/v1/historical/odds?league=${league}&markets=spread&books=fanduel&limit=1&at=${new Date(at).toISOString()}`,
    headers: { 'x-api-key': key },
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ previous_change_at: string | null; next_change_at: string | null }>();
  const ms = (value: string | null) => (value === null ? null : Date.parse(value));
  return { previous: ms(body.previous_change_at), next: ms(body.next_change_at) };
}

/** Instants worth asking about: around changes (every few), around midnight and the end, the last ones (open blocks). */
function instants(): number[] {
  const out = new Set<number>([
    START - 1_000,
    START,
    MIDNIGHT - 1,
    MIDNIGHT,
    MIDNIGHT + 1,
    endedAt - 1,
    endedAt,
  ]);
  changeTimes.forEach((at, index) => {
    if (index % 401 === 0) for (const delta of [-1, 0, 1]) out.add(at + delta);
  });
  for (const at of changeTimes.slice(-6)) out.add(at);
  out.add(clock.now());
  return [...out].sort((a, b) => a - b);
}

describe("the leagues' index of changes", () => {
  it('is kept as a series per league, some of it in open blocks, across midnight', async () => {
    expect(leagues.length).toBeGreaterThan(1);
    const rows = await db().query<{ event_id: string; blocks: number; days: number }>(
      `SELECT s.event_id, count(b.*)::int AS blocks, count(DISTINCT date_trunc('day', b.first_at))::int AS days
       FROM history_series s LEFT JOIN price_blocks b ON b.series_id = s.id
       WHERE s.event_id LIKE 'league:%' GROUP BY s.event_id ORDER BY s.event_id`,
    );
    expect(rows.map((row) => row.event_id)).toEqual(leagues.map(leagueIndexEvent));
    for (const row of rows) expect(row.days).toBe(2);
    const open = (app.history as unknown as { writer: { openBlocks: { size: number } } }).writer.openBlocks;
    expect(open.size).toBeGreaterThan(0);
  }, 600_000);

  it('answers what the walk answers, at instants around changes, midnight, an end and in open blocks', async () => {
    let answered = 0;
    for (const at of instants()) {
      for (const league of leagues) {
        const expected = await walk(league, at);
        const indexed = await app.history.leagueChangesAround(league, at);
        const around = await app.history.eventTimesAround(league, at);
        if (at > START + 1_000) {
          expect(indexed, `${league} at ${at}`).not.toBeNull();
          const previous = [indexed!.previous, around.previous].filter((value) => value !== null);
          const next = [indexed!.next, around.next].filter((value) => value !== null);
          expect(
            {
              previous: previous.length > 0 ? Math.max(...previous) : null,
              next: next.length > 0 ? Math.min(...next) : null,
            },
            `${league} at ${at}`,
          ).toEqual(expected);
          answered += 1;
        }
        expect(await board(league, at), `${league} at ${at}`).toEqual(expected);
      }
    }
    expect(answered).toBeGreaterThan(50);
  }, 600_000);

  it('leaves history older than the index to the walk', async () => {
    // The index of one league as if it had begun a minute after midnight: its blocks before then are deleted.
    const league = leagues[0]!;
    const [series] = await db().query<{ id: number }>(`SELECT id FROM history_series WHERE event_id = $1`, [
      leagueIndexEvent(league),
    ]);
    const from = MIDNIGHT + 60_000;
    await db().query(
      `DELETE FROM price_blocks WHERE series_id = $1 AND first_at < to_timestamp($2 / 1000.0)`,
      [series!.id, from],
    );
    const [first] = await db().query<{ at: string }>(
      `SELECT (extract(epoch from min(first_at)) * 1000)::int8::text AS at FROM price_blocks WHERE series_id = $1`,
      [series!.id],
    );
    const begins = Number(first!.at);
    expect(begins).toBeGreaterThanOrEqual(from);
    const before = changeTimes.filter((at, index) => at < begins && index % 83 === 0);
    const after = changeTimes.filter((at, index) => at > begins + 1 && index % 97 === 0);
    expect(before.length).toBeGreaterThan(5);
    expect(after.length).toBeGreaterThan(2);
    for (const at of [...before, begins]) {
      expect(await app.history.leagueChangesAround(league, at), `${at}`).toBeNull();
      expect(await board(league, at), `${at}`).toEqual(await walk(league, at));
    }
    for (const at of after) {
      expect(await app.history.leagueChangesAround(league, at), `${at}`).not.toBeNull();
      expect(await board(league, at), `${at}`).toEqual(await walk(league, at));
    }
  }, 600_000);

  it('shows in no answer: boards, events, series, movement, lines, CLV, the teaser, finals', async () => {
    key = await createKey(app, 'enterprise');
    const hidden = leagues.map(leagueIndexEvent);
    const events = new Set(
      (await db().query<{ event_id: string }>('SELECT event_id FROM history_events')).map(
        (row) => row.event_id,
      ),
    );
    for (const id of hidden) expect(events.has(id)).toBe(false);
    const at = clock.now();
    for (const league of leagues) {
      expect((await app.history.eventsAt(league, at)).map((event) => event.id)).not.toContain(
        leagueIndexEvent(league),
      );
      const response = await app.inject({
        url: `/v1/historical/odds?league=${league}&limit=100&at=${new Date(at).toISOString()}`,
        headers: { 'x-api-key': key },
      });
      expect(response.statusCode).toBe(200);
      const shown = response
        .json<{ events: { event: { id: string } }[] }>()
        .events.map((entry) => entry.event.id);
      expect(shown.length).toBeGreaterThan(0);
      for (const id of shown) expect(events.has(id)).toBe(true);
      expect(response.body).not.toContain('league:');
    }
    // Every series of every event: none of the index's (its series are reached only by their own event id, which no
    // route takes without finding the event first).
    const all = await app.history.series([...events]);
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((row) => row.eventId.startsWith('league:'))).toEqual([]);
    // The index's series has no opening, closing or result (nothing of an event's is ever set on it).
    const own = await db().query<{ opening_at: unknown; closing_at: unknown; result: unknown }>(
      `SELECT opening_at, closing_at, result FROM history_series WHERE event_id = ANY($1::text[])`,
      [hidden],
    );
    expect(own).toHaveLength(hidden.length);
    for (const row of own) expect(row).toEqual({ opening_at: null, closing_at: null, result: null });
    const asUnknown = async (url: string, payload?: object) => {
      const ask = (id: string) =>
        app.inject({
          method: payload ? 'POST' : 'GET',
          url: url.replace('{id}', encodeURIComponent(id)),
          headers: { 'x-api-key': key },
          ...(payload
            ? { payload: JSON.parse(JSON.stringify(payload).replaceAll('{id}', id)) as object }
            : {}),
        });
      for (const id of hidden) {
        const [index, none] = await Promise.all([ask(id), ask('no-such-event')]);
        expect(index.statusCode, url).toBe(none.statusCode);
        expect(index.body.replaceAll(id, 'X'), url).toBe(none.body.replaceAll('no-such-event', 'X'));
      }
    };
    await asUnknown('/v1/events/{id}/movement');
    await asUnknown('/v1/events/{id}/lines');
    await asUnknown('/tools/history.json?event={id}&sides={id}|changes');
    await asUnknown('/v1/clv', {
      bets: [{ event_id: '{id}', market: 'moneyline', outcome: 'home', price: 150, book: 'fanduel' }],
    });
    const finals = await app.history.completedSince(0, 1_000);
    for (const final of finals) expect(final.id.startsWith('league:')).toBe(false);
  }, 600_000);
});
