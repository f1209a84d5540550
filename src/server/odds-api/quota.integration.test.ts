import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PLANS } from '#domain/plans.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { twoInstances } from '#tests/support/server/two-instances.ts';

// Two instances of the API sharing CI's PostgreSQL (keys) and Redis (quota windows), as behind a load balancer.

// A revoked key's stream closing on the other instance is tested in revocation.integration.test.ts.
const instances = twoInstances('i6', 4441);

const get = (app: FastifyInstance, key: string) =>
  app.inject({ method: 'GET', url: '/v1/leagues', headers: { 'x-api-key': key } });

describe('per-key quota across two instances sharing Redis', () => {
  for (const plan of PLANS) {
    it(`${plan.id}: 2 × ${plan.requestsPerMinute} concurrent requests split over both instances yield exactly ${plan.requestsPerMinute} successes`, async () => {
      const key = await createKey(instances.a, plan.id);
      // A probe (counted) tells how long this key's window has left; start the burst in a fresh one if it is short.
      let probe = await get(instances.a, key);
      if (Number(probe.headers['x-ratelimit-reset']) < 20) {
        await new Promise((resolve) =>
          setTimeout(resolve, Number(probe.headers['x-ratelimit-reset']) * 1000 + 200),
        );
        probe = await get(instances.b, key);
      }
      expect(probe.statusCode).toBe(200);
      expect(probe.headers['x-ratelimit-remaining']).toBe(String(plan.requestsPerMinute - 1));
      const burst = await Promise.all(
        Array.from({ length: 2 * plan.requestsPerMinute }, (_, index) =>
          get(index % 2 ? instances.a : instances.b, key),
        ),
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
