import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import {
  createKey,
  openRawStream,
  streamFrames,
  type RawStream,
  type StreamFrame,
} from '#tests/support/server/odds-api.ts';
import { waitFor } from '#tests/support/server/trials.ts';

// Decision 223: a delayed plan's stream gets its arbs as /v1/arbs gives them (decision 210): the arbs the free page
// shows (edge at or below 1 %, near-arbs included) in real time, the arbs above the cap its delay late, in its
// opening snapshot and in its arb events alike.

const clock = virtualClock();
let app: FastifyInstance;
let base = '';
const keys = { starter: '', elite: '' };
const opened: RawStream[] = [];

/** Three games: a 3.6 % arb (BOS), a small arb under the cap (DEN) and a near-arb (LAL). */
const GAMES = { big: ['BOS', 'NYK'], small: ['DEN', 'UTA'], near: ['LAL', 'LAL'] } as const;

function price(game: keyof typeof GAMES, book: string, outcome: 'home' | 'away', american: number) {
  app.engine.ingest({ kind: 'price', sourceEventId: game, book, market: 'moneyline', outcome, american });
}

/** Runs the engine for `ms` of the virtual clock with these prices, one tick a second. */
function run(ms: number, bigAway: number, smallAway: number) {
  for (let elapsed = 0; elapsed < ms; elapsed += 1000) {
    price('big', 'fanduel', 'away', bigAway);
    price('big', 'draftkings', 'home', -130);
    price('small', 'fanduel', 'away', smallAway);
    price('small', 'draftkings', 'home', 100);
    price('near', 'fanduel', 'away', 100);
    price('near', 'draftkings', 'home', -102);
    app.engine.tick();
    clock.advance(1000);
  }
}

interface ArbData {
  edge_pct: number;
  event: { teams: { home: { abbreviation: string } } };
  sides: { sportsbook: string; price: string }[];
}

/** An arb as its home team and FanDuel's away price ("DEN +103"). */
const label = (arb: ArbData) =>
  `${arb.event.teams.home.abbreviation} ${arb.sides.find((side) => side.sportsbook === 'fanduel')!.price}`;

/** The opening snapshot's arbs, labelled. */
const snapshotArbs = (frame: StreamFrame) =>
  (frame.data.arbs as { arb: ArbData }[]).map((entry) => label(entry.arb));

/** The `arb` events received so far, labelled. */
const arbEvents = (stream: RawStream) =>
  streamFrames(stream)
    .filter((frame) => frame.event === 'arb')
    .map((frame) => label(frame.data.arb as ArbData));

async function openPastSnapshot(key: string, headers: Record<string, string> = {}) {
  const stream = await openRawStream(`${base}/v1/stream?types=arb`, { 'x-api-key': key, ...headers });
  opened.push(stream);
  await waitFor(() => streamFrames(stream).some((frame) => frame.event === 'snapshot'), 'the snapshot');
  return stream;
}

/** Lets the hub's timed releases (every 250 ms of real time) run a few times. */
const releases = () => new Promise((resolve) => setTimeout(resolve, 800));

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  app.engine.stop();
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  keys.starter = await createKey(app, 'starter');
  keys.elite = await createKey(app, 'elite');
  for (const [id, [home, away]] of Object.entries(GAMES))
    app.engine.ingest({
      kind: 'event',
      sourceEventId: id,
      league: 'nba',
      home: { name: `${home} home`, abbreviation: home },
      away: { name: `${away} away`, abbreviation: away },
      startsAt: clock.now() + 6 * 3_600_000,
      live: false,
    });
});

afterEach(() => {
  // Starter allows two streams at once: each test closes its own.
  for (const stream of opened.splice(0)) stream.abort();
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/stream: a delayed plan’s arbs (decision 223)', () => {
  it('sends a Starter key the free part’s arbs at once and an arb above the cap only after its 2 minutes', async () => {
    run(30_000, 150, 103);
    const starter = await openPastSnapshot(keys.starter);
    const [snapshot] = streamFrames(starter);
    expect(snapshot!.data.delay_seconds).toBe(120);
    // The arb above the cap was first published 30 s ago: not yet for Starter; the two under the cap, now.
    expect(snapshotArbs(snapshot!)).toEqual(['DEN +103', 'LAL +100']);
    const elite = await openPastSnapshot(keys.elite);
    expect(snapshotArbs(streamFrames(elite)[0]!)).toEqual(['BOS +150', 'DEN +103', 'LAL +100']);

    // The small arb moves: Starter hears of it in the same tick as Elite, not 2 minutes later (the virtual clock
    // stands still while both are awaited; Elite's event goes out with the hub's next release, up to 250 ms of real
    // time after Starter's, which is sent at once).
    run(1_000, 150, 102);
    await waitFor(() => arbEvents(starter).includes('DEN +102'), 'Starter’s arb event DEN +102');
    await waitFor(() => arbEvents(elite).includes('DEN +102'), 'Elite’s arb event DEN +102');

    // Until 2 minutes after the big arb was first published, Starter is not told of it.
    run(88_000, 150, 102);
    await releases();
    expect(arbEvents(starter)).toEqual(['DEN +102']);
    // Then it is, at the price it had then.
    run(2_000, 150, 102);
    await waitFor(() => arbEvents(starter).includes('BOS +150'), 'Starter’s arb event BOS +150');
    expect(arbEvents(starter)).toEqual(['DEN +102', 'BOS +150']);
  });

  it('opens a Starter stream with the free part as it is now and the arbs above the cap as they were 2 minutes ago', async () => {
    // The big arb moves to +160 and the small one to +101, now.
    run(2_000, 160, 101);
    const starter = await openPastSnapshot(keys.starter);
    expect(snapshotArbs(streamFrames(starter)[0]!)).toEqual(['BOS +150', 'DEN +101', 'LAL +100']);
    const elite = await openPastSnapshot(keys.elite);
    expect(snapshotArbs(streamFrames(elite)[0]!)).toEqual(['BOS +160', 'DEN +101', 'LAL +100']);
    // Two minutes later Starter is told of +160, not before.
    run(100_000, 160, 101);
    await releases();
    expect(arbEvents(starter)).not.toContain('BOS +160');
    run(20_000, 160, 101);
    await waitFor(() => arbEvents(starter).includes('BOS +160'), 'Starter’s arb event BOS +160');
  });

  it('resumes a Starter stream of arbs after a Last-Event-ID with a snapshot of its arbs now', async () => {
    const first = await openPastSnapshot(keys.starter);
    const lastId = streamFrames(first).at(-1)!.id;
    first.abort();
    await first.ended;
    run(1_000, 160, 102);
    const resumed = await openPastSnapshot(keys.starter, { 'last-event-id': lastId });
    const frames = streamFrames(resumed);
    expect(frames[0]!.event).toBe('snapshot');
    expect(snapshotArbs(frames[0]!)).toEqual(['BOS +160', 'DEN +102', 'LAL +100']);
  });
});
