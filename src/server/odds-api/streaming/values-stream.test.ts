import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '#tests/support/server/app.ts';
import { createKey, openRawStream, streamFrames } from '#tests/support/server/odds-api.ts';
import { trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// The stream's positive-EV and middles events (decisions 170, 273: the engine keeps the sets wherever the API is
// served). EV: four books price a moneyline
// at −110 each way; BetMGM's home price decides whether there is a positive-EV price (+105 against a fair of 1/2 is
// +2.5 %, +110 is +5 %). Middles: three books price another game's spread at home −2.5 / away +2.5 (−110 each way, the
// centre), and BetMGM hangs away +3.5: the two best home −2.5 books each pair with it, a middle on a margin of 3.

let app: FastifyInstance;
let base = '';
/** The test event's moneyline market key (the engine names the event). */
let EV_KEY = '';
let eventId = '';
let middleEventId = '';

function price(book: string, outcome: string, american: number) {
  app.engine.ingest({
    kind: 'price',
    sourceEventId: 'lal-bos-ev',
    book,
    market: 'moneyline',
    outcome,
    american,
  });
}

/** The middle game's spread: three books at 2.5, BetMGM's away +3.5 (suspended when `away35` is false). */
function spreads(away35: boolean) {
  for (const book of ['fanduel', 'draftkings', 'caesars']) {
    for (const [outcome, point] of [
      ['home', -2.5],
      ['away', 2.5],
    ] as const)
      app.engine.ingest({
        kind: 'price',
        sourceEventId: 'den-phx-mid',
        book,
        market: 'spread',
        period: 'full',
        point,
        outcome,
        american: -110,
      });
  }
  app.engine.ingest({
    kind: 'price',
    sourceEventId: 'den-phx-mid',
    book: 'betmgm',
    market: 'spread',
    period: 'full',
    point: 3.5,
    outcome: 'away',
    american: -105,
    ...(away35 ? {} : { suspended: true }),
  });
}

function quote(betmgmHome: number) {
  for (const book of ['fanduel', 'draftkings', 'caesars']) {
    price(book, 'home', -110);
    price(book, 'away', -110);
  }
  price('betmgm', 'home', betmgmHome);
  price('betmgm', 'away', -125);
}

function open(key: string, query: string, headers: Record<string, string> = {}) {
  return openRawStream(`${base}/v1/stream?${query}`, { 'x-api-key': key, ...headers });
}

/** A stream, once its snapshot has come. */
async function openPastSnapshot(key: string, query: string) {
  const stream = await open(key, query);
  await waitFor(
    () => streamFrames(stream).some((f) => f.event === 'snapshot'),
    "streamFrames(stream).some((f) => f.event === 'snapshot')",
  );
  return stream;
}

/** A Pro stream (15 s delay) and an Elite one (real time), each past its snapshot. */
async function delayedAndLive(query: string) {
  const delayed = await openPastSnapshot(await createKey(app, 'pro'), query);
  const live = await openPastSnapshot(await createKey(app, 'elite'), query);
  expect(streamFrames(delayed)[0]!.data.delay_seconds).toBe(15);
  return { delayed, live };
}

beforeAll(async () => {
  app = await buildTestApp({ config: trialTestConfig() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  /** An NBA game an hour from now: the EV market's, then the middles'. */
  const game = (sourceEventId: string, home: [string, string], away: [string, string]) =>
    app.engine.ingest({
      kind: 'event',
      sourceEventId,
      league: 'nba',
      home: { name: home[0], abbreviation: home[1] },
      away: { name: away[0], abbreviation: away[1] },
      startsAt: Date.now() + 3_600_000,
    });
  game('lal-bos-ev', ['Los Angeles Lakers', 'LAL'], ['Boston Celtics', 'BOS']);
  eventId = app.engine.store.events()[0]!.id;
  EV_KEY = `${eventId}|moneyline|full|`;
  quote(105);
  game('den-phx-mid', ['Phoenix Suns', 'PHX'], ['Denver Nuggets', 'DEN']);
  middleEventId = app.engine.store.events().find((event) => event.id !== eventId)!.id;
  spreads(true);
  await waitFor(() => app.engine.values!.ev.size > 0, 'app.engine.values!.ev.size > 0');
  await waitFor(() => app.engine.values!.middles.size === 2, 'app.engine.values!.middles.size === 2');
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/stream (types=ev)', () => {
  it('opens with the positive-EV prices in its snapshot, then sends ev_removed when the price is no longer positive and ev when it is again', async () => {
    const key = await createKey(app, 'enterprise');
    const stream = await openPastSnapshot(key, 'types=ev');
    const snapshot = streamFrames(stream).find((f) => f.event === 'snapshot')!;
    const listed = snapshot.data.ev as { key: string; ev: { book: string; ev_pct: number; price: object } }[];
    expect(listed.map((row) => row.key)).toEqual([`${EV_KEY}|home|betmgm`]);
    expect(listed[0]!.ev).toMatchObject({ book: 'betmgm', ev_pct: 2.5 });
    expect(listed[0]!.ev.price).not.toHaveProperty('age_seconds');
    // No price or arb entries: only what `types` asked for.
    quote(-110);
    await waitFor(
      () => streamFrames(stream).some((f) => f.event === 'ev_removed'),
      "streamFrames(stream).some((f) => f.event === 'ev_removed')",
    );
    expect(streamFrames(stream).find((f) => f.event === 'ev_removed')!.data).toEqual({
      key: `${EV_KEY}|home|betmgm`,
      event_id: eventId,
    });
    const removedId = streamFrames(stream).find((f) => f.event === 'ev_removed')!.id;
    quote(110);
    await waitFor(
      () => streamFrames(stream).some((f) => f.event === 'ev'),
      "streamFrames(stream).some((f) => f.event === 'ev')",
    );
    const back = streamFrames(stream).find((f) => f.event === 'ev')!;
    expect(back.data).toMatchObject({ key: `${EV_KEY}|home|betmgm`, ev: { ev_pct: 5 } });
    expect(streamFrames(stream).every((f) => ['snapshot', 'ev', 'ev_removed'].includes(f.event))).toBe(true);
    stream.abort();

    // Resuming after the removal replays exactly the `ev` that followed it, with no snapshot.
    const resumed = await open(key, 'types=ev', { 'last-event-id': removedId });
    await waitFor(
      () => streamFrames(resumed).some((f) => f.event === 'ev'),
      "streamFrames(resumed).some((f) => f.event === 'ev')",
    );
    expect(streamFrames(resumed).map((f) => [f.event, f.id])).toEqual([['ev', back.id]]);
    resumed.abort();
  });

  it('sends no positive-EV events to a stream that did not ask for them', async () => {
    const key = await createKey(app, 'enterprise');
    const stream = await openPastSnapshot(key, 'types=price,arb');
    expect(streamFrames(stream)[0]!.data).not.toHaveProperty('ev');
    quote(-110);
    quote(120);
    await waitFor(
      () => streamFrames(stream).filter((f) => f.event === 'price').length >= 4,
      "streamFrames(stream).filter((f) => f.event === 'price').length >= 4",
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(streamFrames(stream).filter((f) => f.event.startsWith('ev'))).toEqual([]);
    stream.abort();
  });

  it('gives a delayed plan its snapshot as of its delay ago and holds back the changes since', async () => {
    quote(-110);
    await waitFor(() => app.engine.values!.ev.size === 0, 'app.engine.values!.ev.size === 0');
    const { delayed, live } = await delayedAndLive('types=ev');
    quote(130);
    await waitFor(
      () => streamFrames(live).some((f) => f.event === 'ev'),
      "streamFrames(live).some((f) => f.event === 'ev')",
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Fifteen seconds have not passed: the Pro stream has not been told.
    expect(streamFrames(delayed).filter((f) => f.event === 'ev')).toEqual([]);
    delayed.abort();
    live.abort();
  });
});

describe('GET /v1/stream (types=middle)', () => {
  /** The two middles: each of the two best home −2.5 books (equal prices: the first by book key) with BetMGM's away +3.5. */
  const middleKeys = () =>
    ['caesars', 'draftkings'].map((book) => `${middleEventId}|spread|full|${book}:2.5|betmgm:3.5`);

  it('opens with the middles in its snapshot, sends middle_removed when a side is suspended and middle when it is back, and resumes after Last-Event-ID', async () => {
    const key = await createKey(app, 'enterprise');
    const stream = await openPastSnapshot(key, 'types=middle');
    const snapshot = streamFrames(stream).find((f) => f.event === 'snapshot')!;
    expect(snapshot.data).not.toHaveProperty('ev');
    const listed = snapshot.data.middles as {
      key: string;
      middle: { gap: object; probability: { middle: number }; high: { price: object }; model: string };
    }[];
    expect(listed.map((row) => row.key).sort()).toEqual(middleKeys());
    expect(listed[0]!.middle).toMatchObject({ gap: { from: 3, to: 3 }, model: 'basketball' });
    expect(listed[0]!.middle.probability.middle).toBeGreaterThan(0.02);
    expect(listed[0]!.middle.high.price).not.toHaveProperty('age_seconds');

    spreads(false);
    await waitFor(
      () => streamFrames(stream).filter((f) => f.event === 'middle_removed').length === 2,
      "streamFrames(stream).filter((f) => f.event === 'middle_removed').length === 2",
    );
    const removed = streamFrames(stream).filter((f) => f.event === 'middle_removed');
    expect(removed.map((f) => f.data).sort((a, b) => String(a.key).localeCompare(String(b.key)))).toEqual(
      middleKeys().map((k) => ({ key: k, event_id: middleEventId })),
    );
    const lastRemovedId = removed.at(-1)!.id;
    spreads(true);
    await waitFor(
      () => streamFrames(stream).filter((f) => f.event === 'middle').length === 2,
      "streamFrames(stream).filter((f) => f.event === 'middle').length === 2",
    );
    const back = streamFrames(stream).filter((f) => f.event === 'middle');
    expect(back.map((f) => f.data.key).sort()).toEqual(middleKeys());
    expect(
      streamFrames(stream).every((f) => ['snapshot', 'middle', 'middle_removed'].includes(f.event)),
    ).toBe(true);
    stream.abort();

    // Resuming after the removals replays exactly the two `middle` entries that followed them, with no snapshot.
    const resumed = await open(key, 'types=middle', { 'last-event-id': lastRemovedId });
    await waitFor(
      () => streamFrames(resumed).filter((f) => f.event === 'middle').length === 2,
      "streamFrames(resumed).filter((f) => f.event === 'middle').length === 2",
    );
    expect(streamFrames(resumed).map((f) => [f.event, f.id])).toEqual(back.map((f) => ['middle', f.id]));
    resumed.abort();
  });

  it('gives a delayed plan the middles as they stood its delay ago and holds back the changes since', async () => {
    spreads(true);
    const { delayed, live } = await delayedAndLive('types=middle');
    expect((streamFrames(live)[0]!.data.middles as { key: string }[]).map((row) => row.key).sort()).toEqual(
      middleKeys(),
    );
    spreads(false);
    await waitFor(
      () => streamFrames(live).filter((f) => f.event === 'middle_removed').length === 2,
      "streamFrames(live).filter((f) => f.event === 'middle_removed').length === 2",
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(streamFrames(delayed).filter((f) => f.event.startsWith('middle'))).toEqual([]);
    delayed.abort();
    live.abort();
  });
});
