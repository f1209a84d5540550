import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { manualSource, logSink } from '#tests/support/server/app.ts';
import { rowsOf } from '../db/database.ts';
import { apiKeys, emailOutbox, trialRequests } from '../db/schema.ts';
import { KEY_IN_TEXT, keyPrefix, verifyKey } from '../keys/key-format.ts';
import {
  external,
  freePort,
  keyInEmail,
  SmtpPeer,
  trialBody,
  trialTestConfig,
  waitFor,
} from '#tests/support/server/trials.ts';

const peer = new SmtpPeer(await freePort());
const logLines: string[] = [];
let app: FastifyInstance;

const post = (body: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/trial-requests',
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const me = (key: string) => app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': key } });

let ipCounter = 0;
/** A distinct client address per test, so the per-address limit does not couple tests. */
const fromNewAddress = () => ({ 'x-forwarded-for': `198.51.100.${(ipCounter += 1)}` });

async function countRows() {
  const [requests] = await app.db.select({ n: sql<number>`count(*)::int` }).from(trialRequests);
  const [keys] = await app.db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
  const [emails] = await app.db.select({ n: sql<number>`count(*)::int` }).from(emailOutbox);
  return { requests: requests!.n, keys: keys!.n, emails: emails!.n };
}

beforeAll(async () => {
  await peer.start();
  const config = trialTestConfig({
    SMTP_URL: peer.url,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'info',
    CORS_ORIGINS: 'https://partner.example, https://other.example',
  });
  const stream = logSink(logLines);
  app = await buildApp({ source: manualSource(), config, log: stream });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await peer.stop();
});

describe('POST /api/trial-requests', () => {
  it('stores a valid request, answers {"success":true} and delivers one email whose key verifies against the stored hash', async () => {
    const body = trialBody();
    const response = await post(body, fromNewAddress());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });

    const rows = await app.db
      .select()
      .from(trialRequests)
      .where(eq(trialRequests.email, body.email as string));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: 'Ada Lovelace',
      company: 'Analytical Engines',
      status: 'issued',
      referrer: 'Direct',
    });
    expect(rows[0]!.clientIpHash).toMatch(/^[0-9a-f]{64}$/);

    const [email] = await waitFor(
      () => peer.to(body.email as string).length > 0 && peer.to(body.email as string),
      'the email',
    );
    expect(peer.to(body.email as string)).toHaveLength(1);
    const key = keyInEmail(email!.raw);
    expect(key).toBeDefined();
    const [stored] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, rows[0]!.apiKeyId!));
    expect(verifyKey(key!, stored!.hash)).toBe(true);
    expect(stored).toMatchObject({ kind: 'trial', plan: 'pro', revokedAt: null, prefix: key!.slice(0, 15) });
    const days = (stored!.expiresAt!.getTime() - stored!.createdAt.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(7, 5);
    expect(email!.raw).toMatch(/Content-Type: text\/plain/i);
    expect(email!.raw).toMatch(/Content-Type: text\/html/i);
    await waitFor(
      async () =>
        (
          await app.db
            .select()
            .from(emailOutbox)
            .where(eq(emailOutbox.toAddress, body.email as string))
        )[0]?.status === 'sent',
      'sent status',
    );
  });

  it('keeps the plain key out of the database and the logs, and the address out of the logs', async () => {
    const body = trialBody();
    expect((await post(body, fromNewAddress())).statusCode).toBe(200);
    const [email] = await waitFor(
      () => peer.to(body.email as string).length > 0 && peer.to(body.email as string),
      'the email',
    );
    const key = keyInEmail(email!.raw)!;
    await waitFor(
      async () =>
        (
          await app.db
            .select()
            .from(emailOutbox)
            .where(eq(emailOutbox.toAddress, body.email as string))
        )[0]?.status === 'sent',
      'sent status',
    );

    const dump = JSON.stringify(
      rowsOf(
        await app.db.execute(sql`SELECT row_to_json(t)::text AS j FROM (SELECT * FROM trial_requests) t
          UNION ALL SELECT row_to_json(k)::text FROM (SELECT * FROM api_keys) k
          UNION ALL SELECT row_to_json(o)::text FROM (SELECT * FROM email_outbox) o`),
      ),
    );
    expect(dump).not.toContain(key);
    expect(dump.match(KEY_IN_TEXT)).toBeNull();
    const logs = logLines.join('');
    expect(logs).toContain('trial request stored');
    expect(logs).toContain('email sent');
    expect(logs).not.toContain(key);
    expect(logs.match(KEY_IN_TEXT)).toBeNull();
    expect(logs).not.toContain(body.email as string);
    expect(logs).not.toMatch(/@example\.com/);
  });

  it('emails an active trial a working new key on a second request; the first key works until the new one is used', async () => {
    // Issue 56: the page says a key was sent, so one is. Anyone can type a victim's address: the key the victim holds
    // keeps working until the new key (sent only to the victim's mailbox) is first used (decisions 026, 217).
    const first = trialBody();
    const address = first.email as string;
    expect((await post(first, fromNewAddress())).statusCode).toBe(200);
    const [issued] = await waitFor(() => peer.to(address).length === 1 && peer.to(address), 'the key');
    const key = keyInEmail(issued!.raw)!;
    await waitFor(
      async () =>
        (await app.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address)))[0]?.status ===
        'sent',
      'sent status',
    );

    // Another spelling of the address (transports lower-case the domain, so only the local part changes case).
    const upper = address.replace(/^[^@]+/, (local) => local.toUpperCase());
    const second = await post({ ...first, company: 'Another Co', email: upper }, fromNewAddress());
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ success: true });
    const [again] = await waitFor(
      () => peer.to(address).length === 2 && peer.to(address).slice(1),
      'the new key',
    );
    const newKey = keyInEmail(again!.raw)!;
    expect(newKey).toMatch(/^sl_trial_/);
    expect(newKey).not.toBe(key);
    // Quoted-printable: soft line breaks joined.
    expect(again!.raw.replace(/=\r?\n/g, '')).toMatch(
      /keeps working until your first request with this new key/,
    );

    const keys = await app.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.ownerEmail, address))
      .orderBy(apiKeys.id);
    expect(keys).toHaveLength(2);
    expect(verifyKey(newKey, keys[1]!.hash)).toBe(true);
    expect(keys[1]!.expiresAt!.getTime()).toBe(keys[0]!.expiresAt!.getTime());
    expect(keys[1]!.ledgerKeyId).toBe(keys[0]!.id);
    // The first key still works, until the new one is used; then only the new one does.
    expect((await me(key)).statusCode).toBe(200);
    expect((await me(newKey)).statusCode).toBe(200);
    expect((await me(key)).json()).toMatchObject({ type: expect.stringContaining('api-key-revoked') });
    expect((await me(newKey)).statusCode).toBe(200);
    const statuses = (
      await app.db.select().from(trialRequests).where(eq(trialRequests.emailIdentity, address))
    ).map((row) => row.status);
    expect(statuses.sort()).toEqual(['issued', 'rotated']);
  });

  it('rotates the key of an active trial whose email could not be delivered, on a second request', async () => {
    const body = trialBody();
    const address = body.email as string;
    await app.outbox.stop();
    try {
      expect((await post(body, fromNewAddress())).statusCode).toBe(200);
      // Every attempt failed and the sealed copy is gone: nobody can hold this key.
      await app.db
        .update(emailOutbox)
        .set({ status: 'failed', sealedSecret: null })
        .where(eq(emailOutbox.toAddress, address));
    } finally {
      await app.outbox.start();
    }
    expect((await post({ ...body, message: 'again' }, fromNewAddress())).statusCode).toBe(200);
    const [email] = await waitFor(() => peer.to(address).length === 1 && peer.to(address), 'the new key');
    const keys = await app.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.ownerEmail, address))
      .orderBy(apiKeys.id);
    expect(keys).toHaveLength(2);
    expect(keys[0]!.revokedAt).not.toBeNull();
    expect(keys[1]!.revokedAt).toBeNull();
    expect(keys[1]!.expiresAt!.getTime()).toBe(keys[0]!.expiresAt!.getTime());
    expect(email!.raw).toMatch(/could not be delivered/);
    expect(verifyKey(keyInEmail(email!.raw)!, keys[1]!.hash)).toBe(true);
  });

  it('refuses a second trial for an address whose trial has ended, politely and by email, without a key', async () => {
    const body = trialBody();
    const address = body.email as string;
    expect((await post(body, fromNewAddress())).statusCode).toBe(200);
    await waitFor(() => peer.to(address).length === 1, 'the first email');
    await app.db
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 hour'` })
      .where(eq(apiKeys.ownerEmail, address));

    expect((await post({ ...body, message: 'again' }, fromNewAddress())).statusCode).toBe(200);
    const emails = await waitFor(() => peer.to(address).length === 2 && peer.to(address), 'the refusal');
    const refusal = emails[1]!;
    expect(refusal.raw).toMatch(/already had its free trial/);
    expect(keyInEmail(refusal.raw)).toBeUndefined();
    expect(await app.db.select().from(apiKeys).where(eq(apiKeys.ownerEmail, address))).toHaveLength(1);
    const statuses = (await app.db.select().from(trialRequests).where(eq(trialRequests.email, address))).map(
      (row) => row.status,
    );
    expect(statuses.sort()).toEqual(['issued', 'refused']);
  });

  it('answers alike for a new address, an active trial and an ended trial, and emails each what is true', async () => {
    const [fresh, active, ended] = [trialBody(), trialBody(), trialBody()];
    for (const body of [active, ended]) {
      expect((await post(body, fromNewAddress())).statusCode).toBe(200);
      await waitFor(() => peer.to(body.email as string).length === 1, 'the first key');
    }
    await app.db
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 hour'` })
      .where(eq(apiKeys.ownerEmail, ended.email as string));

    const answers = [];
    for (const body of [fresh, active, ended]) {
      const response = await post({ ...body, message: 'once more' }, fromNewAddress());
      answers.push({
        status: response.statusCode,
        type: response.headers['content-type'],
        body: response.body,
      });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]).toEqual({
      status: 200,
      type: expect.stringMatching(/^application\/json/),
      body: '{"success":true}',
    });
    const [freshMail] = await waitFor(
      () => peer.to(fresh.email as string).length === 1 && peer.to(fresh.email as string),
      'fresh',
    );
    const activeMails = await waitFor(
      () => peer.to(active.email as string).length === 2 && peer.to(active.email as string),
      'active',
    );
    const endedMails = await waitFor(
      () => peer.to(ended.email as string).length === 2 && peer.to(ended.email as string),
      'ended',
    );
    expect(keyInEmail(freshMail!.raw)).toMatch(/^sl_trial_/);
    expect(keyInEmail(activeMails[1]!.raw)).toMatch(/^sl_trial_/);
    expect(keyInEmail(endedMails[1]!.raw)).toBeUndefined();
    expect(endedMails[1]!.raw).toMatch(/already had its free trial/);
  });

  it('answers 400 with per-field errors and stores nothing for an invalid email and a missing name', async () => {
    const before = await countRows();
    const response = await post(trialBody({ email: 'not-an-email', name: '' }), fromNewAddress());
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = response.json();
    expect(problem).toMatchObject({ status: 400, title: 'Invalid request' });
    expect(Object.keys(problem.errors)).toEqual(expect.arrayContaining(['email', 'name']));
    expect(await countRows()).toEqual(before);
  });

  it('answers 400 with a clear message and stores nothing for names of only U+200B, with U+202E or with C1 controls', async () => {
    const before = await countRows();
    for (const name of [
      '\u200b',
      '\u200b \u200d\u2060',
      'Ada \u202eecalevol',
      'Ada\u0085Lovelace',
      'Ada\u009b31m',
    ]) {
      const response = await post(trialBody({ name }), fromNewAddress());
      expect(response.statusCode, JSON.stringify(name)).toBe(400);
      expect(response.json().errors.name).toEqual([
        expect.stringMatching(
          /^(Full Name is required|Must not contain control or text-direction characters)$/,
        ),
      ]);
    }
    expect(await countRows()).toEqual(before);
  });

  it('answers 400 for an email whose local part is over 64 characters or which is over 254 characters', async () => {
    const before = await countRows();
    const long = await post(trialBody({ email: `${'a'.repeat(65)}@example.com` }), fromNewAddress());
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.email).toEqual(['The part before @ must be at most 64 characters']);
    const huge = await post(
      trialBody({ email: `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}.com` }),
      fromNewAddress(),
    );
    expect(huge.statusCode).toBe(400);
    expect(await countRows()).toEqual(before);
    expect(
      (await post(trialBody({ email: `${'a'.repeat(64)}@example.com` }), fromNewAddress())).statusCode,
    ).toBe(200);
  });

  it("counts +tags and Gmail dots as one mailbox (one trial, one per-email budget) and sends its keys to the trial's own address", async () => {
    const user = `ada${process.pid}x${Date.now().toString(36)}`;
    const spellings = [
      `ada.${user}+one@gmail.com`,
      `ada${user}+two@googlemail.com`,
      `a.d.a.${user}@gmail.com`,
    ];
    expect((await post(trialBody({ email: spellings[0] }), fromNewAddress())).statusCode).toBe(200);
    await waitFor(() => peer.to(spellings[0]!).length === 1, 'the key');
    for (const email of spellings.slice(1)) {
      expect((await post(trialBody({ email }), fromNewAddress())).statusCode).toBe(200);
    }
    const identity = `ada${user}@gmail.com`;
    // One trial: a key and its successors, one line, one expiry, all owned by the address the trial was issued to.
    const keys = await app.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.ownerIdentity, identity))
      .orderBy(apiKeys.id);
    expect(keys).toHaveLength(3);
    for (const key of keys) {
      expect(key.ownerEmail).toBe(spellings[0]);
      expect(key.expiresAt).toEqual(keys[0]!.expiresAt);
      expect(key.revokedAt).toBeNull();
    }
    expect(keys.slice(1).map((key) => key.ledgerKeyId)).toEqual([keys[0]!.id, keys[0]!.id]);
    // A key goes only to the address the trial was issued to, never to another spelling someone typed.
    const mails = await waitFor(
      () => peer.to(spellings[0]!).length === 3 && peer.to(spellings[0]!),
      'the keys',
    );
    expect(mails.map((mail) => keyPrefix(keyInEmail(mail.raw)!)).sort()).toEqual(
      keys.map((key) => key.prefix).sort(),
    );
    for (const email of spellings.slice(1)) expect(peer.to(email)).toHaveLength(0);
    const stored = await app.db.select().from(trialRequests).where(eq(trialRequests.emailIdentity, identity));
    expect(stored.map((row) => row.email).sort()).toEqual([...spellings].sort());
    // The fourth request of this mailbox in a day, under yet another spelling.
    expect((await post(trialBody({ email: `ada${user}+four@gmail.com` }), fromNewAddress())).statusCode).toBe(
      429,
    );
  });

  it('rolls the whole transaction back and answers 503 without internals or addresses in the logs when storage fails', async () => {
    const before = await countRows();
    // The last insert of the transaction (the outbox row) fails: the request and the key must not remain.
    await app.db.execute(sql`ALTER TABLE email_outbox RENAME TO email_outbox_away`);
    try {
      const body = trialBody();
      const response = await post(body, fromNewAddress());
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).not.toMatch(/email_outbox|relation|insert/i);
      const logs = logLines.join('');
      expect(logs).toContain('trial request not stored');
      expect(logs).not.toContain(body.email as string);
      expect(logs).not.toContain('Failed query');
    } finally {
      await app.db.execute(sql`ALTER TABLE email_outbox_away RENAME TO email_outbox`);
    }
    expect(await countRows()).toEqual(before);
  });

  it('ignores unknown fields', async () => {
    const body = trialBody({ isAdmin: true, plan: 'enterprise' });
    expect((await post(body, fromNewAddress())).statusCode).toBe(200);
    const [key] = await app.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.ownerEmail, body.email as string));
    expect(key!.plan).toBe('pro');
  });

  it('answers 415 for a text/plain body and stores nothing', async () => {
    const before = await countRows();
    const response = await post(JSON.stringify(trialBody()), {
      ...fromNewAddress(),
      'content-type': 'text/plain',
    });
    expect(response.statusCode).toBe(415);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(await countRows()).toEqual(before);
  });

  it('answers 413 for a 17 KiB body and stores nothing', async () => {
    const before = await countRows();
    const response = await post(trialBody({ message: 'x'.repeat(17 * 1024) }), fromNewAddress());
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ status: 413 });
    expect(await countRows()).toEqual(before);
  });

  it('answers 400 for malformed JSON, a JSON array and an empty body', async () => {
    for (const payload of ['{"name":', '[]', '', 'null', '{"__proto__":{"x":1}}']) {
      const response = await post(payload, fromNewAddress());
      expect(response.statusCode, payload).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  const FIELDS = [
    'name',
    'email',
    'company',
    'useCase',
    'expectedVolume',
    'timestamp',
    'userAgent',
    'referrer',
    'promotekit_referral',
  ];
  it.each(FIELDS)('refuses CR, LF and NUL in %s with a 400 and stores nothing', async (field) => {
    for (const bad of ['\r\nBcc: victim@evil.test', '\nX-Injected: 1', 'a\u0000b']) {
      const before = await countRows();
      const base = trialBody();
      const value = field === 'email' ? `${base.email as string}${bad}` : `ok${bad}`;
      const response = await post({ ...base, [field]: value }, fromNewAddress());
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(response.json().errors)).toContain(field);
      expect(await countRows()).toEqual(before);
    }
  });

  it('keeps line breaks of the free-text message in storage only: no header is injected into the email', async () => {
    const body = trialBody({
      message: 'hello\r\nBcc: victim@evil.test\r\nSubject: pwned\r\n\r\nbody',
      website: '',
    });
    const nul = await post({ ...body, message: 'nul\u0000byte' }, fromNewAddress());
    expect(nul.statusCode).toBe(400);
    expect((await post(body, fromNewAddress())).statusCode).toBe(200);
    const [email] = await waitFor(
      () => peer.to(body.email as string).length > 0 && peer.to(body.email as string),
      'the email',
    );
    expect(email!.to).toEqual([body.email]);
    const headers = email!.raw.split(/\r?\n\r?\n/)[0]!;
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).not.toMatch(/pwned/);
    expect(peer.received.some((received) => received.to.includes('victim@evil.test'))).toBe(false);
    const [stored] = await app.db
      .select()
      .from(trialRequests)
      .where(eq(trialRequests.email, body.email as string));
    expect(stored!.message).toBe(body.message);
  });

  it('stores a double submit of the same payload once, and a repeat after the 10 s window as a new request', async () => {
    const body = trialBody();
    const address = body.email as string;
    const headers = fromNewAddress();
    expect((await post(body, headers)).statusCode).toBe(200);
    expect((await post({ ...body, timestamp: new Date().toISOString() }, headers)).statusCode).toBe(200);
    expect(await app.db.select().from(trialRequests).where(eq(trialRequests.email, address))).toHaveLength(1);
    await app.db
      .update(trialRequests)
      .set({ receivedAt: sql`now() - interval '11 seconds'` })
      .where(eq(trialRequests.email, address));
    expect((await post(body, headers)).statusCode).toBe(200);
    const statuses = (await app.db.select().from(trialRequests).where(eq(trialRequests.email, address))).map(
      (row) => row.status,
    );
    expect(statuses.sort()).toEqual(['issued', 'rotated']);
  });

  it('stores 20 identical concurrent posts once and sends one email', async () => {
    const body = trialBody();
    const headers = fromNewAddress();
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(body, headers)));
    for (const response of responses) expect([200, 429]).toContain(response.statusCode);
    expect(responses.filter((response) => response.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect(
      await app.db
        .select()
        .from(trialRequests)
        .where(eq(trialRequests.email, body.email as string)),
    ).toHaveLength(1);
    expect(
      await app.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.toAddress, body.email as string)),
    ).toHaveLength(1);
    await waitFor(
      async () =>
        (
          await app.db
            .select()
            .from(emailOutbox)
            .where(eq(emailOutbox.toAddress, body.email as string))
        )[0]?.status === 'sent',
      'sent status',
    );
    expect(peer.to(body.email as string)).toHaveLength(1);
  });

  it('answers success to a filled honeypot and stores and sends nothing', async () => {
    const before = await countRows();
    const body = trialBody({ website: 'https://spam.example' });
    const response = await post(body, fromNewAddress());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect(await countRows()).toEqual(before);
    expect(peer.to(body.email as string)).toHaveLength(0);
  });
});

