import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { manualSource } from '#tests/support/server/app.ts';
import type { Config } from '../config.ts';
import { apiKeys, emailOutbox, trialRequests } from '../db/schema.ts';
import { verifyKey } from '../keys/key-format.ts';
import {
  freePort,
  keyInEmail,
  SmtpPeer,
  trialBody,
  trialTestConfig,
  waitFor,
} from '#tests/support/server/trials.ts';

const peer = new SmtpPeer(await freePort());
const PORT = await freePort();
let app: FastifyInstance;
let config: Config;
let token: string;

const admin = (method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });

async function submit(body = trialBody()) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/trial-requests',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  expect(response.statusCode).toBe(200);
  return body.email as string;
}

beforeAll(async () => {
  await peer.start();
  config = trialTestConfig({
    SMTP_URL: peer.url,
    PORT: String(PORT),
    TRIAL_LIMIT_PER_IP: '1000',
    PGLITE_DIR: '',
  });
  app = await buildApp({ source: manualSource(), config, log: false });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  token = readFileSync(path.join(config.dataDir, 'admin-token'), 'utf8').trim();
});

afterAll(async () => {
  await app.close();
  await peer.stop();
});

describe('admin routes /admin/trials', () => {
  it('keeps the admin token in DATA_DIR/admin-token (0600) and the server secret outside DATA_DIR, in SECRETS_DIR (0700, file 0600)', () => {
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(statSync(path.join(config.dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(config.dataDir, 'server-secret'))).toBe(false);
    expect(config.secretsDir).toBe(`${config.dataDir}-secrets`);
    expect(statSync(config.secretsDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(config.secretsDir, 'server-secret')).mode & 0o777).toBe(0o600);
  });

  it('answers 404 to a client that is not on loopback, even with the token and a forged X-Forwarded-For', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/admin/trials',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '127.0.0.1' },
    });
    expect(response.statusCode).toBe(404);
  });

  it('answers 404 to a request relayed by a local reverse proxy (loopback peer with forwarding headers)', async () => {
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const response = await admin('GET', '/admin/trials', undefined, { [header]: '203.0.113.7' });
      expect(response.statusCode, header).toBe(404);
    }
  });

  it('answers 401 without the right token', async () => {
    expect(
      (await admin('GET', '/admin/trials', undefined, { authorization: 'Bearer nope' })).statusCode,
    ).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/admin/trials' })).statusCode).toBe(401);
  });

  it('guards the key routes (/admin/keys) the same way: loopback only, no proxy headers, the token', async () => {
    const remote = await app.inject({
      method: 'GET',
      url: '/admin/keys',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(remote.statusCode).toBe(404);
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      expect(
        (await admin('GET', '/admin/keys', undefined, { [header]: '203.0.113.7' })).statusCode,
        header,
      ).toBe(404);
    }
    expect((await admin('GET', '/admin/keys', undefined, { authorization: 'Bearer nope' })).statusCode).toBe(
      401,
    );
    expect((await admin('GET', '/admin/keys')).statusCode).toBe(200);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/admin/streams',
          remoteAddress: '203.0.113.7',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await admin('GET', '/admin/streams', undefined, { authorization: 'Bearer nope' })).statusCode,
    ).toBe(401);
    const streams = await admin('GET', '/admin/streams?since=0');
    expect(streams.statusCode).toBe(200);
    expect(streams.json()).toMatchObject({
      clients: 0,
      dropped: 0,
      releases: 0,
      eventLoop: { samples: expect.any(Number) },
    });
    expect((await admin('GET', '/admin/streams?since=-1')).statusCode).toBe(400);
  });

  it('lists requests and shows one address with its keys and emails', async () => {
    const email = await submit();
    const list = await admin('GET', '/admin/trials?limit=5');
    expect(list.statusCode).toBe(200);
    expect(list.json().requests[0]).toMatchObject({ email, status: 'issued' });
    const show = await admin('POST', '/admin/trials/show', { email: email.toUpperCase() });
    expect(show.statusCode).toBe(200);
    const data = show.json();
    expect(data.requests).toHaveLength(1);
    expect(data.keys).toHaveLength(1);
    expect(data.keys[0].prefix).toMatch(/^sl_trial_[0-9A-Za-z]{6}$/);
    expect(JSON.stringify(data)).not.toMatch(/"hash"/);
    expect(data.emails).toHaveLength(1);
  });

  it('resend retries an email that is still queued, without issuing a key', async () => {
    await app.outbox.stop();
    try {
      const email = await submit();
      await app.db
        .update(emailOutbox)
        .set({ status: 'failed', attempts: 25 })
        .where(eq(emailOutbox.toAddress, email));
      const response = await admin('POST', '/admin/trials/resend', { email });
      expect(response.json()).toMatchObject({ action: 'retried' });
      const [row] = await app.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));
      expect(row).toMatchObject({ status: 'pending', attempts: 0 });
      expect(await app.db.select().from(apiKeys).where(eq(apiKeys.ownerEmail, email))).toHaveLength(1);
    } finally {
      await app.outbox.start();
    }
  });

  it('resend rotates the key of an active trial whose email was sent, and emails the new key', async () => {
    const email = await submit();
    await waitFor(() => peer.to(email).length === 1, 'the first email');
    await waitFor(
      async () =>
        (await app.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email)))[0]?.status ===
        'sent',
      'sent',
    );
    const response = await admin('POST', '/admin/trials/resend', { email });
    expect(response.json()).toMatchObject({ action: 'rotated' });
    const emails = await waitFor(() => peer.to(email).length === 2 && peer.to(email), 'the resent email');
    const keys = await app.db.select().from(apiKeys).where(eq(apiKeys.ownerEmail, email)).orderBy(apiKeys.id);
    expect(keys[0]!.revokedAt).not.toBeNull();
    expect(keys[1]!.expiresAt!.getTime()).toBe(keys[0]!.expiresAt!.getTime());
    expect(verifyKey(keyInEmail(emails[1]!.raw)!, keys[1]!.hash)).toBe(true);
  });

  it('resend says so when there is nothing to resend', async () => {
    const response = await admin('POST', '/admin/trials/resend', { email: 'nobody@example.com' });
    expect(response.json()).toMatchObject({ action: 'none' });
  });
});

