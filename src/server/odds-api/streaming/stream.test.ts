import { EventSource } from 'eventsource';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../db/schema.ts';
import { KEY_IN_TEXT } from '../../keys/key-format.ts';
import { freePort, waitFor } from '#tests/support/server/trials.ts';
import { eq } from 'drizzle-orm';
import { buildTestApp, logSink } from '#tests/support/server/app.ts';
import { createKey, openRawStream, revokeKey, type RawStream } from '#tests/support/server/odds-api.ts';

const PORT = await freePort();
const BASE = `http://127.0.0.1:${PORT}`;
const logLines: string[] = [];
let app: FastifyInstance;

const BOOKS = ['fanduel', 'draftkings', 'betmgm', 'caesars', 'circa'];
let tick = 0;
/** One price change on the stream's test event (a new price each time, so no update is a no-op). */
function pushPrice(): void {
  tick += 1;
  const american = 100 + (tick % 300);
  app.engine.ingest({
    kind: 'price',
    sourceEventId: 'stream-ev',
    book: BOOKS[tick % BOOKS.length],
    market: 'moneyline',
    outcome: tick % 2 ? 'home' : 'away',
    american: tick % 4 < 2 ? american : -american - 1,
  });
}

/** Pushes `count` prices, a few per macrotask, so that deliveries interleave with the clients' reads. */
async function produce(count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    pushPrice();
    if (index % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

function openRaw(path: string, headers: Record<string, string> = {}): Promise<RawStream> {
  return openRawStream(`${BASE}${path}`, headers);
}

function keyedSource(url: string, key: string, lastEventId?: string): EventSource {
  return new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...init.headers,
          'x-api-key': key,
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
      }),
  });
}

function opened(source: EventSource): Promise<void> {
  return new Promise((resolve, reject) => {
    source.addEventListener('open', () => resolve(), { once: true });
    source.addEventListener('error', (event) => reject(new Error(`stream error: ${String(event.message)}`)), {
      once: true,
    });
  });
}

