import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MeResponseSchema,
  RotationResponseSchema,
  UsageResponseSchema,
} from '#domain/schemas/api/account.ts';
import { USAGE_FAMILIES } from '#domain/usage.ts';
import { emailOutbox, keyUsageDaily } from '../db/schema.ts';
import { KEY_IN_TEXT } from '../keys/key-format.ts';
import { ACCOUNT_CALLS_PER_MINUTE } from '../odds-api/auth.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createTrialKey, openRawStream } from '#tests/support/server/odds-api.ts';
import { freePort, SmtpPeer, trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// Self-service with the key (issue 33, decision 155): GET /v1/me's subscription and streams, GET /v1/me/usage
// (counted in memory, flushed in batches, zero-filled UTC days) and POST /v1/me/rotate, on the app users run.
// The flush period is an hour here: every count a test sees before it calls `app.usage.flush()` is unflushed.

const DAY = 86_400_000;
const MINUTE = 60_000;
// A port the system picks (decision 159): a fixed one collided with another run's on the same machine.
const peer = new SmtpPeer(await freePort());
// Midday UTC, so that a few minutes' advance stays within the day.
const clock = virtualClock(Date.UTC(2026, 10, 20, 12));
let app: FastifyInstance;
let port: number;
let owners = 0;

const get = (url: string, key: string) => app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
const usage = async (key: string, days?: number) => {
  const response = await get(`/v1/me/usage${days === undefined ? '' : `?days=${days}`}`, key);
  expect(response.statusCode).toBe(200);
  return UsageResponseSchema.parse(response.json());
};
const rotate = (key: string) =>
  app.inject({ method: 'POST', url: '/v1/me/rotate', headers: { 'x-api-key': key } });

async function ownKey(plan: 'pro' | 'elite' = 'elite') {
  owners += 1;
  const email = `owner${owners}.${process.pid}@example.com`;
  const { plain, record } = await app.apiKeys.create({ planId: plan, email });
  return { plain, record, email };
}

const storedRows = async (ledgerId: number) =>
  app.db.select().from(keyUsageDaily).where(eq(keyUsageDaily.ledgerKeyId, ledgerId));

beforeAll(async () => {
  await peer.start();
  app = await buildTestApp({
    config: trialTestConfig({ SMTP_URL: peer.url }),
    now: clock.now,
    usage: { flushMs: 3_600_000 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await app?.close();
  await peer.stop();
});

describe('GET /v1/me/usage', () => {
  it('counts each request in its route family by UTC day, every day and family present, oldest first, before any flush', async () => {
    const { plain, record } = await ownKey();
    const start = clock.now();
    for (let i = 0; i < 3; i += 1) expect((await get('/v1/odds?league=nba', plain)).statusCode).toBe(200);
    expect((await get('/v1/arbs', plain)).statusCode).toBe(200);
    expect((await get('/v1/leagues', plain)).statusCode).toBe(200);
    expect((await get('/v1/events/no-such-event', plain)).statusCode).toBe(404);
    expect((await get('/v1/no-such-route', plain)).statusCode).toBe(404);
    clock.advance(2 * DAY);
    expect((await get('/v1/odds?league=nba', plain)).statusCode).toBe(200);
    const body = await usage(plain, 4);
    const day = (offset: number) => new Date(start + offset * DAY).toISOString().slice(0, 10);
    expect(body.from).toBe(day(-1));
    expect(body.to).toBe(day(2));
    expect(body.retention_days).toBe(90);
    expect(body.days.map((entry) => entry.date)).toEqual([day(-1), day(0), day(1), day(2)]);
    for (const entry of body.days)
      expect(Object.keys(entry.by_family).sort()).toEqual([...USAGE_FAMILIES].sort());
    const zero = Object.fromEntries(USAGE_FAMILIES.map((family) => [family, 0]));
    expect(body.days[0]).toEqual({
      date: day(-1),
      requests: 0,
      by_family: zero,
      stream_minutes: 0,
      sgp_credits: 0,
    });
    expect(body.days[1]).toEqual({
      date: day(0),
      requests: 7,
      by_family: { ...zero, odds: 3, arbs: 1, events: 2, other: 1 },
      stream_minutes: 0,
      sgp_credits: 0,
    });
    expect(body.days[2]!.requests).toBe(0);
    // Today: the /v1/odds request, not flushed yet; this very /v1/me/usage request is free and not counted.
    expect(body.days[3]!.by_family).toEqual({ ...zero, odds: 1 });
    expect(await storedRows(record.ledgerId)).toEqual([]);

    // Flushed: the same figures from the database, counted once.
    await app.usage.flush();
    expect((await storedRows(record.ledgerId)).length).toBe(5);
    const after = await usage(plain, 4);
    expect(after.days[1]).toEqual(body.days[1]);
    expect(after.days[3]!.by_family).toEqual({ ...zero, odds: 1 });
    // A key of its own: another key's requests are not in it.
    const other = await ownKey();
    expect((await usage(other.plain, 4)).days.map((entry) => entry.requests)).toEqual([0, 0, 0, 0]);
  });

  it('shows 30 days by default and 1 to 90 on request; anything else is a 400 problem that counts nothing', async () => {
    const { plain, record } = await ownKey();
    expect((await usage(plain)).days).toHaveLength(30);
    expect((await usage(plain, 1)).days).toHaveLength(1);
    const longest = await usage(plain, 90);
    expect(longest.days).toHaveLength(90);
    expect(longest.days.at(-1)!.date).toBe(new Date(clock.now()).toISOString().slice(0, 10));
    for (const days of ['0', '91', '-1', '1.5', 'thirty', '']) {
      const response = await get(`/v1/me/usage?days=${days}`, plain);
      expect(response.statusCode, `days=${days}`).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().type).toMatch(/validation$/);
    }
    // The account's reads, refused or not, are free: nothing counted, nothing stored.
    expect((await usage(plain, 1)).days[0]!.requests).toBe(0);
    await app.usage.flush();
    expect(await storedRows(record.ledgerId)).toEqual([]);
  });

  it("leaves the account's own calls out of the usage and the per-minute quota (issue 56)", async () => {
    const { plain } = await ownKey('pro');
    expect((await get('/v1/odds?league=nba', plain)).statusCode).toBe(200);
    for (let i = 0; i < 10; i += 1) {
      expect((await get('/v1/me', plain)).statusCode).toBe(200);
      expect((await get('/v1/me/usage?days=1', plain)).statusCode).toBe(200);
    }
    const me = MeResponseSchema.parse((await get('/v1/me', plain)).json());
    expect(me.usage.used).toBe(1);
    expect(me.usage.remaining).toBe(me.limits.requests_per_minute - 1);
    const today = (await usage(plain, 1)).days[0]!;
    expect(today.requests).toBe(1);
    expect(today.by_family.odds).toBe(1);
    expect(today.by_family.account).toBe(0);
    // The next data request is the second of the minute.
    const odds = await get('/v1/odds?league=nba', plain);
    expect(odds.headers['x-ratelimit-remaining']).toBe(String(me.limits.requests_per_minute - 2));
  });

  it("still answers the account when the plan's minute is used up, and limits account calls apart (60 a minute)", async () => {
    const { plain } = await ownKey('pro');
    const limit = MeResponseSchema.parse((await get('/v1/me', plain)).json()).limits.requests_per_minute;
    let refused = 0;
    for (let i = 0; i <= limit; i += 1)
      if ((await get('/v1/leagues', plain)).statusCode === 429) refused += 1;
    expect(refused).toBe(1);
    const me = await get('/v1/me', plain);
    expect(me.statusCode).toBe(200);
    expect(MeResponseSchema.parse(me.json()).usage.remaining).toBe(0);
    // 2 account calls so far this minute; 58 more are admitted, the next is refused with a wait.
    for (let i = 0; i < ACCOUNT_CALLS_PER_MINUTE - 2; i += 1)
      expect((await get('/v1/me/usage?days=1', plain)).statusCode).toBe(200);
    const over = await get('/v1/me', plain);
    expect(over.statusCode).toBe(429);
    expect(over.json().detail).toMatch(/Account calls/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(MINUTE);
    expect((await get('/v1/me', plain)).statusCode).toBe(200);
  });

  it('counts stream minutes per started minute, while the stream is open and when it ends', async () => {
    const { plain } = await ownKey();
    const stream = await openRawStream(`http://127.0.0.1:${port}/v1/stream?initial=false`, {
      'x-api-key': plain,
    });
    expect(stream.status).toBe(200);
    await waitFor(() => app.usage.openStreams > 0, 'the stream to be counted');
    expect((await usage(plain, 1)).days[0]!.stream_minutes).toBe(1);
    clock.advance(2 * MINUTE + 30_000);
    const during = (await usage(plain, 1)).days[0]!;
    expect(during.stream_minutes).toBe(3);
    expect(during.by_family.stream).toBe(1);
    stream.abort();
    await waitFor(() => app.usage.openStreams === 0, 'the stream to end');
    clock.advance(5 * MINUTE);
    await app.usage.flush();
    expect((await usage(plain, 1)).days[0]!.stream_minutes).toBe(3);
  });
});

describe('GET /v1/me', () => {
  it('has no subscription for a key made by operators or a trial key, and counts the open streams against the limit', async () => {
    const { plain } = await ownKey('pro');
    const body = MeResponseSchema.parse((await get('/v1/me', plain)).json());
    expect(body.subscription).toBeNull();
    expect(body.streams).toEqual({ open: 0, limit: 5 });
    const stream = await openRawStream(`http://127.0.0.1:${port}/v1/stream?initial=false`, {
      'x-api-key': plain,
    });
    await waitFor(
      async () => MeResponseSchema.parse((await get('/v1/me', plain)).json()).streams.open === 1,
      'the open stream in /v1/me',
    );
    stream.abort();
    const trial = await createTrialKey(app, clock.now(), `trial${process.pid}@example.com`);
    expect(MeResponseSchema.parse((await get('/v1/me', trial.plain)).json()).subscription).toBeNull();
  });
});

describe('POST /v1/me/rotate', () => {
  it('answers a new key once; the old key is refused at once, its stream ends with revoked, the history continues', async () => {
    const { plain, record, email } = await ownKey();
    expect((await get('/v1/odds?league=nba', plain)).statusCode).toBe(200);
    expect((await get('/v1/arbs', plain)).statusCode).toBe(200);
    const stream = await openRawStream(`http://127.0.0.1:${port}/v1/stream?initial=false`, {
      'x-api-key': plain,
    });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await waitFor(() => app.streamHub.connectionsOf(record.id) === 1, 'the stream to open');

    const response = await rotate(plain);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const rotated = RotationResponseSchema.parse(response.json());
    expect(rotated.key).toMatch(/^sl_live_[0-9A-Za-z]{32}$/);
    expect(rotated.key.startsWith(rotated.prefix)).toBe(true);
    expect(rotated.old_prefix).toBe(record.prefix);
    expect(rotated.rotated_at).toBe(new Date(clock.now()).toISOString());

    // The old key: refused at once (no cache time), its stream closed with `revoked`.
    const old = await get('/v1/me', plain);
    expect(old.statusCode).toBe(401);
    expect(old.json().type).toMatch(/api-key-revoked$/);
    await waitFor(() => ended, 'the old key’s stream to end');
    expect(stream.text()).toContain('event: close');
    expect(stream.text()).toContain('"reason":"revoked"');

    // The new key: same plan and expiry, and the usage history of the line, today's unflushed requests included.
    const me = MeResponseSchema.parse((await get('/v1/me', rotated.key)).json());
    expect(me.key.prefix).toBe(rotated.prefix);
    expect(me.plan.id).toBe('elite');
    expect(me.key.expires_at).toBeNull();
    const today = (await usage(rotated.key, 1)).days[0]!;
    expect(today.by_family.odds).toBe(1);
    expect(today.by_family.arbs).toBe(1);
    expect(today.by_family.stream).toBe(1);
    expect(today.by_family.account).toBe(0);

    // The notice: the new prefix, never the key; its outbox row carries no sealed key.
    const notice = await waitFor(() => peer.to(email)[0], 'the rotation notice');
    expect(notice.raw).toContain(rotated.prefix);
    expect(notice.raw).toContain(record.prefix);
    expect(notice.raw.match(KEY_IN_TEXT)).toBeNull();
    const rows = await app.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));
    expect(rows.map((row) => row.kind)).toEqual(['key-rotated-notice']);
    expect(rows[0]!.payload).toMatchObject({ keyPrefix: rotated.prefix, previousPrefix: record.prefix });
  });

  // The app's clock (2026-11-20 + a few days) is behind the database's (today): the trial, expired at the database's
  // clock but not at the request's, is rotated, as the key the request was let in with (it failed from 2026-11-29 on,
  // when rotation judged expiry by the database's clock).
  it('keeps a trial key a trial with the same expiry', async () => {
    const trial = await createTrialKey(app, clock.now(), `rotating-trial${process.pid}@example.com`);
    const before = MeResponseSchema.parse((await get('/v1/me', trial.plain)).json());
    const rotated = RotationResponseSchema.parse((await rotate(trial.plain)).json());
    expect(rotated.key).toMatch(/^sl_trial_/);
    const after = MeResponseSchema.parse((await get('/v1/me', rotated.key)).json());
    expect(after.key.kind).toBe('trial');
    expect(after.key.expires_at).toBe(before.key.expires_at);
    expect((await get('/v1/me', trial.plain)).statusCode).toBe(401);
  });

  // Issue 55: a successor with a window of its own gave five rotations an hour about six times the plan's rate in one
  // minute. The line shares one window: what the old key used this minute counts against the new key.
  it('gives the new key only what is left of the old key’s minute, and the whole limit once that minute ends', async () => {
    const { plain } = await ownKey('pro');
    const limit = 100;
    let last = await get('/v1/leagues', plain);
    for (let i = 1; i < 90; i += 1) last = await get('/v1/leagues', plain);
    expect(last.statusCode).toBe(200);
    expect(last.headers['x-ratelimit-limit']).toBe(String(limit));
    expect(last.headers['x-ratelimit-remaining']).toBe('10');
    // The rotation itself is free (decision 218): 10 are left.
    const rotated = await rotate(plain);
    expect(rotated.statusCode).toBe(200);
    const key = RotationResponseSchema.parse(rotated.json()).key;

    const first = await get('/v1/leagues', key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('9');
    expect(first.headers['x-ratelimit-reset']).toBe(last.headers['x-ratelimit-reset']);
    for (let i = 0; i < 9; i += 1) expect((await get('/v1/leagues', key)).statusCode).toBe(200);
    const refused = await get('/v1/leagues', key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().type).toMatch(/rate-limited$/);
    // A further rotation gets no fresh minute either: the newest key is refused like its line.
    const again = await rotate(key);
    expect(again.statusCode).toBe(200);
    const newest = RotationResponseSchema.parse(again.json()).key;
    expect((await get('/v1/leagues', newest)).statusCode).toBe(429);

    clock.advance(Number(refused.headers['retry-after']) * 1000);
    const next = await get('/v1/leagues', newest);
    expect(next.statusCode).toBe(200);
    expect(next.headers['x-ratelimit-remaining']).toBe(String(limit - 1));
  });

  it('allows 5 rotations an hour for a key and its successors, then 429 with Retry-After, changing nothing', async () => {
    let { plain } = await ownKey();
    for (let i = 0; i < 5; i += 1) {
      const response = await rotate(plain);
      expect(response.statusCode).toBe(200);
      plain = response.json().key;
    }
    const refused = await rotate(plain);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().type).toMatch(/rotation-limit$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The key that was refused a rotation still works.
    expect((await get('/v1/me', plain)).statusCode).toBe(200);
    // Other keys are not limited by it.
    expect((await rotate((await ownKey()).plain)).statusCode).toBe(200);
  });
});
