import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { manualSource, logSink } from '#tests/support/server/app.ts';
import { emailOutbox } from '../db/schema.ts';
import { KEY_IN_TEXT } from '../keys/key-format.ts';
import {
  external,
  freePort,
  keyInEmail,
  SmtpPeer,
  trialBody,
  trialTestConfig,
  waitFor,
} from '#tests/support/server/trials.ts';
import { TrialRequestSchema } from '#domain/schemas/trial-request.ts';
import { backoffDelay, OutboxWorker, scrubError } from './outbox.ts';
import { queueEmail } from './queue.ts';
import { emlFileName, type Mailer } from './transport.ts';

const workerOptions = {
  from: 'test@example.test',
  siteUrl: 'https://example.test',
  pollMs: 1000,
  leaseMs: 60_000,
  backoffMs: 50,
  maxAttempts: 5,
  singleProcess: false,
};

const apps: FastifyInstance[] = [];
const peers: SmtpPeer[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  await Promise.all(peers.splice(0).map((peer) => peer.stop()));
});

const post = (app: FastifyInstance, body: unknown) =>
  app.inject({
    method: 'POST',
    url: '/api/trial-requests',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

describe('email outbox', () => {
  it('keeps acknowledging requests while SMTP is down and delivers every email once after it comes back', async () => {
    const peer = new SmtpPeer(await freePort());
    peers.push(peer);
    const app = await buildApp({
      source: manualSource(),
      config: trialTestConfig({ SMTP_URL: peer.url, TRIAL_LIMIT_PER_IP: '100', OUTBOX_BACKOFF_MS: '40' }),
      log: false,
    });
    apps.push(app);
    await app.ready();

    const bodies = Array.from({ length: 6 }, () => trialBody());
    for (const body of bodies) expect((await post(app, body)).statusCode).toBe(200);
    // The worker keeps trying and backs off while nobody listens.
    const failing = await waitFor(async () => {
      const rows = await app.db.select().from(emailOutbox);
      return rows.length === 6 && rows.every((row) => row.attempts >= 2 && row.status === 'pending') && rows;
    }, 'retries while SMTP is down');
    for (const row of failing) {
      expect(row.lastError).toMatch(/ECONNREFUSED/);
      expect(row.sentAt).toBeNull();
      expect(row.sealedSecret).not.toBeNull();
    }
    expect(peer.received).toHaveLength(0);

    await peer.start();
    await waitFor(async () => {
      const rows = await app.db.select().from(emailOutbox);
      return rows.every((row) => row.status === 'sent');
    }, 'delivery after SMTP came back');
    await app.close();
    for (const body of bodies) {
      const received = peer.to(body.email as string);
      expect(received).toHaveLength(1);
      expect(keyInEmail(received[0]!.raw)).toBeDefined();
    }
    expect(peer.received).toHaveLength(6);
    expect(new Set(peer.received.map((email) => email.messageId)).size).toBe(6);
  });

  it('wipes the sealed key of an email once it is sent', async () => {
    const peer = new SmtpPeer(await freePort());
    peers.push(peer);
    await peer.start();
    const app = await buildApp({
      source: manualSource(),
      config: trialTestConfig({ SMTP_URL: peer.url }),
      log: false,
    });
    apps.push(app);
    await app.ready();
    const body = trialBody();
    expect((await post(app, body)).statusCode).toBe(200);
    const [row] = await waitFor(async () => {
      const rows = await app.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.toAddress, body.email as string));
      return rows[0]?.status === 'sent' && rows;
    }, 'sent');
    expect(row!.sealedSecret).toBeNull();
    expect(row!.attempts).toBe(1);
  });

  it('writes .eml files to DATA_DIR/outbox and logs a line without the address when SMTP_URL is unset', async () => {
    const lines: string[] = [];
    const config = trialTestConfig({ LOG_LEVEL: 'info' });
    const stream = logSink(lines);
    const app = await buildApp({ source: manualSource(), config, log: stream });
    apps.push(app);
    await app.ready();
    const body = trialBody();
    expect((await post(app, body)).statusCode).toBe(200);
    const dir = path.join(config.dataDir, 'outbox');
    const files = await waitFor(() => {
      try {
        return readdirSync(dir).filter((file) => file.endsWith('.eml')).length === 1 && readdirSync(dir);
      } catch {
        return false;
      }
    }, 'the .eml file');
    const eml = readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(eml).toContain(`To: ${body.email as string}`);
    expect(keyInEmail(eml)).toBeDefined();
    await waitFor(() => lines.some((line) => line.includes('email sent')), 'the log line');
    const sent = JSON.parse(lines.find((line) => line.includes('email sent'))!);
    expect(sent).toMatchObject({ via: 'file', kind: 'trial-issued' });
    expect(sent.to).toMatch(/^[0-9a-f]{16}$/);
    const logs = lines.join('');
    expect(logs).not.toContain(body.email as string);
    expect(logs.match(KEY_IN_TEXT)).toBeNull();
  });

  it('takes over the claim of a dead worker: at start on PGlite (one process), when its lease ends on PostgreSQL', async () => {
    const peer = new SmtpPeer(await freePort());
    peers.push(peer);
    await peer.start();
    const app = await buildApp({
      source: manualSource(),
      config: trialTestConfig({ SMTP_URL: peer.url, OUTBOX_POLL_MS: '100' }),
      log: false,
    });
    apps.push(app);
    await app.ready();
    await app.outbox.stop();
    const body = trialBody();
    expect((await post(app, body)).statusCode).toBe(200);
    // As if a crashed process held the row: on PGlite with a lease far in the future (no other process can exist),
    // on PostgreSQL with a lease that is about to end.
    const lease = external() ? sql`now() + interval '300 milliseconds'` : sql`now() + interval '1 hour'`;
    await app.db
      .update(emailOutbox)
      .set({ status: 'sending', claimedBy: 'w-dead', leaseUntil: lease, attempts: 1 });
    await app.outbox.start();
    await waitFor(() => peer.to(body.email as string).length === 1, 'the email');
    const [row] = await waitFor(async () => {
      const rows = await app.db.select().from(emailOutbox);
      return rows[0]?.status === 'sent' && rows;
    }, 'sent');
    expect(row!.attempts).toBe(2);
  });
});

