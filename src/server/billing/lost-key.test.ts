import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiKeys, emailOutbox, lostKeyRequests } from '../db/schema.ts';
import { emailHash } from '../http/log-safe.ts';
import { buildTestApp, virtualClock, logSink } from '#tests/support/server/app.ts';
import { freePort, keyInEmail, SmtpPeer, trialTestConfig, waitFor } from '#tests/support/server/trials.ts';
import { emailIdentity } from '../keys/email-identity.ts';
import { generateKey } from '../keys/key-format.ts';

// POST /api/lost-key (issue 18, decision 142): a paid key's owner gets a new key by email; the old key works for 24
// hours more; the answer never tells whether the address has a key; the form is rate limited like trial requests.

const HOUR = 3_600_000;
const peer = new SmtpPeer(await freePort());
const clock = virtualClock(Date.now());
let app: FastifyInstance;
let addresses = 0;
const logLines: string[] = [];
/** Every lost-key answer, in the order the app finished sending them (an onResponse hook of the test). */
const events: string[] = [];

const ask = (email: string, headers: Record<string, string> = {}, body: Record<string, unknown> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/lost-key',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `203.0.113.${(addresses % 250) + 1}`,
      ...headers,
    },
    payload: JSON.stringify({ email, ...body }),
  });

const me = (key: string) => app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': key } });

async function paidKey(email: string, plan: 'pro' | 'elite' = 'elite') {
  const { plain, record } = await app.apiKeys.create({ planId: plan, email });
  return { plain, record };
}

const outboxCount = async () =>
  (await app.db.select({ n: sql<number>`count(*)::int` }).from(emailOutbox))[0]!.n;

/** Resolves once every recorded lost-key request has been processed (the work runs after the answer). */
const processed = (target = app) =>
  waitFor(
    async () => (await target.db.select({ n: sql<number>`count(*)::int` }).from(lostKeyRequests))[0]!.n === 0,
    'the lost-key requests to be processed',
  );

function newAddress(local = 'owner') {
  addresses += 1;
  return `${local}${addresses}.${process.pid}@example.com`;
}

