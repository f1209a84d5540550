import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { sideId } from '#domain/markets.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, ticksByOutcome, type BoardEvent } from '#tests/support/server/history.ts';
import { MAX_ROWS_PER_STATEMENT } from './batch-sql.ts';
import type { SqlClient, SqlRunner } from './sql-client.ts';
import { external, trialTestConfig } from '#tests/support/server/trials.ts';

// The history store on the real app: what the engine accepts is written (every change, no re-confirmations), the
// opening line is the first price, the closing line the last open price at or before the start, an ended event's
// prices are closed with "removed" ticks, and a restart keeps it all. PGlite here; PostgreSQL in the integration twin.

/** Storage that outlives an app (a restart): a PGlite directory, or the suite's PostgreSQL schema. */
function durableStorage(): Record<string, string> {
  return external()
    ? {}
    : { PGLITE_DIR: path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-history-')), 'db') };
}

/** Storage formats (decision 240): the restart, first-sight and retention tests run on both. */
const FORMATS = ['rows', 'blocks'] as const;

const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let board: HandBoard;

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  board = new HandBoard(app, clock, 'hs');
});

afterAll(async () => {
  await app.close();
});

describe('odds history store', () => {
  it('writes a flush larger than one statement holds (MAX_ROWS_PER_STATEMENT) whole: every series and tick', async () => {
    const event = board.addEvent({ startsInMs: 10 * 60_000 });
    const points = Array.from({ length: 500 }, (_, index) => index + 0.5);
    const books = ['fanduel', 'draftkings', 'betmgm'];
    for (const book of books)
      for (const point of points) {
        board.price(event, book, 'total', 'over', -110, { point });
        board.price(event, book, 'total', 'under', -110, { point });
      }
    await board.flush();
    const series = await app.history.series(event.id, {});
    expect(series.length).toBe(books.length * points.length * 2);
    expect(series.length).toBeGreaterThan(MAX_ROWS_PER_STATEMENT);
    expect(
      series.filter((entry) => entry.opening?.american !== -110).map((e) => [e.marketKey, e.opening]),
    ).toEqual([]);
    const ticks = await app.history.ticks(
      series.map((entry) => entry.id),
      { from: 0, to: clock.now(), limit: 10_000 },
    );
    expect(ticks.length).toBe(series.length);
    clock.advance(1_000);
  });

  it('keeps every change of a series in order, skips re-confirmations, and knows opening and closing lines', async () => {
    const event = board.addEvent({ startsInMs: 10 * 60_000 });
    board.price(event, 'fanduel', 'moneyline', 'home', -110);
    board.price(event, 'fanduel', 'moneyline', 'away', -110);
    clock.advance(1_000);
    board.price(event, 'fanduel', 'moneyline', 'home', -110); // re-confirmation: not a change
    clock.advance(1_000);
    board.price(event, 'fanduel', 'moneyline', 'home', -120);
    clock.advance(1_000);
    board.price(event, 'fanduel', 'moneyline', 'home', -120, { suspended: true });
    clock.advance(1_000);
    board.price(event, 'fanduel', 'moneyline', 'home', -125);
    await board.flush();

    const series = await app.history.series(event.id, { book: 'fanduel', outcome: 'home' });
    expect(series).toHaveLength(1);
    const home = series[0]!;
    expect(home.marketType).toBe('moneyline');
    expect(home.opening).toMatchObject({ american: -110, at: clock.now() - 4_000 });
    expect(home.closing).toBeNull();
    const ticks = await app.history.ticks([home.id], { from: 0, to: clock.now(), limit: 100 });
    expect(ticks.map((tick) => [tick.american, tick.state])).toEqual([
      [-110, 'open'],
      [-120, 'open'],
      [-120, 'suspended'],
      [-125, 'open'],
    ]);
    expect(ticks.map((tick) => tick.at)).toEqual([
      clock.now() - 4_000,
      clock.now() - 2_000,
      clock.now() - 1_000,
      clock.now(),
    ]);

    // A change after the start does not move the closing line; the last open price at or before it is the close.
    clock.advance(10 * 60_000);
    board.start(event);
    clock.advance(500);
    board.price(event, 'fanduel', 'moneyline', 'home', -300);
    clock.advance(1_500);
    await board.flush();
    const [started] = await app.history.series(event.id, { book: 'fanduel', outcome: 'home' });
    expect(started!.closing).toMatchObject({ american: -125, decimal: 1.8 });
    expect(started!.opening).toMatchObject({ american: -110 });
    const stored = await app.history.event(event.id);
    expect(stored).toMatchObject({ id: event.id, league: 'nba', startsAt: event.startsAt });
    expect(stored!.closedAt).not.toBeNull();
    expect(stored!.liveAt).not.toBeNull();
  });

  it('an event that ends closes every standing price with a removed tick and is still readable', async () => {
    const event = board.addEvent({ startsInMs: 60_000 });
    board.price(event, 'draftkings', 'total', 'over', -105, { point: 221.5 });
    board.price(event, 'draftkings', 'total', 'under', -115, { point: 221.5 });
    clock.advance(2_000);
    board.end(event);
    await board.flush();
    const series = await app.history.series(event.id);
    expect(series.map((row) => [row.marketType, row.line, row.outcome])).toEqual([
      ['total', 221.5, 'over'],
      ['total', 221.5, 'under'],
    ]);
    const last = await app.history.lastTicks(series.map((row) => row.id));
    for (const row of series) expect(last.get(row.id)).toMatchObject({ state: 'removed', at: clock.now() });
    expect((await app.history.event(event.id))!.endedAt).toBe(clock.now());
  });

  // Issue 57: a final score is kept beside the closing lines, and each game-line series graded from it.
  it('keeps the final score of each period on the event and grades every game-line series from it', async () => {
    const event = board.addEvent({ startsInMs: 60_000 });
    const lines: [string, string, number | undefined][] = [
      ['spread', 'home', -3],
      ['spread', 'away', 3],
      ['spread', 'home', -2.5],
      ['total', 'over', 220.5],
      ['total', 'under', 220.5],
      ['moneyline', 'home', undefined],
    ];
    for (const [market, outcome, point] of lines)
      board.price(event, 'fanduel', market, outcome, -110, point === undefined ? {} : { point });
    board.price(event, 'fanduel', 'spread', 'home', -110, { point: -1.5, period: 'h1' });
    clock.advance(61_000);
    board.start(event);
    clock.advance(1_000);
    const periods = { h1: { home: 50, away: 52 }, full: { home: 110, away: 107 } };
    board.score(event, {
      status: 'final',
      home: 110,
      away: 107,
      periods,
    });
    board.end(event);
    await board.flush();
    const stored = await app.history.event(event.id);
    expect(stored!.finalScore).toEqual(periods);
    expect(stored!.completedAt).toBe(clock.now());
    const series = await app.history.series(event.id);
    const results = series.map((row) => [row.marketType, row.period, row.line, row.outcome, row.result]);
    expect(results).toEqual(
      expect.arrayContaining([
        ['spread', 'full', -3, 'home', 'push'],
        ['spread', 'full', -3, 'away', 'push'],
        ['spread', 'full', -2.5, 'home', 'won'],
        ['total', 'full', 220.5, 'over', 'lost'],
        ['total', 'full', 220.5, 'under', 'won'],
        ['moneyline', 'full', null, 'home', 'won'],
        ['spread', 'h1', -1.5, 'home', 'lost'],
      ]),
    );
    expect(series.every((row) => row.closing !== null)).toBe(true);
  });

  // Decision 261: props graded from the final's box score; a player who did not play voids his props.
  it('grades every prop series from the box score: over and under, a period, yes/no, void for a scratch', async () => {
    const event = board.addEvent({ startsInMs: 60_000 });
    board.roster(event, [
      { id: 'hs-p1', name: 'Marcus Hale', team: 'home' },
      { id: 'hs-p2', name: 'Devon Price', team: 'away' },
      { id: 'hs-p3', name: 'Tariq Moss', team: 'home' },
    ]);
    const prop = (player: string, stat: string, outcome: string, point: number | null, period = 'full') =>
      board.price(event, 'fanduel', 'prop', outcome, -110, { stat, player: { id: player }, point, period });
    for (const outcome of ['over', 'under']) {
      prop('hs-p1', 'player_points', outcome, 24.5);
      prop('hs-p1', 'player_points', outcome, 9.5, 'q1');
      prop('hs-p2', 'player_points', outcome, 19.5);
      prop('hs-p3', 'player_rebounds', outcome, 7.5);
    }
    for (const outcome of ['yes', 'no']) prop('hs-p1', 'player_double_double', outcome, null);
    clock.advance(61_000);
    board.start(event);
    clock.advance(1_000);
    const players = {
      'hs-p1': { full: { player_points: 27, player_double_double: 0 }, q1: { player_points: 8 } },
      'hs-p2': null,
      // His points only: the rebounds prop has no figure to settle on and stays ungraded.
      'hs-p3': { full: { player_points: 12 } },
    };
    board.score(event, {
      status: 'final',
      home: 101,
      away: 99,
      players,
    });
    board.end(event);
    await board.flush();
    const stored = await app.history.event(event.id);
    expect(stored!.boxScore).toEqual({ 'hs-p1': players['hs-p1'], 'hs-p3': players['hs-p3'] });
    const series = await app.history.series(event.id);
    const results = series.map((row) => [row.player!.id, row.stat, row.period, row.outcome, row.result]);
    expect(results).toEqual(
      expect.arrayContaining([
        ['hs-p1', 'player_points', 'full', 'over', 'won'],
        ['hs-p1', 'player_points', 'full', 'under', 'lost'],
        ['hs-p1', 'player_points', 'q1', 'over', 'lost'],
        ['hs-p1', 'player_points', 'q1', 'under', 'won'],
        ['hs-p1', 'player_double_double', 'full', 'yes', 'lost'],
        ['hs-p1', 'player_double_double', 'full', 'no', 'won'],
        ['hs-p2', 'player_points', 'full', 'over', 'void'],
        ['hs-p2', 'player_points', 'full', 'under', 'void'],
        ['hs-p3', 'player_rebounds', 'full', 'over', null],
        ['hs-p3', 'player_rebounds', 'full', 'under', null],
      ]),
    );
    expect(results).toHaveLength(10);
    expect(series.every((row) => row.closing !== null)).toBe(true);
  });

  // Decision 262: a source that scores only the game (The Odds API) leaves period series ungraded, not void.
  it('grades only the full game of a final without period scores, and keeps that on the event', async () => {
    const event = board.addEvent({ startsInMs: 60_000 });
    board.price(event, 'fanduel', 'spread', 'home', -110, { point: -2.5 });
    board.price(event, 'fanduel', 'spread', 'home', -110, { point: -1.5, period: 'h1' });
    board.price(event, 'fanduel', 'moneyline', 'home', -120);
    clock.advance(61_000);
    board.start(event);
    clock.advance(1_000);
    board.score(event, {
      status: 'final',
      home: 100,
      away: 96,
      periodScores: false,
    });
    board.end(event);
    await board.flush();
    const stored = await app.history.event(event.id);
    expect(stored).toMatchObject({
      finalScore: { full: { home: 100, away: 96 } },
      periodsReported: false,
      boxScore: null,
    });
    const series = await app.history.series(event.id);
    expect(series.map((row) => [row.marketType, row.period, row.result])).toEqual(
      expect.arrayContaining([
        ['spread', 'full', 'won'],
        ['spread', 'h1', null],
        ['moneyline', 'full', 'won'],
      ]),
    );
  });

  it('a series first seen suspended gets its opening line from its first open price', async () => {
    const event = board.addEvent();
    board.price(event, 'betmgm', 'moneyline', 'away', 150, { suspended: true });
    await board.flush();
    expect((await app.history.series(event.id))[0]!.opening).toBeNull();
    clock.advance(1_000);
    board.price(event, 'betmgm', 'moneyline', 'away', 155);
    await board.flush();
    expect((await app.history.series(event.id))[0]!.opening).toMatchObject({
      american: 155,
      at: clock.now(),
    });
  });

  it('pages through ticks by (series, time) without losing or repeating one', async () => {
    const event = board.addEvent();
    for (let step = 0; step < 30; step += 1) {
      clock.advance(100);
      board.price(event, 'caesars', 'moneyline', 'home', -110 - step);
      board.price(event, 'caesars', 'moneyline', 'away', 100 + step);
    }
    await board.flush();
    const ids = (await app.history.series(event.id)).map((row) => row.id);
    const seen: string[] = [];
    let after: { seriesId: number; atUs: number } | undefined;
    for (;;) {
      const page = await app.history.ticks(ids, { from: 0, to: clock.now(), limit: 7, after });
      if (page.length === 0) break;
      for (const tick of page) seen.push(`${tick.seriesId}:${tick.atUs}:${tick.american}`);
      const last = page[page.length - 1]!;
      after = { seriesId: last.seriesId, atUs: last.atUs };
    }
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
  });

  it('readiness reports the writer: nothing queued or dropped after a flush', async () => {
    await board.flush();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    const history = ready.json().checks.history;
    expect(history.ok).toBe(true);
    expect(history.details).toMatchObject({ queuedChanges: 0, droppedBatches: 0, droppedChanges: 0 });
    expect(history.details.writtenChanges).toBeGreaterThan(0);
  });
});