describe('email outbox files and sealed keys', () => {
  it('names each .eml file by its Message-ID, so a second email with the same row id gets its own file', async () => {
    // Two databases in turn on one DATA_DIR (as after a database reset): both first emails are row 1.
    const first = trialTestConfig();
    const dir = path.join(first.dataDir, 'outbox');
    const emlFiles = () => {
      try {
        return readdirSync(dir).filter((file) => file.endsWith('.eml'));
      } catch {
        return [];
      }
    };
    for (const config of [first, trialTestConfig({ DATA_DIR: first.dataDir })]) {
      const app = await buildApp({ source: manualSource(), config, log: false });
      apps.push(app);
      await app.ready();
      const before = emlFiles().length;
      expect((await post(app, trialBody())).statusCode).toBe(200);
      await waitFor(() => emlFiles().length === before + 1, 'a new .eml file');
      const [row] = await app.db.select().from(emailOutbox);
      expect(row!.id).toBe(1);
      await app.close();
    }
    const files = emlFiles();
    expect(files).toHaveLength(2);
    const ids = files.map(
      (file) => /^Message-ID:\s*(.+)$/im.exec(readFileSync(path.join(dir, file), 'utf8'))?.[1],
    );
    expect(files.sort()).toEqual(ids.map((id) => emlFileName(id!.trim())).sort());
  });

  it('discards a sealed key not sent within OUTBOX_SEALED_TTL_MS: never claimed, marked failed at the next expiry pass, and resend issues a new key', async () => {
    const peer = new SmtpPeer(await freePort());
    peers.push(peer);
    await peer.start();
    const app = await buildApp({
      source: manualSource(),
      config: trialTestConfig({ SMTP_URL: peer.url, OUTBOX_SEALED_TTL_MS: '600000' }),
      log: false,
    });
    apps.push(app);
    await app.ready();
    await app.outbox.stop();
    const body = trialBody();
    const address = body.email as string;
    expect((await post(app, body)).statusCode).toBe(200);
    // Queued eleven minutes ago, never sent (SMTP was down, say).
    await app.db.update(emailOutbox).set({ createdAt: sql`now() - interval '11 minutes'` });
    // Between expiry passes (the start's ran a moment ago, the next is a minute away) the expired key is not claimed.
    expect(await app.outbox.runOnce()).toBe(0);
    expect(peer.received).toHaveLength(0);
    expect((await app.db.select().from(emailOutbox))[0]).toMatchObject({ status: 'pending', attempts: 0 });
    // A start discards it at once.
    await app.outbox.start();
    const [row] = await waitFor(async () => {
      const rows = await app.db.select().from(emailOutbox);
      return rows[0]?.status === 'failed' && rows;
    }, 'the expired email marked failed');
    expect(row!.sealedSecret).toBeNull();
    expect(row!.lastError).toMatch(/not sent in time/);
    expect(peer.received).toHaveLength(0);

    expect(await app.trials.resend(address)).toMatchObject({ action: 'rotated' });
    const [email] = await waitFor(() => peer.to(address).length === 1 && peer.to(address), 'the new key');
    expect(keyInEmail(email!.raw)).toBeDefined();
  });
});