beforeAll(async () => {
  await peer.start();
  app = await buildTestApp({
    config: trialTestConfig({ SMTP_URL: peer.url, TRUST_PROXY: 'true' }),
    now: clock.now,
    log: logSink(logLines),
  });
  app.addHook('onResponse', async (request) => {
    if (request.url === '/api/lost-key') events.push('answered');
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await peer.stop();
});

describe('POST /api/lost-key', () => {
  it("emails a new key to the key's owner; the old key keeps working until the new key's first request", async () => {
    const email = newAddress();
    const old = await paidKey(email);
    const response = await ask(email);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const sent = await waitFor(() => peer.to(email)[0], 'the new key email');
    expect(sent.raw).toMatch(/Subject: Your new Sharpline API key/);
    expect(sent.raw.replace(/=\r?\n/g, '')).toMatch(
      /keeps working until your first request with this new key/,
    );
    const fresh = keyInEmail(sent.raw)!;
    expect(fresh).toMatch(/^sl_live_/);
    expect(fresh).not.toBe(old.plain);
    // Until the new key is used, the customer's key works as before, a day later too.
    clock.advance(30 * HOUR);
    expect((await me(old.plain)).statusCode).toBe(200);
    expect((await me(fresh)).json().plan.id).toBe('elite');
    const retired = await me(old.plain);
    expect(retired.statusCode).toBe(401);
    expect(retired.json().type).toMatch(/api-key-revoked$/);
    expect((await me(fresh)).statusCode).toBe(200);
    // The new key uses the old one's SGP credits ledger: rotating renews no allowance.
    const [row] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, old.record.id));
    const [next] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, row!.replacedBy!));
    expect(next!.ledgerKeyId).toBe(old.record.id);
  });

  it('repeated requests by someone else never cut the customer off; using the newest key retires the whole line', async () => {
    const email = newAddress('griefed');
    const original = await paidKey(email, 'pro');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      addresses += 1;
      expect((await ask(email)).statusCode).toBe(200);
    }
    const emails = await waitFor(() => peer.to(email).length === 3 && peer.to(email), 'three new key emails');
    const issued = emails.map((received) => keyInEmail(received.raw)!);
    expect(new Set(issued).size).toBe(3);
    expect((await me(original.plain)).statusCode).toBe(200);
    const newest = issued.at(-1)!;
    expect((await me(newest)).statusCode).toBe(200);
    for (const earlier of [original.plain, ...issued.slice(0, -1)]) {
      expect((await me(earlier)).statusCode).toBe(401);
    }
  });

  it('answers the same for an address without a key, and emails nothing', async () => {
    const before = await outboxCount();
    const response = await ask(newAddress('nobody'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    await processed();
    expect(await outboxCount()).toBe(before);
  });

  it("finds the key under another spelling of the mailbox, and sends it only to the key's own address", async () => {
    const email = newAddress('spelled');
    await paidKey(email, 'pro');
    const typed = email.replace('@', '+billing@').toUpperCase();
    expect((await ask(typed)).statusCode).toBe(200);
    const sent = await waitFor(() => peer.to(email)[0], 'the new key email');
    expect(sent.to).toEqual([email]);
    expect(peer.to(typed)).toHaveLength(0);
  });

  it("emails an active trial key's successor too: same trial end, the old key working until the new one is used", async () => {
    // Issue 56: a lost trial key can be recovered here, as a paid one is (decision 217).
    const email = newAddress('trial');
    const trial = generateKey('trial');
    const expiresAt = new Date(clock.now() + 3 * 86_400_000);
    await app.db.insert(apiKeys).values({
      prefix: trial.prefix,
      hash: trial.hash,
      kind: 'trial',
      plan: 'pro',
      ownerEmail: email,
      ownerIdentity: email,
      expiresAt,
    });
    const typed = email.replace('@', '+lost@');
    expect((await ask(typed)).statusCode).toBe(200);
    const sent = await waitFor(() => peer.to(email)[0], 'the new trial key email');
    expect(sent.to).toEqual([email]);
    expect(peer.to(typed)).toHaveLength(0);
    const text = sent.raw.replace(/=\r?\n/g, '');
    expect(text).toMatch(/Subject: Your Sharpline trial API key/);
    expect(text).toMatch(/keeps working until your first request with this new key/);
    const fresh = keyInEmail(sent.raw)!;
    expect(fresh).toMatch(/^sl_trial_/);
    expect((await me(trial.plain)).statusCode).toBe(200);
    const answer = await me(fresh);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().key).toMatchObject({ kind: 'trial', expires_at: expiresAt.toISOString() });
    expect((await me(trial.plain)).json().type).toMatch(/api-key-revoked$/);
  });

  it('leaves an ended trial alone, and emails nothing', async () => {
    const email = newAddress('ended');
    const trial = generateKey('trial');
    await app.db.insert(apiKeys).values({
      prefix: trial.prefix,
      hash: trial.hash,
      kind: 'trial',
      plan: 'pro',
      ownerEmail: email,
      ownerIdentity: email,
      expiresAt: sql`now() - interval '1 hour'`,
    });
    const before = await outboxCount();
    expect((await ask(email)).statusCode).toBe(200);
    await processed();
    expect(await outboxCount()).toBe(before);
  });

  it('is rate limited per email like trial requests (3 a day), with Retry-After', async () => {
    const email = newAddress('limited');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      addresses += 1;
      expect((await ask(email)).statusCode).toBe(200);
    }
    addresses += 1;
    const refused = await ask(email);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().detail).toMatch(/Too many key requests for this address/);
  });

  it('refuses a bad address (400), another media type (415), and drops the honeypot silently', async () => {
    const invalid = await ask('not-an-email');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.email).toBeDefined();
    const text = await app.inject({
      method: 'POST',
      url: '/api/lost-key',
      headers: { 'content-type': 'text/plain' },
      payload: 'a@example.com',
    });
    expect(text.statusCode).toBe(415);
    const email = newAddress('bot');
    await paidKey(email);
    const before = await outboxCount();
    expect((await ask(email, {}, { website: 'https://spam.example' })).statusCode).toBe(200);
    await processed();
    expect(await outboxCount()).toBe(before);
  });
});