/** The fixture's roster, sent as the source does: the same event message, with its players. */
function addPlayers(
  hand: HandBoard,
  event: BoardEvent,
  players: { id: string; name: string; team?: string }[],
): void {
  const stored = hand.app.engine.store.event(event.id)!;
  const accepted = hand.app.engine.ingest({
    kind: 'event',
    sourceEventId: event.source,
    league: stored.league,
    home: { name: stored.home.name },
    away: { name: stored.away.name },
    startsAt: event.startsAt,
    live: stored.live,
    players,
  });
  expect(accepted).toBe(true);
}

describe('player props in the odds history (issue 15)', () => {
  const LEBRON = { id: 'p-lebron', name: 'LeBron James' };
  const points = (point: number) => ({ stat: 'player_points', player: LEBRON, point });

  it('records a prop series with its stat and player, every change, and its opening and closing lines', async () => {
    const event = board.addEvent({ startsInMs: 10 * 60_000 });
    addPlayers(board, event, [
      { ...LEBRON, team: 'home' },
      { id: 'p-nobody', name: 'Listed Without Team' },
    ]);
    const t0 = clock.now();
    board.price(event, 'fanduel', 'prop', 'over', -110, points(27.5));
    board.price(event, 'fanduel', 'prop', 'under', -110, points(27.5));
    board.price(event, 'fanduel', 'moneyline', 'home', -130);
    board.price(event, 'fanduel', 'prop', 'yes', 250, {
      stat: 'player_double_double',
      player: { id: 'p-nobody', name: 'Listed Without Team' },
    });
    clock.advance(1_000);
    board.price(event, 'fanduel', 'prop', 'over', -110, points(27.5)); // re-confirmation: not a change
    clock.advance(1_000);
    board.price(event, 'fanduel', 'prop', 'over', -120, points(27.5));
    clock.advance(1_000);
    board.price(event, 'fanduel', 'prop', 'over', -120, { ...points(27.5), suspended: true });
    await board.flush();

    const key = `${event.id}|prop|player_points|full|p-lebron|27.5`;
    const [over] = await app.history.series(event.id, { marketKey: key, outcome: 'over' });
    expect(over).toMatchObject({
      marketKey: key,
      marketType: 'prop',
      period: 'full',
      line: 27.5,
      outcome: 'over',
      book: 'fanduel',
      stat: 'player_points',
      player: { id: 'p-lebron', name: 'LeBron James', team: 'home' },
      sideId: sideId(
        event.id,
        { type: 'prop', stat: 'player_points', period: 'full', playerId: 'p-lebron', point: 27.5 },
        'over',
        'fanduel',
      ),
      opening: { american: -110, at: t0 },
      closing: null,
    });
    const ticks = await app.history.ticks([over!.id], { from: 0, to: clock.now(), limit: 10 });
    expect(ticks.map((tick) => [tick.american, tick.state, tick.at - t0])).toEqual([
      [-110, 'open', 0],
      [-120, 'open', 2_000],
      [-120, 'suspended', 3_000],
    ]);
    // A game line of the same event has neither stat nor player; a yes/no prop has no line, and a player the source
    // listed without a team has none.
    const [moneyline] = await app.history.series(event.id, { marketType: 'moneyline' });
    expect(moneyline).toMatchObject({ stat: null, player: null, line: null });
    const [double] = await app.history.series(event.id, { stats: ['player_double_double'] });
    expect(double).toMatchObject({
      marketType: 'prop',
      line: null,
      outcome: 'yes',
      player: { id: 'p-nobody', name: 'Listed Without Team', team: null },
    });

    // The closing line is the last open price at or before the start (the suspension does not count).
    clock.set(event.startsAt + 1_000);
    board.start(event);
    clock.advance(500);
    board.price(event, 'fanduel', 'prop', 'over', -200, points(27.5));
    clock.advance(1_500);
    await board.flush();
    const [closed] = await app.history.series(event.id, { marketKey: key, outcome: 'over' });
    expect(closed!.opening).toMatchObject({ american: -110 });
    expect(closed!.closing).toMatchObject({ american: -120, decimal: 1.8333, at: t0 + 2_000 });
    const [under] = await app.history.series(event.id, { marketKey: key, outcome: 'under' });
    expect(under!.closing).toMatchObject({ american: -110, at: t0 });
  });

  it('finds a player by id or by his name however it is written, and narrows the series to his props', async () => {
    const event = board.addEvent();
    addPlayers(board, event, [
      { ...LEBRON, team: 'home' },
      { id: 'p-doncic', name: 'Luka Dončić', team: 'away' },
    ]);
    board.price(event, 'draftkings', 'prop', 'over', -110, points(26.5));
    board.price(event, 'draftkings', 'prop', 'over', -105, {
      stat: 'player_assists',
      player: { id: 'p-doncic', name: 'Luka Dončić' },
      point: 8.5,
    });
    board.price(event, 'draftkings', 'moneyline', 'home', 120);
    await board.flush();

    for (const asked of ['p-lebron', 'LeBron James', 'lebron james', ' LEBRON  JAMES ', 'LeBron James Jr.'])
      expect(await app.history.playerIds(event.id, asked), asked).toEqual(['p-lebron']);
    expect(await app.history.playerIds(event.id, 'luka doncic')).toEqual(['p-doncic']);
    expect(await app.history.playerIds(event.id, 'James')).toEqual([]);
    expect(await app.history.playerIds(event.id, '...')).toEqual([]);
    const his = await app.history.series(event.id, { playerIds: ['p-lebron'] });
    expect(his.map((row) => [row.stat, row.line, row.player?.name])).toEqual([
      ['player_points', 26.5, 'LeBron James'],
    ]);
  });
});