describe('email outbox and unsafe addresses', () => {
  it('fails an email whose address holds a line break at its first attempt, wipes its sealed key and sends nothing', async () => {
    const peer = new SmtpPeer(await freePort());
    peers.push(peer);
    await peer.start();
    const app = await buildApp({
      source: manualSource(),
      config: trialTestConfig({ SMTP_URL: peer.url, OUTBOX_BACKOFF_MS: '40' }),
      log: false,
    });
    apps.push(app);
    await app.ready();
    // Queued past every check before it (issue 55): the mailer is the last line.
    const to = `buyer.${process.pid}@example.com\r\nBcc: victim@example.net`;
    await app.db.transaction((tx) =>
      queueEmail(tx, app.secrets, 'https://example.test', {
        kind: 'paid-key-issued',
        to,
        payload: { keyPrefix: 'sl_live_AbCdEf', plan: 'pro' },
        key: 'sl_live_AbCdEf0123456789abcdefghijklmn',
      }),
    );
    app.outbox.kick();
    const [row] = await waitFor(async () => {
      const rows = await app.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
      return rows[0]?.status === 'failed' && rows;
    }, 'the email marked failed');
    expect(row!.attempts).toBe(1);
    expect(row!.sealedSecret).toBeNull();
    expect(row!.lastError).toMatch(/line break or NUL/);
    expect(row!.lastError).not.toContain('@');
    expect(peer.received).toHaveLength(0);
  });
});

describe('OutboxWorker claims', () => {
  it('never lets two workers send the same email', async () => {
    const app = await buildApp({
      source: manualSource(),
      config: trialTestConfig({ OUTBOX_POLL_MS: '600000' }),
      log: false,
    });
    apps.push(app);
    await app.ready();
    await app.outbox.stop();
    for (let i = 0; i < 30; i += 1)
      await app.trials.submit(TrialRequestSchema.parse(trialBody()), '192.0.2.1');
    const sent: string[] = [];
    const mailer: Mailer = {
      kind: 'file',
      async send(email) {
        sent.push(email.messageId);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return 'recorded';
      },
      close() {},
    };
    const options = { ...workerOptions, batchSize: 3, pollMs: 5 };
    const workers = [1, 2, 3].map(() => new OutboxWorker(app.db, mailer, app.secrets, options, app.log));
    // Three workers poll the same table at the same time until everything is sent.
    await Promise.all(workers.map((worker) => worker.start()));
    await waitFor(
      async () => (await app.db.select().from(emailOutbox)).every((row) => row.status === 'sent'),
      'all sent',
    );
    await Promise.all(workers.map((worker) => worker.close()));
    expect(sent.sort()).toEqual([...new Set(sent)]);
    expect(sent).toHaveLength(30);
    const rows = await app.db.select().from(emailOutbox);
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });
});