describe('GET /readyz with the database', () => {
  it('reports the database and the rate limiter as ready', async () => {
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    const { checks } = response.json();
    expect(checks.database).toEqual({ ok: true, details: { driver: external() ? 'postgres' : 'pglite' } });
    expect(checks['rate-limit']).toEqual({ ok: true, details: { store: external() ? 'redis' : 'memory' } });
  });
});

describe('POST /api/trial-requests abuse limits', () => {
  it('answers 429 with Retry-After after the 30th request from one address in an hour', async () => {
    // 30 by default (decision 219): a team behind one office address; trial-limits.test.ts has the rest.
    const headers = fromNewAddress();
    for (let i = 0; i < 30; i += 1) expect((await post(trialBody(), headers)).statusCode).toBe(200);
    const before = await countRows();
    const refused = await post(trialBody(), headers);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await countRows()).toEqual(before);
    // Another address is not affected.
    expect((await post(trialBody(), fromNewAddress())).statusCode).toBe(200);
  });

  it('answers 429 after the third request for one email in a day, from any address', async () => {
    const body = trialBody();
    for (let i = 0; i < 3; i += 1) {
      expect((await post({ ...body, message: `attempt ${i}` }, fromNewAddress())).statusCode).toBe(200);
    }
    const refused = await post({ ...body, message: 'attempt 4' }, fromNewAddress());
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3600);
  });
});

