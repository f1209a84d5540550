import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanId } from '#domain/plans.ts';
import { MeResponseSchema } from '#domain/schemas/api/account.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createTrialKey, setSgpCreditsUsed } from '#tests/support/server/odds-api.ts';
import { sgpCredits } from '../db/schema.ts';
import type { ApiKeyRecord } from '../keys/service.ts';
import { monthOf, parseMonth, plansWithSgp } from './sgp-credits.ts';

// Same-game-parlay credits (decision 128) on the embedded database: spends, exhaustion, the month's end, grants,
// refunds, plans without credits, /v1/me and the operators' routes. The two-instance race runs on PostgreSQL in
// sgp-credits.integration.test.ts.

const NOVEMBER = Date.UTC(2026, 10, 22, 12);
const DECEMBER_1 = Date.UTC(2026, 11, 1);
const clock = virtualClock(NOVEMBER);
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

beforeEach(() => clock.set(NOVEMBER));

let keyCounter = 0;
async function newKey(planId: PlanId): Promise<{ plain: string; record: ApiKeyRecord }> {
  keyCounter += 1;
  return app.apiKeys.create({ planId, email: `sgp${keyCounter}@example.com` });
}

/** A trial key, inserted as the trial service does (kind 'trial', the Pro plan). */
async function trialKey(): Promise<{ plain: string; record: ApiKeyRecord }> {
  const trial = await createTrialKey(app, clock.now(), 'trial-sgp@example.com');
  const check = await app.apiKeys.authenticate(trial.plain);
  if (!check.ok) throw new Error('trial key not usable');
  return { plain: trial.plain, record: check.key };
}

/** Test-only shortcut to the end of a month: sets the ledger row's `used` directly. */
function setUsed(key: ApiKeyRecord, month: string, used: number): Promise<void> {
  return setSgpCreditsUsed(app, key.id, month, used);
}

function ledger(key: ApiKeyRecord) {
  return app.db
    .select({ month: sgpCredits.month, used: sgpCredits.used, granted: sgpCredits.granted })
    .from(sgpCredits)
    .where(eq(sgpCredits.apiKeyId, key.id))
    .orderBy(sgpCredits.month);
}

const admin = () => ({ authorization: `Bearer ${app.secrets.adminToken}` });