describe('the answer does not depend on the address (issue 31)', () => {
  it('answers before any key lookup starts, for an address with a paid key and for one without', async () => {
    await processed();
    const lookup = app.paidKeys.lostKey.bind(app.paidKeys);
    const work = vi.spyOn(app.paidKeys, 'lostKey').mockImplementation(async (...args) => {
      events.push('lookup');
      return lookup(...args);
    });
    try {
      const owner = newAddress('timing');
      await paidKey(owner);
      for (const email of [owner, newAddress('timing-nobody')]) {
        events.length = 0;
        addresses += 1;
        expect((await ask(email)).statusCode).toBe(200);
        await waitFor(() => events.includes('lookup'), 'the lookup');
        // The answer was sent before the lookup began: its duration cannot depend on what the lookup finds.
        expect(events).toEqual(['answered', 'lookup']);
        await processed();
      }
      await waitFor(() => peer.to(owner)[0], 'the new key email');
    } finally {
      work.mockRestore();
    }
  });

  it('a failure after the answer is logged without the address and retried: the request is not lost', async () => {
    const email = newAddress('retried');
    const old = await paidKey(email);
    const work = vi.spyOn(app.paidKeys, 'lostKey');
    work.mockRejectedValueOnce(new Error(`database unavailable for ${email}`));
    const lines = logLines.length;
    try {
      expect((await ask(email)).statusCode).toBe(200);
      const sent = await waitFor(() => peer.to(email)[0], 'the new key email after a retry');
      expect(keyInEmail(sent.raw)).not.toBe(old.plain);
      const logged = logLines.slice(lines).join('');
      expect(logged).toMatch(/lost-key request not processed/);
      expect(logged).toContain(emailHash(emailIdentity(email)));
      expect(logged).not.toContain(email);
      expect(work).toHaveBeenCalledTimes(2);
    } finally {
      work.mockRestore();
    }
  });

  it('a request answered but not yet processed when the server stops is processed at the next start', async () => {
    const pgliteDir = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-lost-key-')), 'pglite');
    // One config for both starts: the same DATA_DIR and database (on PostgreSQL, the same schema).
    const config = trialTestConfig({ SMTP_URL: peer.url, TRUST_PROXY: 'true', PGLITE_DIR: pgliteDir });
    const email = newAddress('restart');
    const first = await buildTestApp({ config });
    await first.ready();
    try {
      await first.apiKeys.create({ planId: 'pro', email });
      // The work keeps failing (the database, say) until the server stops.
      vi.spyOn(first.paidKeys, 'lostKey').mockRejectedValue(new Error('database unavailable'));
      const answer = await first.inject({
        method: 'POST',
        url: '/api/lost-key',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.251' },
        payload: JSON.stringify({ email }),
      });
      expect(answer.statusCode).toBe(200);
      await waitFor(() => vi.mocked(first.paidKeys.lostKey).mock.calls.length > 0, 'a first attempt');
    } finally {
      await first.close();
    }
    expect(peer.to(email)).toHaveLength(0);
    const second = await buildTestApp({ config });
    await second.ready();
    try {
      const sent = await waitFor(() => peer.to(email)[0], 'the new key email from the next start');
      expect(keyInEmail(sent.raw)).toMatch(/^sl_live_/);
      await processed(second);
    } finally {
      await second.close();
    }
  }, 120_000);
});