beforeAll(async () => {
  const logStream = logSink(logLines);
  app = await buildTestApp({
    log: logStream,
    stream: { heartbeatMs: 150, bufferSize: 400, recheckMs: 200 },
  });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  app.engine.ingest({
    kind: 'event',
    sourceEventId: 'stream-ev',
    league: 'nba',
    home: { name: 'Boston Celtics', abbreviation: 'BOS' },
    away: { name: 'New York Knicks', abbreviation: 'NYK' },
    startsAt: Date.now() + 3_600_000,
  });
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/stream', () => {
  it('a client dropped at a random event and reconnected with Last-Event-ID misses and duplicates nothing', async () => {
    const key = await createKey(app, 'enterprise');
    const url = `${BASE}/v1/stream?league=nba&types=price&initial=false`;
    const reference: string[] = [];
    const a = keyedSource(url, key);
    a.addEventListener('price', (event) => reference.push(event.lastEventId));
    const received: string[] = [];
    const snapshots: string[] = [];
    const dropAt = 5 + Math.floor(Math.random() * 60);
    let b = keyedSource(url, key);
    let reconnected: Promise<void> | undefined;
    const onPrice = (event: MessageEvent) => {
      // Events already parsed from the last chunk may still be dispatched after close(); a closed client ignores them.
      if ((event.target as EventSource).readyState === EventSource.CLOSED) return;
      received.push(event.lastEventId);
      if (received.length === dropAt && !reconnected) {
        b.close();
        // Reconnect a little later, while prices keep flowing.
        reconnected = new Promise((resolve) => setTimeout(resolve, 20)).then(async () => {
          b = keyedSource(url, key, event.lastEventId);
          b.addEventListener('price', onPrice);
          b.addEventListener('snapshot', (snapshot) => snapshots.push(snapshot.lastEventId));
          await opened(b);
        });
      }
    };
    b.addEventListener('price', onPrice);
    await Promise.all([opened(a), opened(b)]);
    await produce(150);
    await reconnected;
    await waitFor(
      () => reference.length >= 150 && received.length === reference.length,
      'both clients to catch up',
    );
    a.close();
    b.close();
    expect(reference).toHaveLength(150);
    expect(new Set(received).size).toBe(received.length);
    expect(received).toEqual(reference);
    expect(snapshots).toEqual([]);
    expect(reference.every((id) => /^[0-9a-z]+-\d+$/.test(id))).toBe(true);
  });

  it('answers a Last-Event-ID older than the buffer (or from another process) with one snapshot event', async () => {
    const key = await createKey(app, 'enterprise');
    const first = await openRaw('/v1/stream?initial=false&types=price', { 'x-api-key': key });
    await produce(1);
    await waitFor(() => /id: (\S+)/.exec(first.text()), 'a first event');
    const oldId = /id: (\S+)/.exec(first.text())![1]!;
    first.abort();
    await produce(1500);
    const again = await openRaw('/v1/stream?types=price', { 'x-api-key': key, 'last-event-id': oldId });
    await waitFor(() => again.text().includes('event: snapshot'), 'the snapshot');
    again.abort();
    const body = again.text();
    expect(body.match(/event: snapshot/g)).toHaveLength(1);
    const snapshot = JSON.parse(/event: snapshot\ndata: (.*)\n/.exec(body)![1]!);
    expect(snapshot.events[0].event.home.name).toBe('Boston Celtics');
    expect(snapshot.delay_seconds).toBe(0);

    const foreign = await openRaw('/v1/stream?types=price', { 'x-api-key': key, 'last-event-id': 'zzzz-5' });
    await waitFor(() => foreign.text().includes('event: snapshot'), 'the snapshot for a foreign id');
    foreign.abort();
  });

  it('sends a : heartbeat comment while nothing changes', async () => {
    const key = await createKey(app, 'pro');
    const stream = await openRaw('/v1/stream?initial=false', { 'x-api-key': key });
    expect(stream.status).toBe(200);
    await waitFor(() => stream.text().includes(': heartbeat\n\n'), 'a heartbeat');
    stream.abort();
  });

  it('closes the open stream of a key revoked by the operator, with a close event', async () => {
    const key = await createKey(app, 'elite');
    const stream = await openRaw('/v1/stream?initial=false', { 'x-api-key': key });
    expect(stream.status).toBe(200);
    const revoke = await revokeKey(app, key);
    expect(revoke.statusCode).toBe(200);
    await stream.ended;
    expect(stream.text()).toContain('event: close\ndata: {"reason":"revoked"');
    expect((await openRaw('/v1/stream', { 'x-api-key': key })).status).toBe(401);
  });

  it('closes within 5 s the stream of a key revoked elsewhere (another instance writing the database)', async () => {
    const key = await createKey(app, 'elite');
    const stream = await openRaw('/v1/stream?initial=false', { 'x-api-key': key });
    expect(stream.status).toBe(200);
    await app.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.prefix, key.slice(0, 14)));
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await waitFor(() => ended, 'the stream to close', 5_000);
    expect(stream.text()).toContain('"reason":"revoked"');
  });

  it('caps concurrent streams per key (Starter: 2) with 429 stream-limit, and frees the slot on disconnect', async () => {
    const key = await createKey(app, 'starter');
    const one = await openRaw('/v1/stream?initial=false', { 'x-api-key': key });
    const two = await openRaw('/v1/stream?initial=false', { 'x-api-key': key });
    expect([one.status, two.status]).toEqual([200, 200]);
    const three = await fetch(`${BASE}/v1/stream?initial=false`, { headers: { 'x-api-key': key } });
    expect(three.status).toBe(429);
    expect(((await three.json()) as { type: string }).type).toBe(
      'https://sharpline.io/problems/stream-limit',
    );
    one.abort();
    const [row] = await app.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.prefix, key.slice(0, 14)));
    await waitFor(() => app.streamHub.connectionsOf(row!.id) < 2, 'the slot to free');
    const four = await openRaw('/v1/stream?initial=false', { 'x-api-key': key });
    expect(four.status).toBe(200);
    two.abort();
    four.abort();
  });

  it('accepts the key as ?api_key= for EventSource and redacts it from every log line', async () => {
    const key = await createKey(app, 'pro');
    const source = new EventSource(`${BASE}/v1/stream?initial=true&api_key=${key}`);
    const snapshot = await new Promise<MessageEvent>((resolve) =>
      source.addEventListener('snapshot', resolve, { once: true }),
    );
    source.close();
    expect(JSON.parse(snapshot.data as string).delay_seconds).toBe(15);
    await waitFor(() => logLines.some((line) => line.includes('api_key=[REDACTED]')), 'the request log line');
    expect(logLines.join('').match(KEY_IN_TEXT)).toBeNull();
  });
});