describe('monthOf and plansWithSgp', () => {
  it('cuts months at midnight UTC and resets at the first instant of the next month', () => {
    expect(monthOf(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toEqual({
      month: '2026-12',
      start: new Date('2026-12-01T00:00:00.000Z'),
      resetsAt: new Date('2027-01-01T00:00:00.000Z'),
    });
    expect(monthOf(Date.UTC(2027, 0, 1)).month).toBe('2027-01');
    expect(monthOf(Date.UTC(2028, 1, 29, 8)).resetsAt).toEqual(new Date('2028-03-01T00:00:00.000Z'));
    expect(parseMonth('2026-13')).toBeNull();
    expect(parseMonth('2026-1')).toBeNull();
    expect(parseMonth('2026-02')?.resetsAt).toEqual(new Date('2026-03-01T00:00:00.000Z'));
  });

  it('names Elite and Enterprise, cheapest first, as the plans with SGP credits', () => {
    expect(plansWithSgp().map((plan) => [plan.id, plan.sgpCreditsPerMonth])).toEqual([
      ['elite', 10_000],
      ['enterprise', 100_000],
    ]);
  });
});

describe('SgpCredits', () => {
  it('an Elite key spends one credit per call up to 10,000, then is refused as exhausted until the next UTC month', async () => {
    const { record } = await newKey('elite');
    expect(await app.sgpCredits.spend(record)).toEqual({
      spent: true,
      limit: 10_000,
      used: 1,
      remaining: 9_999,
      month: '2026-11',
      resetsAt: new Date('2026-12-01T00:00:00.000Z'),
    });
    await setUsed(record, '2026-11', 9_998);
    expect(await app.sgpCredits.spend(record)).toMatchObject({ spent: true, used: 9_999, remaining: 1 });
    expect(await app.sgpCredits.spend(record)).toMatchObject({ spent: true, used: 10_000, remaining: 0 });
    expect(await app.sgpCredits.spend(record)).toEqual({
      spent: false,
      reason: 'exhausted',
      limit: 10_000,
      used: 10_000,
      remaining: 0,
      month: '2026-11',
      resetsAt: new Date('2026-12-01T00:00:00.000Z'),
    });
    expect(await ledger(record)).toEqual([{ month: '2026-11-01', used: 10_000, granted: 0 }]);
  });

  it('an Enterprise key has 100,000 credits a month', async () => {
    const { record } = await newKey('enterprise');
    expect(await app.sgpCredits.spend(record)).toMatchObject({
      spent: true,
      limit: 100_000,
      remaining: 99_999,
    });
  });

  it('concurrent spends of the last credits spend exactly what remains', async () => {
    const { record } = await newKey('elite');
    await app.sgpCredits.spend(record);
    await setUsed(record, '2026-11', 10_000 - 10);
    const results = await Promise.all(Array.from({ length: 20 }, () => app.sgpCredits.spend(record)));
    expect(results.filter((result) => result.spent)).toHaveLength(10);
    expect(results.filter((result) => !result.spent && result.reason === 'exhausted')).toHaveLength(10);
    // The batch did not fit: the last 10 went one at a time, each to a different count.
    expect(
      results
        .filter((result) => result.spent)
        .map((result) => result.used)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 10 }, (_, index) => 9_991 + index));
    expect((await ledger(record))[0]!.used).toBe(10_000);
  });

  it('spends arriving together are spent in one batch per key, each with its own count', async () => {
    const [one, two] = [(await newKey('elite')).record, (await newKey('enterprise')).record];
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, index) => app.sgpCredits.spend(index % 3 ? one : two)),
    );
    expect(results.every((result) => result.spent)).toBe(true);
    const counts = (limit: number) =>
      results
        .filter((result) => result.limit === limit)
        .map((result) => result.used)
        .sort((a, b) => a - b);
    expect(counts(10_000)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    expect(counts(100_000)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect((await ledger(one))[0]!.used).toBe(40);
    expect((await ledger(two))[0]!.used).toBe(20);
  });

  it('a new UTC month starts from 0 used, and leaves the last month as it was', async () => {
    const { record } = await newKey('elite');
    await app.sgpCredits.spend(record);
    await setUsed(record, '2026-11', 10_000);
    clock.set(DECEMBER_1 - 1);
    expect(await app.sgpCredits.spend(record)).toMatchObject({ spent: false, reason: 'exhausted' });
    clock.set(DECEMBER_1);
    expect(await app.sgpCredits.spend(record)).toEqual({
      spent: true,
      limit: 10_000,
      used: 1,
      remaining: 9_999,
      month: '2026-12',
      resetsAt: new Date('2027-01-01T00:00:00.000Z'),
    });
    expect(await ledger(record)).toEqual([
      { month: '2026-11-01', used: 10_000, granted: 0 },
      { month: '2026-12-01', used: 1, granted: 0 },
    ]);
  });

  it('a grant raises the limit of its month only', async () => {
    const { record } = await newKey('elite');
    await app.sgpCredits.spend(record);
    await setUsed(record, '2026-11', 10_000);
    const granted = await app.sgpCredits.grant(record, 5);
    expect(granted).toMatchObject({
      granted: true,
      usage: { month: '2026-11', included: 10_000, granted: 5, limit: 10_005, used: 10_000, remaining: 5 },
    });
    for (let spend = 1; spend <= 5; spend += 1) {
      expect(await app.sgpCredits.spend(record)).toMatchObject({ spent: true, used: 10_000 + spend });
    }
    expect(await app.sgpCredits.spend(record)).toMatchObject({
      spent: false,
      reason: 'exhausted',
      limit: 10_005,
      remaining: 0,
    });
    expect(await app.sgpCredits.grant(record, 7, '2027-01')).toMatchObject({
      granted: true,
      usage: { month: '2027-01', limit: 10_007, used: 0 },
    });
    clock.set(DECEMBER_1);
    expect(await app.sgpCredits.usage(record)).toMatchObject({ month: '2026-12', limit: 10_000, used: 0 });
  });

  it('refuses grants for a month already over, more than 12 months ahead, or on a plan without SGP', async () => {
    const { record } = await newKey('elite');
    expect(await app.sgpCredits.grant(record, 5, '2026-10')).toEqual({
      granted: false,
      reason: 'past-month',
    });
    expect(await app.sgpCredits.grant(record, 5, '2027-12')).toEqual({
      granted: false,
      reason: 'too-far-ahead',
    });
    expect(await app.sgpCredits.grant(record, 5, '2027-11')).toMatchObject({ granted: true });
    const pro = await newKey('pro');
    expect(await app.sgpCredits.grant(pro.record, 5)).toEqual({ granted: false, reason: 'not-in-plan' });
    await expect(app.sgpCredits.grant(record, 0)).rejects.toThrow(RangeError);
    await expect(app.sgpCredits.grant(record, -5)).rejects.toThrow(RangeError);
    expect(await ledger(pro.record)).toEqual([]);
  });

  it('refund gives one credit back, and never takes used below 0', async () => {
    const { record } = await newKey('elite');
    const first = await app.sgpCredits.spend(record);
    await app.sgpCredits.spend(record);
    await app.sgpCredits.refund(record, first.month);
    expect(await app.sgpCredits.usage(record)).toMatchObject({ used: 1, remaining: 9_999 });
    await app.sgpCredits.refund(record, first.month);
    await app.sgpCredits.refund(record, first.month);
    expect(await ledger(record)).toEqual([{ month: '2026-11-01', used: 0, granted: 0 }]);
    // A month without a row: nothing to give back, nothing written.
    await app.sgpCredits.refund(record, '2026-10');
    expect(await ledger(record)).toHaveLength(1);
  });

  it('a refund after the last credit makes exactly one more spend possible', async () => {
    const { record } = await newKey('elite');
    await app.sgpCredits.spend(record);
    await setUsed(record, '2026-11', 10_000);
    await app.sgpCredits.refund(record, '2026-11');
    expect(await app.sgpCredits.spend(record)).toMatchObject({ spent: true, remaining: 0 });
    expect(await app.sgpCredits.spend(record)).toMatchObject({ spent: false, reason: 'exhausted' });
  });

  it('Starter, Pro and trial keys are refused as not-in-plan, with zero figures and no ledger row', async () => {
    const keys = [(await newKey('starter')).record, (await newKey('pro')).record, (await trialKey()).record];
    for (const key of keys) {
      expect(await app.sgpCredits.spend(key)).toEqual({
        spent: false,
        reason: 'not-in-plan',
        limit: 0,
        used: 0,
        remaining: 0,
        month: '2026-11',
        resetsAt: new Date('2026-12-01T00:00:00.000Z'),
      });
      expect(await ledger(key)).toEqual([]);
    }
  });
});