describe('odds history across a restart', () => {
  for (const format of FORMATS) {
    it(`a restarted server on the same database keeps the ticks, the opening line, and adds to them (HISTORY_FORMAT=${format})`, async () => {
      const config = trialTestConfig({ ...durableStorage(), HISTORY_FORMAT: format });
      const restartClock = virtualClock(Date.UTC(2026, 10, 22, 18));
      let first = await buildTestApp({ config, now: restartClock.now });
      await first.ready();
      let hand = new HandBoard(first, restartClock, 'rs');
      const event = hand.addEvent();
      hand.price(event, 'fanduel', 'spread', 'home', -110, { point: -3.5 });
      restartClock.advance(1_000);
      hand.price(event, 'fanduel', 'spread', 'home', -105, { point: -3.5 });
      await first.close(); // the close writes what was gathered

      first = await buildTestApp({ config, now: restartClock.now });
      await first.ready();
      hand = new HandBoard(first, restartClock, 'rs');
      // The source announces the same fixture again after the restart.
      const again = hand.addEvent({ startsInMs: event.startsAt - restartClock.now() });
      expect(again.id).toBe(event.id);
      restartClock.advance(1_000);
      hand.price(again, 'fanduel', 'spread', 'home', -102, { point: -3.5 });
      await hand.flush();
      const series = await first.history.series(event.id);
      expect(series).toHaveLength(1);
      expect(series[0]!.opening).toMatchObject({ american: -110 });
      const ticks = await first.history.ticks([series[0]!.id], {
        from: 0,
        to: restartClock.now(),
        limit: 10,
      });
      expect(ticks.map((tick) => tick.american)).toEqual([-110, -105, -102]);
      await first.close();
    });
  }
});

