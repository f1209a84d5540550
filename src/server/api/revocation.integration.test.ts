import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trialTestConfig, waitFor } from '../trials/testing.ts';
import { buildApiTestApp, createKey, openRawStream, revokeKey } from './testing.ts';

// Revocation told across instances through CI's Redis (pub/sub): instance B trusts a key lookup for a whole minute
// here, so only the message from A can make B refuse a key A revoked, or close B's stream of it at once.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const tag = `i6r_${process.pid}_${Date.now().toString(36)}`;
const env = { DATABASE_URL, REDIS_URL, DATABASE_SCHEMA: tag, REDIS_PREFIX: `${tag}:` };
const PORT_B = 4442;
const MINUTE = 60_000;
let a: FastifyInstance;
let b: FastifyInstance;

beforeAll(async () => {
  a = await buildApiTestApp({ config: trialTestConfig(env) });
  await a.ready();
  // Neither the key cache nor the streams' database re-check may act within the test.
  b = await buildApiTestApp({
    config: trialTestConfig(env),
    keyCacheMs: MINUTE,
    stream: { recheckMs: MINUTE },
  });
  await b.listen({ port: PORT_B, host: '127.0.0.1' });
});

afterAll(async () => {
  await a?.db.execute(sql.raw(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`));
  await a?.close();
  await b?.close();
});

const get = (app: FastifyInstance, key: string) =>
  app.inject({ method: 'GET', url: '/v1/leagues', headers: { 'x-api-key': key } });

const revoke = (key: string) => revokeKey(a, key);

describe('key revocation across instances (Redis pub/sub)', () => {
  it("another instance refuses a revoked key at once, although its cache would trust the key's lookup for a minute", async () => {
    const key = await createKey(a, 'elite');
    const other = await createKey(a, 'elite');
    expect((await get(b, key)).statusCode).toBe(200);
    expect((await get(b, other)).statusCode).toBe(200);
    expect((await revoke(key)).statusCode).toBe(200);
    let status = 0;
    await waitFor(
      async () => (status = (await get(b, key)).statusCode) === 401,
      'B to refuse the revoked key',
      5_000,
    );
    expect(status).toBe(401);
    expect((await get(b, key)).json().type).toMatch(/api-key-revoked$/);
    // Only the revoked key: the other one still works on B.
    expect((await get(b, other)).statusCode).toBe(200);
  });

  it('closes at once a stream of the key on the other instance, with event: close and reason revoked', async () => {
    const key = await createKey(a, 'elite');
    const stream = await openRawStream(`http://127.0.0.1:${PORT_B}/v1/stream?initial=false`, {
      'x-api-key': key,
    });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    expect((await revoke(key)).statusCode).toBe(200);
    await waitFor(() => ended, 'the stream on the other instance to close', 5_000);
    expect(stream.text()).toContain('"reason":"revoked"');
    stream.abort();
  });
});