describe('GET /v1/me', () => {
  const me = (key: string) => app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': key } });

  it("shows an Elite key's credits of the month: limit with grants, used, remaining, resets_at", async () => {
    const { plain, record } = await newKey('elite');
    for (let spend = 0; spend < 3; spend += 1) await app.sgpCredits.spend(record);
    await app.sgpCredits.grant(record, 50);
    const body = MeResponseSchema.parse((await me(plain)).json());
    expect(body.sgp_credits).toEqual({
      limit: 10_050,
      used: 3,
      remaining: 10_047,
      resets_at: '2026-12-01T00:00:00.000Z',
    });
  });

  it('shows zeros for a Pro key and a trial key, resetting at the next month start', async () => {
    for (const { plain } of [await newKey('pro'), await trialKey()]) {
      const body = MeResponseSchema.parse((await me(plain)).json());
      expect(body.sgp_credits).toEqual({
        limit: 0,
        used: 0,
        remaining: 0,
        resets_at: '2026-12-01T00:00:00.000Z',
      });
    }
  });
});

describe('operators: /admin/keys/credits and /admin/keys/grant', () => {
  const grant = (payload: Record<string, unknown>, headers: Record<string, string> = admin()) =>
    app.inject({ method: 'POST', url: '/admin/keys/grant', headers, payload });

  it('lists the current month and the 3 before (and later months with a grant); a grant adds to one month', async () => {
    const { record } = await newKey('elite');
    await app.sgpCredits.spend(record);
    const granted = await grant({ prefix: record.prefix, credits: 25 });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({
      key: { prefix: record.prefix, plan: 'elite' },
      credits: 25,
      usage: { month: '2026-11', included: 10_000, granted: 25, limit: 10_025, used: 1, remaining: 10_024 },
    });
    expect((await grant({ prefix: record.prefix, credits: 3, month: '2027-02' })).statusCode).toBe(200);
    const listed = await app.inject({
      method: 'GET',
      url: `/admin/keys/credits?prefix=${record.prefix}`,
      headers: admin(),
    });
    expect(listed.statusCode).toBe(200);
    const months = (listed.json() as { months: Record<string, unknown>[] }).months;
    expect(months.map((month) => [month.month, month.granted, month.limit, month.used])).toEqual([
      ['2027-02', 3, 10_003, 0],
      ['2026-11', 25, 10_025, 1],
      ['2026-10', 0, 10_000, 0],
      ['2026-09', 0, 10_000, 0],
      ['2026-08', 0, 10_000, 0],
    ]);
  });

  it('refuses negative, zero, fractional and oversized grants, bad months, plans without SGP, unknown prefixes and a missing token', async () => {
    const { record } = await newKey('elite');
    const pro = await newKey('pro');
    for (const credits of [-5, 0, 1.5, 10_000_001]) {
      expect((await grant({ prefix: record.prefix, credits })).statusCode).toBe(400);
    }
    expect((await grant({ prefix: record.prefix, credits: 5, month: '2026-13' })).statusCode).toBe(400);
    const past = await grant({ prefix: record.prefix, credits: 5, month: '2026-10' });
    expect(past.statusCode).toBe(422);
    expect(past.json().type).toMatch(/grant-month$/);
    const notInPlan = await grant({ prefix: pro.record.prefix, credits: 5 });
    expect(notInPlan.statusCode).toBe(409);
    expect(notInPlan.json().detail).toContain('Elite and Enterprise');
    expect((await grant({ prefix: 'sl_live_ZZZZZZ', credits: 5 })).statusCode).toBe(404);
    expect((await grant({ prefix: record.prefix, credits: 5 }, {})).statusCode).toBe(401);
    expect(await ledger(record)).toEqual([]);
    expect(await ledger(pro.record)).toEqual([]);
  });
});
