import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS, type PlanId } from '#domain/plans.ts';
import { generateKey, KEY_IN_TEXT } from '../keys/key-format.ts';
import { buildTestApp, virtualClock, logSink } from '#tests/support/server/app.ts';
import { createKey, createTrialKey, revokeKey } from '#tests/support/server/odds-api.ts';

const clock = virtualClock();
const logLines: string[] = [];
let app: FastifyInstance;

beforeAll(async () => {
  const logStream = logSink(logLines);
  app = await buildTestApp({ now: clock.now, log: logStream });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const get = (url: string, key?: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'GET',
    url,
    headers: { ...(key === undefined ? {} : { 'x-api-key': key }), ...headers },
  });

describe('GET /v1/* authentication', () => {
  it('answers 401 api-key-missing problem+json with WWW-Authenticate when no key is sent', async () => {
    const response = await get('/v1/leagues');
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['www-authenticate']).toBe('ApiKey header="X-Api-Key"');
    expect(response.json()).toMatchObject({
      type: 'https://sharpline.io/problems/api-key-missing',
      status: 401,
    });
  });

  it('answers 401 api-key-malformed for a value that is not a key', async () => {
    for (const value of [
      'hello',
      'sl_live_short',
      `sl_gold_${'a'.repeat(32)}`,
      `sl_live_${'a'.repeat(31)}!`,
    ]) {
      const response = await get('/v1/leagues', value);
      expect(response.statusCode).toBe(401);
      expect(response.json().type).toBe('https://sharpline.io/problems/api-key-malformed');
    }
  });

  it('answers 401 api-key-unknown for a well-formed key that was never issued', async () => {
    const response = await get('/v1/leagues', generateKey('live').plain);
    expect(response.statusCode).toBe(401);
    expect(response.json().type).toBe('https://sharpline.io/problems/api-key-unknown');
  });

  it('answers 401 api-key-expired for a key past its expiry', async () => {
    const key = await createKey(app, 'pro', new Date(clock.now() - 1000));
    const response = await get('/v1/leagues', key);
    expect(response.statusCode).toBe(401);
    expect(response.json().type).toBe('https://sharpline.io/problems/api-key-expired');
  });

  it('answers 401 api-key-revoked once the operator revokes the key through the admin route', async () => {
    const key = await createKey(app, 'elite');
    expect((await get('/v1/leagues', key)).statusCode).toBe(200);
    const prefix = key.slice(0, 'sl_live_'.length + 6);
    const revoke = await revokeKey(app, prefix);
    expect(revoke.statusCode).toBe(200);
    const response = await get('/v1/leagues', key);
    expect(response.statusCode).toBe(401);
    expect(response.json().type).toBe('https://sharpline.io/problems/api-key-revoked');
  });

  it('accepts a trial key from the home page with the Pro plan limits', async () => {
    const trial = await createTrialKey(app);
    const response = await get('/v1/me', trial.plain);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBe('100');
    expect(response.json()).toMatchObject({
      key: { kind: 'trial', prefix: trial.prefix },
      plan: { id: 'pro', delay_seconds: 15 },
      limits: { requests_per_minute: 100 },
    });
  });

  it('refuses a key in the query string of a REST route with 400 api-key-in-query and never logs the key', async () => {
    const key = await createKey(app, 'elite');
    for (const name of ['api_key', 'apikey', 'key', 'token', 'access_token']) {
      const response = await get(`/v1/odds?league=nba&${name}=${key}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().type).toBe('https://sharpline.io/problems/api-key-in-query');
    }
    // Even with a valid header, a key in the URL is refused.
    expect((await get(`/v1/leagues?api_key=${key}`, key)).statusCode).toBe(400);
    const logged = logLines.join('');
    expect(logged).toContain('/v1/odds?league=nba&api_key=[REDACTED]');
    expect(logged.match(KEY_IN_TEXT)).toBeNull();
  });
});

describe('GET /v1/events/:eventId/movement (plan-gated feature)', () => {
  it('answers 403 problem+json naming the Enterprise plan to a Pro key, and serves an Enterprise key', async () => {
    const pro = await createKey(app, 'pro');
    const refused = await get('/v1/events/nba-x/movement', pro);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      type: 'https://sharpline.io/problems/plan-feature',
      plan: 'pro',
      required_plan: 'enterprise',
      // That plan on the pricing page of SITE_URL (decision 151): its checkout, and the portal's plan switch.
      upgrade_url: 'https://example.test/sports-betting-api#plan-enterprise',
    });
    expect(refused.json().detail).toContain('Enterprise plan');
    expect(refused.headers['x-ratelimit-limit']).toBe('100');
    const enterprise = await createKey(app, 'enterprise');
    const missing = await get('/v1/events/nba-x/movement', enterprise);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().type).toBe('https://sharpline.io/problems/event-not-found');
  });
});

describe('per-plan rate limits on /v1', () => {
  const planIds: PlanId[] = ['starter', 'pro', 'elite', 'enterprise'];

  for (const planId of planIds) {
    const limit = PLANS.find((plan) => plan.id === planId)!.requestsPerMinute;
    it(`${planId}: the ${limit}th request in a minute succeeds, the next gets 429 with Retry-After in [1, 60], the next window succeeds`, async () => {
      const key = await createKey(app, planId);
      const answers = await Promise.all(Array.from({ length: limit }, () => get('/v1/leagues', key)));
      expect(answers.every((response) => response.statusCode === 200)).toBe(true);
      const last = answers.reduce((low, response) =>
        Number(response.headers['x-ratelimit-remaining']) < Number(low.headers['x-ratelimit-remaining'])
          ? response
          : low,
      );
      expect(last.headers['x-ratelimit-remaining']).toBe('0');
      expect(last.headers['ratelimit-policy']).toBe(`"minute";q=${limit};w=60`);
      expect(last.headers.ratelimit).toMatch(/^"minute";r=0;t=\d+$/);

      const refused = await get('/v1/leagues', key);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.json()).toMatchObject({
        type: 'https://sharpline.io/problems/rate-limited',
        status: 429,
        limit,
      });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers['x-ratelimit-limit']).toBe(String(limit));
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect(refused.headers['ratelimit-policy']).toBe(`"minute";q=${limit};w=60`);

      clock.advance(60_000);
      const again = await Promise.all(Array.from({ length: limit }, () => get('/v1/leagues', key)));
      expect(again.every((response) => response.statusCode === 200)).toBe(true);
      expect((await get('/v1/leagues', key)).statusCode).toBe(429);
      clock.advance(60_000);
    });
  }

  it('counts each key separately: one exhausted key does not limit another', async () => {
    const a = await createKey(app, 'starter');
    const b = await createKey(app, 'starter');
    await Promise.all(Array.from({ length: 30 }, () => get('/v1/leagues', a)));
    expect((await get('/v1/leagues', a)).statusCode).toBe(429);
    expect((await get('/v1/leagues', b)).statusCode).toBe(200);
  });

  it('/v1/me reports plan, limits, used and remaining consistently with the headers, its own call not charged', async () => {
    const key = await createKey(app, 'starter');
    await get('/v1/leagues', key);
    const response = await get('/v1/me', key);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.plan).toEqual({ id: 'starter', name: 'Starter', real_time: false, delay_seconds: 120 });
    expect(body.limits).toEqual({ requests_per_minute: 30, stream_connections: 2 });
    expect(body.usage.used).toBe(1);
    expect(body.usage.remaining).toBe(29);
    expect(String(body.usage.remaining)).toBe(response.headers['x-ratelimit-remaining']);
    expect(body.key.prefix).toBe(key.slice(0, 14));
    expect(body.sgp_credits).toEqual({
      limit: 0,
      used: 0,
      remaining: 0,
      resets_at: '2026-12-01T00:00:00.000Z',
    });
  });
});
