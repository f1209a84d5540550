import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameScoreSchema } from '#domain/schemas/api/scores.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { createKey, openRawStream, streamFrames, type RawStream } from '#tests/support/server/odds-api.ts';
import { trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// The stream's `score` events (issue 57, decision 260) on the real app over real HTTP: an NBA game in play (with a
// roster of two players) and an NHL game, their scores sent through the engine's intake.

let app: FastifyInstance;
let base = '';
let nbaId = '';
let nhlId = '';

function game(sourceEventId: string, league: string, home: [string, string], away: [string, string]) {
  app.engine.ingest({
    kind: 'event',
    sourceEventId,
    league,
    home: { name: home[0], abbreviation: home[1] },
    away: { name: away[0], abbreviation: away[1] },
    startsAt: Date.now() - 60_000,
    live: true,
    players: [
      { id: `${sourceEventId}-p1`, name: 'Marcus Hale', team: 'home' },
      { id: `${sourceEventId}-p2`, name: 'Devon Price', team: 'away' },
    ],
  });
}

function score(sourceEventId: string, extra: Record<string, unknown>) {
  expect(app.engine.ingest({ kind: 'score', sourceEventId, ...extra })).toBe(true);
}

const open = (key: string, query: string, headers: Record<string, string> = {}) =>
  openRawStream(`${base}/v1/stream?${query}`, { 'x-api-key': key, ...headers });

async function openPastSnapshot(key: string, query: string): Promise<RawStream> {
  const stream = await open(key, query);
  expect(stream.status).toBe(200);
  await waitFor(
    () => streamFrames(stream).some((f) => f.event === 'snapshot'),
    'streamFrames(stream).some((f) => f.event === "snapshot")',
  );
  return stream;
}

const scoresOf = (stream: RawStream) => streamFrames(stream).filter((f) => f.event === 'score');

beforeAll(async () => {
  app = await buildTestApp({ config: trialTestConfig() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  game('lal-bos-sc', 'nba', ['Los Angeles Lakers', 'LAL'], ['Boston Celtics', 'BOS']);
  game('tor-mtl-sc', 'nhl', ['Toronto Maple Leafs', 'TOR'], ['Montreal Canadiens', 'MTL']);
  nbaId = app.engine.store.events().find((e) => e.league === 'nba')!.id;
  nhlId = app.engine.store.events().find((e) => e.league === 'nhl')!.id;
  score('lal-bos-sc', {
    status: 'live',
    home: 10,
    away: 8,
    clock: 'Q1',
    periods: { q1: { home: 10, away: 8 } },
  });
  score('tor-mtl-sc', {
    status: 'live',
    home: 1,
    away: 0,
    clock: 'P1',
    periods: { p1: { home: 1, away: 0 } },
  });
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/stream (types=score)', () => {
  it('opens with the scores of its league in the snapshot, sends each change and the final with its box score, and resumes after Last-Event-ID', async () => {
    const key = await createKey(app, 'elite');
    const stream = await openPastSnapshot(key, 'types=score&league=nba');
    const snapshot = streamFrames(stream)[0]!;
    expect(snapshot.data).toMatchObject({ events: [], arbs: [] });
    const listed = (snapshot.data.scores as unknown[]).map((s) => GameScoreSchema.parse(s));
    expect(listed.map((s) => [s.event_id, s.status, s.score, s.clock])).toEqual([
      [nbaId, 'live', { home: 10, away: 8 }, 'Q1'],
    ]);

    score('tor-mtl-sc', {
      status: 'live',
      home: 2,
      away: 0,
      clock: 'P2',
      periods: { p1: { home: 1, away: 0 } },
    });
    score('lal-bos-sc', {
      status: 'live',
      home: 12,
      away: 8,
      clock: 'Q1',
      periods: { q1: { home: 12, away: 8 } },
    });
    await waitFor(() => scoresOf(stream).length === 1, 'scoresOf(stream).length === 1');
    const change = GameScoreSchema.parse(scoresOf(stream)[0]!.data);
    expect(change).toMatchObject({
      event_id: nbaId,
      status: 'live',
      score: { home: 12, away: 8 },
      players: null,
    });
    const resumeFrom = scoresOf(stream)[0]!.id;

    score('lal-bos-sc', {
      status: 'final',
      home: 110,
      away: 104,
      periods: { q1: { home: 30, away: 25 }, h1: { home: 55, away: 50 } },
      players: {
        'lal-bos-sc-p1': { full: { player_points: 27, player_rebounds: 8 } },
        'lal-bos-sc-p2': null,
      },
    });
    await waitFor(() => scoresOf(stream).length === 2, 'scoresOf(stream).length === 2');
    const final = GameScoreSchema.parse(scoresOf(stream)[1]!.data);
    expect(final).toMatchObject({ status: 'final', score: { home: 110, away: 104 }, clock: null });
    expect(final.players).toEqual([
      {
        player_id: 'lal-bos-sc-p1',
        name: 'Marcus Hale',
        team: 'home',
        played: true,
        periods: { full: { player_points: 27, player_rebounds: 8 } },
      },
      { player_id: 'lal-bos-sc-p2', name: 'Devon Price', team: 'away', played: false, periods: {} },
    ]);
    // Nothing but the snapshot and the NBA game's scores (the NHL game is filtered out, no prices or arbs).
    expect(streamFrames(stream).map((f) => f.event)).toEqual(['snapshot', 'score', 'score']);
    stream.abort();

    const resumed = await open(key, 'types=score&league=nba', { 'last-event-id': resumeFrom });
    await waitFor(() => scoresOf(resumed).length === 1, 'scoresOf(resumed).length === 1');
    expect(streamFrames(resumed).map((f) => [f.event, f.id])).toEqual([['score', scoresOf(stream)[1]!.id]]);
    resumed.abort();
  });

  it('serves a stream of scores alone in real time to a delayed plan (Pro), filtered by event', async () => {
    const stream = await openPastSnapshot(await createKey(app, 'pro'), `types=score&event=${nhlId}`);
    const snapshot = streamFrames(stream)[0]!;
    expect(snapshot.data.delay_seconds).toBe(0);
    expect((snapshot.data.scores as { event_id: string }[]).map((s) => s.event_id)).toEqual([nhlId]);
    score('tor-mtl-sc', {
      status: 'live',
      home: 3,
      away: 0,
      clock: 'P2',
      periods: { p1: { home: 1, away: 0 } },
    });
    await waitFor(() => scoresOf(stream).length === 1, 'scoresOf(stream).length === 1');
    expect(scoresOf(stream)[0]!.data).toMatchObject({ event_id: nhlId, score: { home: 3, away: 0 } });
    stream.abort();
  });

  it('gives a delayed plan mixing scores with prices the scores as they stood its delay ago', async () => {
    score('tor-mtl-sc', {
      status: 'live',
      home: 4,
      away: 0,
      clock: 'P3',
      periods: { p1: { home: 1, away: 0 } },
    });
    const stream = await openPastSnapshot(await createKey(app, 'pro'), 'types=price,score&league=nhl');
    const snapshot = streamFrames(stream)[0]!;
    expect(snapshot.data.delay_seconds).toBe(15);
    // The game's every score came within the last 15 s: as of the horizon the stream had none of them.
    expect(snapshot.data.scores).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(scoresOf(stream)).toEqual([]);
    stream.abort();
  });

  it('sends no score events to a stream that did not ask for them', async () => {
    const stream = await openPastSnapshot(await createKey(app, 'elite'), 'league=nhl');
    expect(streamFrames(stream)[0]!.data).not.toHaveProperty('scores');
    score('tor-mtl-sc', {
      status: 'live',
      home: 5,
      away: 0,
      clock: 'P3',
      periods: { p1: { home: 1, away: 0 } },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(scoresOf(stream)).toEqual([]);
    stream.abort();
  });

  it('answers 403 plan-feature to a Starter key asking for scores, as GET /v1/scores does', async () => {
    const key = await createKey(app, 'starter');
    const answer = await fetch(`${base}/v1/stream?types=price,score`, { headers: { 'x-api-key': key } });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({
      feature: 'scores-and-grading',
      plans: ['pro', 'elite', 'enterprise'],
    });
  });
});
