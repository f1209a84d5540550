import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '#domain/plans.ts';
import { trialTestConfig, waitFor } from '../trials/testing.ts';
import { buildApiTestApp, createKey, openRawStream, revokeKey } from './testing.ts';

// Two instances of the API sharing CI's PostgreSQL (keys) and Redis (quota windows), as behind a load balancer.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const tag = `i6_${process.pid}_${Date.now().toString(36)}`;
const env = { DATABASE_URL, REDIS_URL, DATABASE_SCHEMA: tag, REDIS_PREFIX: `${tag}:` };
const PORT_B = 4441;
let a: FastifyInstance;
let b: FastifyInstance;

beforeAll(async () => {
  a = await buildApiTestApp({ config: trialTestConfig(env) });
  await a.ready();
  b = await buildApiTestApp({ config: trialTestConfig(env), stream: { recheckMs: 1_000 } });
  await b.listen({ port: PORT_B, host: '127.0.0.1' });
});

afterAll(async () => {
  await a?.db.execute(sql.raw(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`));
  await a?.close();
  await b?.close();
});

const get = (app: FastifyInstance, key: string) =>
  app.inject({ method: 'GET', url: '/v1/leagues', headers: { 'x-api-key': key } });

describe('per-key quota across two instances sharing Redis', () => {
  for (const plan of PLANS) {
    it(`${plan.id}: 2 × ${plan.requestsPerMinute} concurrent requests split over both instances yield exactly ${plan.requestsPerMinute} successes`, async () => {
      const key = await createKey(a, plan.id);
      // A probe (counted) tells how long this key's window has left; start the burst in a fresh one if it is short.
      let probe = await get(a, key);
      if (Number(probe.headers['x-ratelimit-reset']) < 20) {
        await new Promise((resolve) =>
          setTimeout(resolve, Number(probe.headers['x-ratelimit-reset']) * 1000 + 200),
        );
        probe = await get(b, key);
      }
      expect(probe.statusCode).toBe(200);
      expect(probe.headers['x-ratelimit-remaining']).toBe(String(plan.requestsPerMinute - 1));
      const burst = await Promise.all(
        Array.from({ length: 2 * plan.requestsPerMinute }, (_, index) => get(index % 2 ? a : b, key)),
      );
      const ok = burst.filter((response) => response.statusCode === 200).length;
      const limited = burst.filter((response) => response.statusCode === 429);
      expect(1 + ok).toBe(plan.requestsPerMinute);
      expect(limited).toHaveLength(burst.length - ok);
      for (const response of limited) {
        const retryAfter = Number(response.headers['retry-after']);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    });
  }
});

describe('GET /v1/stream across instances', () => {
  it('closes within 5 s a stream on one instance when the key is revoked through the other', async () => {
    const key = await createKey(a, 'elite');
    const stream = await openRawStream(`http://127.0.0.1:${PORT_B}/v1/stream?initial=false`, {
      'x-api-key': key,
    });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    const revoke = await revokeKey(a, key);
    expect(revoke.statusCode).toBe(200);
    await waitFor(() => ended, 'the stream on the other instance to close', 5_000);
    expect(stream.text()).toContain('"reason":"revoked"');
    stream.abort();
  });
});
