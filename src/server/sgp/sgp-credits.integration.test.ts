import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MeResponseSchema } from '#domain/schemas/api/account.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { createKey, setSgpCreditsUsed } from '#tests/support/server/odds-api.ts';
import { ingestSgpBoard, sgpThreeLegs } from '#tests/support/sgp.ts';
import { trialTestConfig, useExternalStorage } from '#tests/support/server/trials.ts';
import { twoInstances } from '#tests/support/server/two-instances.ts';
import { sgpCredits } from '../db/schema.ts';
import type { ApiKeyRecord } from '../keys/service.ts';
import { monthOf, type SgpSpend } from './sgp-credits.ts';

// Same-game-parlay credits (decision 128) spent from two instances sharing CI's PostgreSQL (the ledger) and Redis
// (quota windows, revocations), as behind a load balancer; then a third instance after the Redis keys are gone.
// First, the same tests as ./sgp-credits.test.ts against PostgreSQL and Redis (each app in its own schema and prefix).
useExternalStorage();
await import('./sgp-credits.test.ts');

const instances = twoInstances('i16c', 4443);
const LIMIT = 10_000;
const REMAINING = 25;

async function recordOf(app: FastifyInstance, plain: string): Promise<ApiKeyRecord> {
  const check = await app.apiKeys.authenticate(plain);
  if (!check.ok) throw new Error(`key refused: ${check.reason}`);
  return check.key;
}

async function row(app: FastifyInstance, key: ApiKeyRecord, month: string) {
  const [found] = await app.db
    .select({ used: sgpCredits.used, granted: sgpCredits.granted })
    .from(sgpCredits)
    .where(and(eq(sgpCredits.apiKeyId, key.id), eq(sgpCredits.month, `${month}-01`)));
  return found;
}