describe('odds history when the engine starts over (a restart, a leadership change)', () => {
  for (const format of FORMATS) {
    it(`a price seen again unchanged after a restart writes no tick; a changed one does (HISTORY_FORMAT=${format})`, async () => {
      const config = trialTestConfig({ ...durableStorage(), HISTORY_FORMAT: format });
      const again = virtualClock(Date.UTC(2026, 10, 22, 19));
      let server = await buildTestApp({ config, now: again.now });
      await server.ready();
      let hand = new HandBoard(server, again, 'ru');
      const event = hand.addEvent();
      hand.price(event, 'fanduel', 'moneyline', 'home', -110);
      hand.price(event, 'fanduel', 'moneyline', 'away', -110);
      await server.close();

      again.advance(5_000);
      server = await buildTestApp({ config, now: again.now });
      await server.ready();
      hand = new HandBoard(server, again, 'ru');
      const same = hand.addEvent({ startsInMs: event.startsAt - again.now() });
      hand.price(same, 'fanduel', 'moneyline', 'home', -110); // as the database has it: not a change
      hand.price(same, 'fanduel', 'moneyline', 'away', -115); // moved while the server was down: a change
      await hand.flush();
      const ticks = await ticksByOutcome(server, event.id, 'fanduel', again.now());
      const byOutcome = (outcome: string) => ticks.get(outcome)!.map((tick) => [tick.american, tick.at]);
      expect(byOutcome('home')).toEqual([[-110, again.now() - 5_000]]);
      expect(byOutcome('away')).toEqual([
        [-110, again.now() - 5_000],
        [-115, again.now()],
      ]);
      const ready = (await server.inject({ method: 'GET', url: '/readyz' })).json();
      expect(ready.checks.history.details.unchangedSkipped).toBe(1);
      await server.close();
    });
  }

  it('emptying the engine (engine.clear) records no removed ticks and ends no event', async () => {
    const event = board.addEvent({ startsInMs: 10 * 60_000 });
    board.price(event, 'fanduel', 'moneyline', 'home', -110);
    board.price(event, 'draftkings', 'moneyline', 'away', 105);
    await board.flush();
    clock.advance(1_000);
    app.engine.clear();
    await board.flush();
    const series = await app.history.series(event.id);
    const ticks = await app.history.ticks(
      series.map((row) => row.id),
      { from: 0, to: clock.now(), limit: 10 },
    );
    expect(ticks.map((tick) => tick.state)).toEqual(['open', 'open']);
    expect((await app.history.event(event.id))?.endedAt).toBeNull();
  });
});

