import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import type { Database } from '../db/database.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import { generateKey } from '../keys/key-format.ts';
import { ApiKeyService } from '../keys/service.ts';
import { virtualClock, manualSource } from '#tests/support/server/app.ts';

// Decision 013: unknown keys are throttled per client address and cached apart from the keys in use.

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildApp({
    source: manualSource(),
    config: trialTestConfig({ API_AUTH_FAILURES_PER_MINUTE: '5' }),
    log: false,
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const me = (key: string, remoteAddress: string) =>
  app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': key }, remoteAddress });

describe('GET /v1/* with unknown keys', () => {
  it('answers 429 auth-throttled after five unknown keys a minute from one address (a valid key too), not to another address', async () => {
    const { plain } = await app.apiKeys.create({ planId: 'pro', email: 'ops@example.com' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await me(generateKey('live').plain, '203.0.113.5')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    const blocked = await me(plain, '203.0.113.5');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(blocked.json().type).toBe('https://sharpline.io/problems/auth-throttled');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    expect((await me(plain, '203.0.113.6')).statusCode).toBe(200);
  });

  it('looks a flood of one unknown key up in the database once', async () => {
    const select = vi.spyOn(app.db, 'select');
    const unknown = generateKey('live').plain;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => me(unknown, `198.51.100.${i + 1}`)),
    );
    expect(answers.every((answer) => answer.statusCode === 401)).toBe(true);
    expect(select).toHaveBeenCalledTimes(1);
    select.mockRestore();
  });
});

/** A database that answers every key lookup with `row` (or nothing), counting the lookups. */
function fakeDatabase() {
  const state = { row: undefined as Record<string, unknown> | undefined, lookups: 0 };
  const db = {
    select: () => ({
      from: () => ({
        where: () => ({
          limit: async () => {
            state.lookups += 1;
            // The lookup's shape: the row, and whether an older key of its line still works (decision 142).
            return state.row ? [{ row: state.row, supersedes: false }] : [];
          },
        }),
      }),
    }),
  } as unknown as Database;
  return { db, state };
}

const ROW = {
  id: 1,
  prefix: 'sl_live_abcdef',
  kind: 'paid',
  plan: 'pro',
  ownerEmail: 'ops@example.com',
  createdAt: new Date(0),
  expiresAt: null,
  revokedAt: null,
};

describe('ApiKeyService lookups', () => {
  it('keeps a key in use cached while more than 50,000 unknown keys go by', async () => {
    const clock = virtualClock();
    const { db, state } = fakeDatabase();
    const service = new ApiKeyService(db, { now: clock.now });
    const hot = generateKey('live').plain;
    state.row = ROW;
    expect((await service.authenticate(hot)).ok).toBe(true);
    state.row = undefined;
    for (let i = 0; i < 50_001; i += 1) await service.authenticate(generateKey('live').plain);
    const before = state.lookups;
    state.row = ROW;
    expect((await service.authenticate(hot)).ok).toBe(true);
    expect(state.lookups).toBe(before);
  });

  it('accepts a key that was unknown once its short negative entry expires (5 s)', async () => {
    const clock = virtualClock();
    const { db, state } = fakeDatabase();
    const service = new ApiKeyService(db, { now: clock.now });
    const key = generateKey('live').plain;
    expect(await service.authenticate(key)).toMatchObject({ ok: false, reason: 'unknown' });
    state.row = ROW;
    clock.advance(5_000);
    expect((await service.authenticate(key)).ok).toBe(true);
  });
});