describe('OutboxWorker restarts', () => {
  it('releases at start the claims of its own previous incarnation (same INSTANCE_ID), not those of another instance', async () => {
    const app = await buildApp({
      source: manualSource(),
      config: trialTestConfig({ OUTBOX_POLL_MS: '600000' }),
      log: false,
    });
    apps.push(app);
    await app.ready();
    await app.outbox.stop();
    for (let i = 0; i < 2; i += 1)
      await app.trials.submit(TrialRequestSchema.parse(trialBody()), '192.0.2.1');
    const [mine, theirs] = await app.db.select().from(emailOutbox).orderBy(emailOutbox.id);
    // Claims of killed workers with a lease far in the future: ours (host-a:4400) and another instance's.
    const claim = (id: number, instance: string) =>
      app.db
        .update(emailOutbox)
        .set({
          status: 'sending',
          claimedBy: `${instance}#dead`,
          claimedInstance: instance,
          leaseUntil: sql`now() + interval '1 hour'`,
          attempts: 1,
        })
        .where(eq(emailOutbox.id, id));
    await claim(mine!.id, 'host-a:4400');
    await claim(theirs!.id, 'host-b:4400');
    const sent: string[] = [];
    const mailer: Mailer = {
      kind: 'file',
      async send(email) {
        sent.push(email.messageId);
        return 'recorded';
      },
      close() {},
    };
    // PostgreSQL semantics (several processes may share the database): only our own instance's claims are ours.
    const worker = new OutboxWorker(
      app.db,
      mailer,
      app.secrets,
      { ...workerOptions, instanceId: 'host-a:4400' },
      app.log,
    );
    await worker.start();
    await waitFor(() => sent.length === 1, 'our own claimed email');
    await worker.close();
    expect(sent).toEqual([mine!.messageId]);
    const rows = await app.db.select().from(emailOutbox).orderBy(emailOutbox.id);
    expect(rows[0]).toMatchObject({ status: 'sent', attempts: 2 });
    expect(rows[1]).toMatchObject({ status: 'sending', claimedInstance: 'host-b:4400' });
  });

  it('names its claims after INSTANCE_ID, or <hostname>:<PORT> by default', async () => {
    const named = await buildApp({
      source: manualSource(),
      config: trialTestConfig({ INSTANCE_ID: 'web-1' }),
      log: false,
    });
    apps.push(named);
    expect(named.outbox.instanceId).toBe('web-1');
    expect(named.outbox.id).toMatch(/^web-1#/);
    const byPort = await buildApp({
      source: manualSource(),
      config: trialTestConfig({ PORT: '4402' }),
      log: false,
    });
    apps.push(byPort);
    expect(byPort.outbox.instanceId).toBe(`${hostname()}:4402`);
  });
});

describe('outbox helpers', () => {
  it('backs off exponentially with jitter and a 15 minute cap', () => {
    expect(backoffDelay(1, 1000, () => 0.5)).toBe(1000);
    expect(backoffDelay(2, 1000, () => 0.5)).toBe(2000);
    expect(backoffDelay(5, 1000, () => 0.5)).toBe(16_000);
    expect(backoffDelay(40, 1000, () => 0.5)).toBe(15 * 60_000);
    expect(backoffDelay(3, 1000, () => 0)).toBe(3200);
    expect(backoffDelay(3, 1000, () => 1)).toBe(4800);
  });

  it('removes addresses from stored and logged errors', () => {
    const error = Object.assign(
      new Error("Can't send mail - all recipients were rejected: 550 <ada@example.com> no"),
      {
        code: 'EENVELOPE',
      },
    );
    expect(scrubError(error)).toBe(
      "EENVELOPE: Can't send mail - all recipients were rejected: 550 <[address]> no",
    );
  });
});