describe('an instance that does not record (HISTORY_RECORD=false)', () => {
  it('writes nothing and says so in /readyz, while reads still answer', async () => {
    const quietClock = virtualClock(Date.UTC(2026, 10, 22, 20));
    const quiet = await buildTestApp({
      config: trialTestConfig({ HISTORY_RECORD: 'false' }),
      now: quietClock.now,
    });
    await quiet.ready();
    const hand = new HandBoard(quiet, quietClock, 'nr');
    const event = hand.addEvent();
    hand.price(event, 'fanduel', 'moneyline', 'home', -110);
    await hand.flush();
    expect(await quiet.history.event(event.id)).toBeUndefined();
    expect(await quiet.history.series(event.id)).toEqual([]);
    const ready = (await quiet.inject({ method: 'GET', url: '/readyz' })).json();
    expect(ready.checks.history).toEqual({ ok: true, details: { recording: false } });
    await quiet.close();
  });
});

describe('the write queue when full (HISTORY_QUEUE_MAX_CHANGES)', () => {
  /** An app whose queue holds 1,000 changes, with one event already written. */
  async function smallQueue(prefix: string) {
    const clock = virtualClock(Date.UTC(2026, 10, 22, 21));
    const app = await buildTestApp({
      // Rows: the hold stops a batch at its INSERT INTO price_ticks (the queue is the same for both formats).
      config: trialTestConfig({
        HISTORY_QUEUE_MAX_CHANGES: '1000',
        HISTORY_FLUSH_MS: '60000',
        HISTORY_FORMAT: 'rows',
      }),
      now: clock.now,
    });
    onTestFinished(() => app.close());
    await app.ready();
    const hand = new HandBoard(app, clock, prefix);
    const busy = hand.addEvent();
    hand.price(busy, 'fanduel', 'moneyline', 'home', -110);
    await hand.flush();
    return { clock, app, hand, busy };
  }

  /** Stops the next batch's transaction before its ticks (it is being written) until `release()`. */
  function holdAtTicks(app: FastifyInstance) {
    const db = (app.history as unknown as { db: SqlClient }).db;
    const transaction = db.transaction;
    let reached = () => {};
    const atTicks = new Promise<void>((resolve) => (reached = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    db.transaction = <T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> =>
      transaction.call(db, (tx: SqlRunner) =>
        work({
          async query<R>(text: string, params?: unknown[]) {
            if (text.includes('INSERT INTO price_ticks')) {
              reached();
              await released;
            }
            return tx.query<R>(text, params);
          },
        }),
      ) as Promise<T>;
    return { atTicks, release, restore: () => (db.transaction = transaction) };
  }

  it("keeps a dropped batch's new fixture and series when the only batch queued is the one being written", async () => {
    const { clock: fullClock, app: small, hand, busy } = await smallQueue('fq');
    const hold = holdAtTicks(small);
    let dropped: { fixture: BoardEvent; stats: Record<string, unknown> };
    try {
      for (let step = 0; step < 600; step += 1) {
        fullClock.advance(10);
        hand.price(busy, 'fanduel', 'moneyline', 'home', step % 2 ? -110 : -120);
      }
      const writing = small.history.flush(10_000);
      await hold.atTicks;
      // While those 600 changes are written, 500 more arrive with a new fixture: past the queue's 1,000, dropped.
      const fixture = hand.addEvent();
      hand.price(fixture, 'draftkings', 'moneyline', 'away', 130);
      for (let step = 0; step < 499; step += 1) {
        fullClock.advance(10);
        hand.price(busy, 'caesars', 'moneyline', 'home', step % 2 ? -110 : -120);
      }
      const dropping = small.history.flush(10_000);
      hold.release();
      expect(await writing).toBe(true);
      expect(await dropping).toBe(true);
      dropped = { fixture, stats: small.history.stats() };
    } finally {
      hold.restore();
    }
    expect(dropped.stats).toMatchObject({ droppedBatches: 1, droppedChanges: 500, queuedChanges: 0 });

    // Only the dropped batch's ticks are lost: its fixture is recorded, and its series takes the next change.
    const { fixture } = dropped;
    expect(await small.history.event(fixture.id)).toMatchObject({ id: fixture.id });
    fullClock.advance(1_000);
    hand.price(fixture, 'draftkings', 'moneyline', 'away', 135);
    await hand.flush();
    const ticks = await ticksByOutcome(small, fixture.id, 'draftkings', fullClock.now());
    expect(ticks.get('away')?.map((tick) => tick.american)).toEqual([135]);
    expect(small.history.stats()).toMatchObject({ droppedChanges: 500 });
  });

  it('records the gap of a batch dropped while another batch is being written', async () => {
    const { clock, app, hand, busy } = await smallQueue('fg');
    const hold = holdAtTicks(app);
    let from = 0;
    try {
      for (let step = 0; step < 600; step += 1) {
        clock.advance(10);
        hand.price(busy, 'fanduel', 'moneyline', 'home', step % 2 ? -110 : -120);
      }
      const writing = app.history.flush(10_000);
      await hold.atTicks;
      // While those 600 changes are written, 500 more arrive 10 ms apart: past the queue's 1,000, dropped.
      from = clock.now() + 10;
      for (let step = 0; step < 500; step += 1) {
        clock.advance(10);
        hand.price(busy, 'caesars', 'moneyline', 'home', step % 2 ? -110 : -120);
      }
      const dropping = app.history.flush(10_000);
      hold.release();
      expect(await writing).toBe(true);
      expect(await dropping).toBe(true);
    } finally {
      hold.restore();
    }
    expect(app.history.stats()).toMatchObject({ droppedBatches: 1, droppedChanges: 500 });

    // The gap is recorded with the next batch written.
    clock.advance(1_000);
    hand.price(busy, 'fanduel', 'moneyline', 'home', -130);
    await hand.flush();
    expect(await app.history.gaps(from - 1_000, clock.now())).toEqual([
      { from, to: from + 4_990, droppedChanges: 500, cause: 'queue-full' },
    ]);
  });
});

describe('retention and the size cap', () => {
  for (const format of FORMATS) {
    it(`drops day partitions past HISTORY_RETENTION_DAYS with their events, and days over HISTORY_MAX_GB oldest first (HISTORY_FORMAT=${format})`, async () => {
      const dayClock = virtualClock(Date.UTC(2026, 9, 1, 12));
      const config = trialTestConfig({
        ...durableStorage(),
        HISTORY_RETENTION_DAYS: '2',
        HISTORY_MAX_GB: '1',
        HISTORY_FORMAT: format,
      });
      const timed = await buildTestApp({ config, now: dayClock.now });
      await timed.ready();
      const hand = new HandBoard(timed, dayClock, 'rt');
      const old = hand.addEvent({ startsInMs: 3_600_000 });
      hand.price(old, 'fanduel', 'moneyline', 'home', -110);
      await hand.flush();
      dayClock.advance(2 * 3_600_000);
      hand.end(old);
      await hand.flush();

      // Three days later: the old event's day is past the 2-day retention.
      dayClock.advance(3 * 86_400_000);
      const recent = hand.addEvent();
      hand.price(recent, 'fanduel', 'moneyline', 'home', -120);
      await timed.history.maintain();
      await hand.flush();
      expect(await timed.history.event(old.id)).toBeUndefined();
      expect(await timed.history.series(old.id)).toEqual([]);
      const kept = await timed.history.series(recent.id);
      expect(kept).toHaveLength(1);
      expect(timed.history.stats()).toMatchObject({ overSizeCap: false });

      // A day later, with a cap far below what is stored: yesterday's day goes, today's stays and is reported over.
      dayClock.advance(86_400_000);
      hand.price(recent, 'fanduel', 'moneyline', 'home', -125);
      await hand.flush();
      await timed.close();
      const capped = await buildTestApp({
        config: { ...config, HISTORY_MAX_GB: 1 / 1024 ** 3 },
        now: dayClock.now,
      });
      await capped.ready();
      await capped.history.maintain();
      const ticks = await capped.history.ticks([kept[0]!.id], { from: 0, to: dayClock.now(), limit: 10 });
      expect(ticks.map((tick) => tick.american)).toEqual([-125]);
      expect(capped.history.stats()).toMatchObject({ overSizeCap: true });
      await capped.close();
    });
  }
});
