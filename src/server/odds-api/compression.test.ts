import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsResponseSchema, OddsResponseSchema } from '#domain/schemas/api/odds.ts';
import { simulatorSource } from '#engine/sources/simulator.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';

// Compression of /v1 answers over real HTTP (decision 084): the simulator's initial market (every league, 15 books)
// on a virtual clock, so that two answers to the same request are byte-identical and can be compared.

const clock = virtualClock();
let app: FastifyInstance;
let origin: string;
let elite: string;
let pro: string;

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** The bytes on the wire, undecoded. */
function get(path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}${path}`, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  // One step an hour: the market stays as the simulator's initial state for the whole file.
  app = await buildTestApp({ now: clock.now, source: simulatorSource(7, { stepMs: 3_600_000 }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  elite = await createKey(app, 'elite');
  pro = await createKey(app, 'pro');
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/odds compression', () => {
  it('serves gzip to a client that accepts gzip and br, decoding to exactly the identity answer', async () => {
    const identity = await get('/v1/odds?league=nba', { 'x-api-key': elite });
    expect(identity.status).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
    expect(identity.body.length).toBeGreaterThan(100_000);
    const odds = OddsResponseSchema.parse(JSON.parse(identity.body.toString('utf8')));
    expect(odds.events.length).toBeGreaterThan(1);

    for (const pass of [1, 2]) {
      // The second pass is served from the pieces the first one deflated.
      const gzip = await get('/v1/odds?league=nba', { 'x-api-key': elite, 'accept-encoding': 'gzip, br' });
      expect(gzip.status, `pass ${pass}`).toBe(200);
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length);
      expect(gzip.body.length).toBeLessThan(identity.body.length / 5);
      expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    }
  });

  it('decodes in a standard client (fetch) and through the web DecompressionStream', async () => {
    const identity = await get('/v1/odds?league=epl&markets=moneyline,1x2', { 'x-api-key': elite });
    const viaFetch = await fetch(`${origin}/v1/odds?league=epl&markets=moneyline,1x2`, {
      headers: { 'x-api-key': elite, 'accept-encoding': 'gzip' },
    });
    expect(viaFetch.headers.get('content-encoding')).toBe('gzip');
    expect(await viaFetch.text()).toBe(identity.body.toString('utf8'));
    const gzip = await get('/v1/odds?league=epl&markets=moneyline,1x2', {
      'x-api-key': elite,
      'accept-encoding': 'gzip',
    });
    const stream = new Blob([new Uint8Array(gzip.body)])
      .stream()
      .pipeThrough(new DecompressionStream('gzip'));
    expect(await new Response(stream).text()).toBe(identity.body.toString('utf8'));
  });

  it('serves identity to a client without Accept-Encoding, with identity, or with gzip;q=0', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'gzip;q=0, deflate', 'br']) {
      const headers: Record<string, string> = { 'x-api-key': elite };
      if (acceptEncoding) headers['accept-encoding'] = acceptEncoding;
      const answer = await get('/v1/odds?league=nhl', headers);
      expect(answer.status, String(acceptEncoding)).toBe(200);
      expect(answer.headers['content-encoding'], String(acceptEncoding)).toBeUndefined();
      OddsResponseSchema.parse(JSON.parse(answer.body.toString('utf8')));
    }
  });

  it('gzips a delayed plan and an empty answer as well', async () => {
    // NHL has games on the virtual clock's date (22 November); MLB is out of season then: an empty answer.
    for (const path of ['/v1/odds?league=nhl', '/v1/odds?league=mlb&books=fanduel&live=true&markets=total']) {
      const identity = await get(path, { 'x-api-key': pro });
      const gzip = await get(path, { 'x-api-key': pro, 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).toString('utf8')).toBe(identity.body.toString('utf8'));
      expect(OddsResponseSchema.parse(JSON.parse(identity.body.toString('utf8'))).delay_seconds).toBe(15);
    }
  });

  it('answers 304 to If-None-Match with its ETag until a price of the league changes', async () => {
    const ingest = (message: Record<string, unknown>) =>
      expect(app.engine.ingest(message as never)).toBe(true);
    ingest({
      kind: 'event',
      sourceEventId: 'etag-1',
      league: 'nfl',
      home: { name: 'Etag Home' },
      away: { name: 'Etag Away' },
      startsAt: clock.now() + 3_600_000,
      live: false,
    });
    const moneyline = (american: number) =>
      ingest({
        kind: 'price',
        sourceEventId: 'etag-1',
        book: 'fanduel',
        market: 'moneyline',
        outcome: 'home',
        american,
      });
    moneyline(-150);
    const first = await get('/v1/odds?league=nfl', { 'x-api-key': elite, 'accept-encoding': 'gzip' });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await get('/v1/odds?league=nfl', { 'x-api-key': elite, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // Another filter is another answer.
    const other = await get('/v1/odds?league=nfl&markets=moneyline', {
      'x-api-key': elite,
      'if-none-match': etag,
    });
    expect(other.status).toBe(200);

    moneyline(-170);
    const changed = await get('/v1/odds?league=nfl', { 'x-api-key': elite, 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body.toString('utf8')).toContain('"american":"-170"');
  });
});

describe('other /v1 answers', () => {
  it('are compressed with br (else gzip) above 1 KiB, and decode to the identity answer', async () => {
    const identity = await get('/v1/events', { 'x-api-key': elite });
    expect(identity.body.length).toBeGreaterThan(1024);
    EventsResponseSchema.parse(JSON.parse(identity.body.toString('utf8')));
    const br = await get('/v1/events', { 'x-api-key': elite, 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    const gzip = await get('/v1/events', { 'x-api-key': elite, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
  });

  it('leave small answers and errors uncompressed', async () => {
    const me = await get('/v1/me', { 'x-api-key': elite, 'accept-encoding': 'gzip, br' });
    expect(me.status).toBe(200);
    expect(me.headers['content-encoding']).toBeUndefined();
    const missing = await get('/v1/odds?league=nba', { 'accept-encoding': 'gzip, br' });
    expect(missing.status).toBe(401);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(missing.body.toString('utf8')).type).toMatch(/api-key-missing$/);
  });
});