describe('npm run trials (CLI against the running server)', () => {
  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/cli/trials.ts', ...args], {
      env: { ...process.env, DATA_DIR: config.dataDir, PORT: String(PORT), HOST: '127.0.0.1' },
    });

  it('lists, shows and resends through the loopback admin routes', async () => {
    const email = await submit(trialBody({ name: 'Grace Hopper' }));
    await waitFor(() => peer.to(email).length === 1, 'the email');
    const list = await run('list', '10');
    expect(list.stdout).toContain(email);
    expect(list.stdout).toContain('Grace Hopper');
    const show = await run('show', email);
    expect(show.stdout).toContain(`Trial requests of ${email}`);
    expect(show.stdout).toMatch(/sl_trial_[0-9A-Za-z]{6}\s/);
    await waitFor(
      async () =>
        (await app.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email)))[0]?.status ===
        'sent',
      'sent',
    );
    const resend = await run('resend', email);
    expect(resend.stdout).toMatch(/^rotated: new key sl_trial_/);
    await waitFor(() => peer.to(email).length === 2, 'the resent email');
  });

  it('prints stored text with control, format and bidi characters escaped (list and show)', async () => {
    // A row stored before names were checked (or by any other path): the CLI must not print it raw.
    const email = await submit();
    const hostile = 'Eve\u202eecalevoL\u200b\u0085\u001b[2J\u2066x\\u{41}';
    await app.db
      .update(trialRequests)
      .set({ name: hostile, company: '\u200b' })
      .where(eq(trialRequests.email, email));
    const unsafe = /[\p{Cf}\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/u;
    for (const args of [
      ['list', '10'],
      ['show', email],
    ]) {
      const { stdout } = await run(...args);
      expect(stdout, args[0]).not.toMatch(unsafe);
      expect(stdout, args[0]).toContain('Eve\\u{202e}ecalevoL\\u{200b}\\u{85}\\u{1b}[2J\\u{2066}x\\\\u{41}');
    }
  });

  it('prints usage and exits 2 without a command', async () => {
    await expect(run()).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage: npm run trials'),
    });
  });
});
