import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, trialTestConfig, waitFor } from '#tests/support/server/trials.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey, openRawStream } from '#tests/support/server/odds-api.ts';

// Stream opens per key per minute (decision 087) and HEAD /v1/stream (decision 088), over real HTTP on a virtual
// clock (the quota's minute windows follow it).

const PORT = await freePort();
const BASE = `http://127.0.0.1:${PORT}`;
const clock = virtualClock();
let app: FastifyInstance;

async function keyId(key: string): Promise<number> {
  const check = await app.apiKeys.authenticate(key);
  if (!check.ok) throw new Error(check.reason);
  return check.key.id;
}

beforeAll(async () => {
  app = await buildTestApp({
    config: trialTestConfig({ STREAM_OPENS_PER_MINUTE: '3' }),
    now: clock.now,
  });
  await app.listen({ port: PORT, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/stream', () => {
  it('refuses the fourth open of a key within a minute (STREAM_OPENS_PER_MINUTE=3) with 429 stream-opens and Retry-After', async () => {
    const key = await createKey(app, 'enterprise');
    for (let open = 0; open < 3; open += 1) {
      const stream = await openRawStream(`${BASE}/v1/stream?initial=false`, { 'x-api-key': key });
      expect(stream.status).toBe(200);
      stream.abort();
    }
    const id = await keyId(key);
    await waitFor(() => app.streamHub.connectionsOf(id) === 0, 'the three streams to close');
    const refused = await fetch(`${BASE}/v1/stream?initial=false`, { headers: { 'x-api-key': key } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const problem = (await refused.json()) as { type: string; status: number; limit: number };
    expect(problem).toMatchObject({
      type: 'https://sharpline.io/problems/stream-opens',
      status: 429,
      limit: 3,
    });
    expect(app.streamHub.connectionsOf(id)).toBe(0);

    clock.advance(60_000);
    const again = await openRawStream(`${BASE}/v1/stream?initial=false`, { 'x-api-key': key });
    expect(again.status).toBe(200);
    again.abort();
  });
});

describe('HEAD /v1/stream', () => {
  it("answers 200 with the stream's headers and no body, and leaves every stream slot of the key free", async () => {
    const key = await createKey(app, 'starter');
    const id = await keyId(key);
    for (let head = 0; head < 3; head += 1) {
      const response = await fetch(`${BASE}/v1/stream`, {
        method: 'HEAD',
        headers: { 'x-api-key': key },
        signal: AbortSignal.timeout(3000),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(await response.text()).toBe('');
    }
    expect(app.streamHub.connectionsOf(id)).toBe(0);
    // Starter's two slots are both still free.
    const one = await openRawStream(`${BASE}/v1/stream?initial=false`, { 'x-api-key': key });
    const two = await openRawStream(`${BASE}/v1/stream?initial=false`, { 'x-api-key': key });
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(app.streamHub.connectionsOf(id)).toBe(2);
    one.abort();
    two.abort();
  });
});

describe('STREAM_WRITES_PER_TURN', () => {
  it('sets how many stream writes a turn takes (5,000 by default)', async () => {
    expect(app.streamHub.options.writesPerTurn).toBe(5_000);
    const paced = await buildTestApp({ config: trialTestConfig({ STREAM_WRITES_PER_TURN: '500' }) });
    try {
      expect(paced.streamHub.options.writesPerTurn).toBe(500);
    } finally {
      await paced.close();
    }
  });
});