describe('OPTIONS and CORS on /api/trial-requests', () => {
  it('answers a preflight from SITE_URL and allows POST with Content-Type', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/trial-requests',
      headers: {
        origin: 'https://example.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://example.test');
    expect(response.headers['access-control-allow-methods']).toBe('POST');
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type');
  });

  it('answers a preflight from an origin listed in CORS_ORIGINS', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/trial-requests',
      headers: { origin: 'https://partner.example', 'access-control-request-method': 'POST' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://partner.example');
    expect(String(response.headers.vary)).toMatch(/Origin/);
  });

  it('gives no CORS grant to another origin', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/trial-requests',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const post2 = await post(trialBody(), { ...fromNewAddress(), origin: 'https://evil.example' });
    expect(post2.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('grants the allowed origin on successes and on errors', async () => {
    const ok = await post(trialBody(), { ...fromNewAddress(), origin: 'https://example.test' });
    expect(ok.headers['access-control-allow-origin']).toBe('https://example.test');
    const bad = await post({}, { ...fromNewAddress(), origin: 'https://example.test' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['access-control-allow-origin']).toBe('https://example.test');
  });
});

describe('POST /api/trial-requests behind TRUST_PROXY', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY is set, so a client cannot dodge the per-address limit', async () => {
    const direct = await buildApp({
      source: manualSource(),
      // Five an hour per address here (the default is 30).
      config: trialTestConfig({ TRUST_PROXY: 'false', TRIAL_LIMIT_PER_IP: '5' }),
      log: false,
    });
    try {
      await direct.ready();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const response = await direct.inject({
          method: 'POST',
          url: '/api/trial-requests',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${i + 1}` },
          payload: JSON.stringify(trialBody()),
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await direct.close();
    }
  });
});