/** Deletes every Redis key under the instances' prefix (FLUSHDB, limited to this test's keys); returns how many. */
async function flushPrefix(app: FastifyInstance): Promise<number> {
  const redis = new Redis(app.config.REDIS_URL!);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${app.config.REDIS_PREFIX}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

const count = (results: SgpSpend[], spent: boolean) => results.filter((result) => result.spent === spent);

describe('SGP credits across instances (PostgreSQL ledger)', () => {
  it(`${2 * REMAINING} spends at once over two instances with ${REMAINING} credits left spend exactly ${REMAINING}; a restart and a Redis flush give none back; a grant of 5 gives exactly 5`, async () => {
    const { a, b, portB } = instances;
    const plain = await createKey(a, 'elite');
    const [keyA, keyB] = [await recordOf(a, plain), await recordOf(b, plain)];
    const first = await a.sgpCredits.spend(keyA);
    expect(first).toMatchObject({ spent: true, used: 1, limit: LIMIT });
    const { month, resetsAt } = monthOf(Date.now());
    // Test-only shortcut to the month's end: REMAINING credits left.
    await setSgpCreditsUsed(a, keyA.id, month, LIMIT - REMAINING);

    const burst = await Promise.all(
      Array.from({ length: 2 * REMAINING }, (_, index) =>
        index % 2 ? a.sgpCredits.spend(keyA) : b.sgpCredits.spend(keyB),
      ),
    );
    expect(count(burst, true)).toHaveLength(REMAINING);
    const refused = count(burst, false);
    expect(refused).toHaveLength(REMAINING);
    for (const result of refused) {
      expect(result).toEqual({
        spent: false,
        reason: 'exhausted',
        limit: LIMIT,
        used: LIMIT,
        remaining: 0,
        month,
        resetsAt,
      });
    }
    // Every credit went to exactly one spend: the counts they saw are LIMIT − REMAINING + 1 … LIMIT, each once.
    expect(
      count(burst, true)
        .map((result) => result.used)
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: REMAINING }, (_, index) => LIMIT - REMAINING + 1 + index));
    expect(await row(a, keyA, month)).toEqual({ used: LIMIT, granted: 0 });

    // B answers over HTTP (its quota window now lives in Redis), then a third instance starts on the same database
    // and every Redis key of the instances is deleted.
    const meB = await fetch(`http://127.0.0.1:${portB}/v1/me`, { headers: { 'x-api-key': plain } });
    expect(meB.status).toBe(200);
    const c = await buildTestApp({
      config: trialTestConfig({
        DATABASE_URL: a.config.DATABASE_URL!,
        DATABASE_SCHEMA: a.config.DATABASE_SCHEMA,
        REDIS_URL: a.config.REDIS_URL!,
        REDIS_PREFIX: a.config.REDIS_PREFIX,
      }),
    });
    onTestFinished(() => c.close());
    await c.ready();
    expect(await flushPrefix(a)).toBeGreaterThan(0);

    const keyC = await recordOf(c, plain);
    expect(await c.sgpCredits.spend(keyC)).toMatchObject({ spent: false, reason: 'exhausted', remaining: 0 });
    expect(await b.sgpCredits.spend(keyB)).toMatchObject({ spent: false, reason: 'exhausted', remaining: 0 });
    const me = await c.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': plain } });
    expect(MeResponseSchema.parse(me.json()).sgp_credits).toEqual({
      limit: LIMIT,
      used: LIMIT,
      remaining: 0,
      resets_at: resetsAt.toISOString(),
    });

    const grant = await c.inject({
      method: 'POST',
      url: '/admin/keys/grant',
      headers: { authorization: `Bearer ${c.secrets.adminToken}` },
      payload: { prefix: keyC.prefix, credits: 5 },
    });
    expect(grant.statusCode).toBe(200);
    expect(grant.json().usage).toMatchObject({ limit: LIMIT + 5, used: LIMIT, remaining: 5 });
    const spenders = [
      () => a.sgpCredits.spend(keyA),
      () => b.sgpCredits.spend(keyB),
      () => c.sgpCredits.spend(keyC),
    ];
    const after = await Promise.all(Array.from({ length: 12 }, (_, index) => spenders[index % 3]!()));
    expect(count(after, true)).toHaveLength(5);
    expect(count(after, false)).toHaveLength(7);
    expect(await row(c, keyC, month)).toEqual({ used: LIMIT + 5, granted: 5 });
  });
});

describe('POST /v1/sgp from two instances', () => {
  it('2 × the remaining credits priced at once over both instances: exactly the remaining answer 200, the rest 402', async () => {
    const { a, b } = instances;
    // Both instances see the same board, as two instances fed by one source do.
    const ids = [ingestSgpBoard(a, 1, Date.now()), ingestSgpBoard(b, 1, Date.now())];
    expect(ids[1]).toBe(ids[0]);
    const id = ids[0]!;
    const plain = await createKey(a, 'elite');
    const key = await recordOf(a, plain);
    const post = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/v1/sgp',
        headers: { 'x-api-key': plain },
        payload: { event_id: id, legs: sgpThreeLegs(id) },
      });
    expect((await post(a)).statusCode).toBe(200);
    const { month, resetsAt } = monthOf(Date.now());
    await setSgpCreditsUsed(a, key.id, month, LIMIT - REMAINING);
    const answers = await Promise.all(
      Array.from({ length: 2 * REMAINING }, (_, index) => post(index % 2 ? a : b)),
    );
    const priced = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 402);
    expect(priced).toHaveLength(REMAINING);
    expect(refused).toHaveLength(REMAINING);
    // Each priced answer saw a different count: no credit spent twice, none lost.
    expect(
      priced
        .map((answer) => (answer.json() as { credits: { used: number } }).credits.used)
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: REMAINING }, (_, index) => LIMIT - REMAINING + 1 + index));
    for (const answer of refused)
      expect(answer.json()).toMatchObject({ remaining: 0, resets_at: resetsAt.toISOString() });
    expect(await row(a, key, month)).toEqual({ used: LIMIT, granted: 0 });
  });
});
