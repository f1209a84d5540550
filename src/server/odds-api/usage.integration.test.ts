import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { UsageResponseSchema } from '#domain/schemas/api/account.ts';
import { waitFor } from '#tests/support/server/trials.ts';
import { createKey, openRawStream } from '#tests/support/server/odds-api.ts';
import { twoInstances } from '#tests/support/server/two-instances.ts';

// Usage counts and self-service rotation on two instances sharing CI's PostgreSQL and Redis (decision 155): each
// instance adds its own deltas, so the counts are exact whichever instance answered; a rotation on A revokes the old
// key on B at once, although B would trust its lookup for a minute and re-check its streams only after a minute.

const MINUTE = 60_000;
const instances = twoInstances('i33u', 4455, {
  keyCacheMs: MINUTE,
  stream: { recheckMs: MINUTE },
  usage: { flushMs: 3_600_000 },
});

const get = (app: FastifyInstance, url: string, key: string) =>
  app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

async function usageToday(app: FastifyInstance, key: string) {
  const response = await get(app, '/v1/me/usage?days=1', key);
  expect(response.statusCode).toBe(200);
  return UsageResponseSchema.parse(response.json()).days[0]!;
}

describe('usage counted on two instances', () => {
  it('counts requests split over both instances exactly, while both flush concurrently', async () => {
    const key = await createKey(instances.a, 'enterprise');
    const { a, b } = instances;
    const burst = async (app: FastifyInstance, url: string, n: number) => {
      for (let i = 0; i < n; i += 1) {
        expect((await get(app, url, key)).statusCode).toBe(200);
        if (i % 10 === 0) await app.usage.flush();
      }
    };
    await Promise.all([
      burst(a, '/v1/odds?league=nba', 60),
      burst(b, '/v1/odds?league=nba', 45),
      burst(a, '/v1/leagues', 20),
      burst(b, '/v1/arbs', 35),
    ]);
    await Promise.all([a.usage.flush(), b.usage.flush()]);
    const today = await usageToday(a, key);
    expect(today.by_family.odds).toBe(105);
    expect(today.by_family.events).toBe(20);
    expect(today.by_family.arbs).toBe(35);
    // The reads themselves are free (decision 218): not counted on either instance.
    expect(today.by_family.account).toBe(0);
    expect(today.requests).toBe(160);
    await a.usage.flush();
    expect((await usageToday(b, key)).requests).toBe(160);
  });
});

describe('POST /v1/me/rotate on two instances', () => {
  it('revokes the old key on the other instance at once: its stream there ends with revoked, its requests get 401', async () => {
    const { a, b, portB } = instances;
    const key = await createKey(a, 'elite');
    // B has looked the key up: it would trust that lookup for a minute.
    expect((await get(b, '/v1/me', key)).statusCode).toBe(200);
    const stream = await openRawStream(`http://127.0.0.1:${portB}/v1/stream?initial=false`, {
      'x-api-key': key,
    });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));

    const rotated = await a.inject({ method: 'POST', url: '/v1/me/rotate', headers: { 'x-api-key': key } });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().key as string;

    await waitFor(() => ended, 'the stream on B to close', 5_000);
    expect(stream.text()).toContain('"reason":"revoked"');
    const old = await get(b, '/v1/me', key);
    expect(old.statusCode).toBe(401);
    expect(old.json().type).toMatch(/api-key-revoked$/);
    // The new key works on B, with the line's history: the stream opened on B before the rotation, counted there (the
    // account calls are free).
    expect((await get(b, '/v1/me', fresh)).statusCode).toBe(200);
    await Promise.all([a.usage.flush(), b.usage.flush()]);
    const today = await usageToday(a, fresh);
    expect(today.by_family.account).toBe(0);
    expect(today.by_family.stream).toBe(1);
    stream.abort();
  });

  // Issue 55, decision 202: the line shares one window in Redis, whichever instance counts.
  it('gives the new key, on the other instance, only what is left of the old key’s minute', async () => {
    const { a, b } = instances;
    const key = await createKey(a, 'pro');
    // Redis keeps real time: start in a fresh window rather than straddle one.
    let probe = await get(a, '/v1/leagues', key);
    if (Number(probe.headers['x-ratelimit-reset']) < 20) {
      await new Promise((resolve) =>
        setTimeout(resolve, Number(probe.headers['x-ratelimit-reset']) * 1000 + 200),
      );
      probe = await get(a, '/v1/leagues', key);
    }
    expect(probe.headers['x-ratelimit-remaining']).toBe('99');
    for (let i = 0; i < 59; i += 1) expect((await get(a, '/v1/leagues', key)).statusCode).toBe(200);
    // The rotation is free (decision 218): 40 are left.
    const rotated = await a.inject({ method: 'POST', url: '/v1/me/rotate', headers: { 'x-api-key': key } });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().key as string;
    const first = await get(b, '/v1/leagues', fresh);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('39');
    const rest = await Promise.all(Array.from({ length: 45 }, () => get(b, '/v1/leagues', fresh)));
    expect(rest.filter((response) => response.statusCode === 200)).toHaveLength(39);
    expect(rest.filter((response) => response.statusCode === 429)).toHaveLength(6);
  });
});
