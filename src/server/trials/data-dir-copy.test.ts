import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { manualSource } from '#tests/support/server/app.ts';
import { emailOutbox } from '../db/schema.ts';
import { KEY_IN_TEXT } from '../keys/key-format.ts';
import { Secrets } from '../secrets.ts';
import {
  freePort,
  keyInEmail,
  SmtpPeer,
  trialBody,
  trialTestConfig,
  waitFor,
} from '#tests/support/server/trials.ts';

// What a stolen backup of DATA_DIR gives away (docs/decisions/025-sealing-secret-outside-data-dir.md): the embedded
// database's files (heap and WAL keep old row versions, sealed keys included) but never a plain key, nor anything that
// unseals one.

const peer = new SmtpPeer(await freePort());
let app: FastifyInstance | undefined;

afterAll(async () => {
  await app?.close();
  await peer.stop();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

const SEALED = /v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{40,80}/g;

describe('a copy of DATA_DIR', () => {
  it('holds no plain trial key and nothing that unseals a sealed key, after keys were issued and sent', async () => {
    await peer.start();
    // The embedded database on disk in DATA_DIR (the default), email over SMTP (the .eml outbox is sent mail).
    const config = trialTestConfig({ SMTP_URL: peer.url, PGLITE_DIR: '', TRIAL_LIMIT_PER_IP: '1000' });
    app = await buildApp({ source: manualSource(), config, log: false });
    await app.ready();
    const addresses: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const body = trialBody();
      addresses.push(body.email as string);
      const response = await app.inject({
        method: 'POST',
        url: '/api/trial-requests',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(response.statusCode).toBe(200);
    }
    await waitFor(() => addresses.every((address) => peer.to(address).length === 1), 'every key email');
    for (const address of addresses) {
      await waitFor(
        async () =>
          (await app!.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address)))[0]?.status ===
          'sent',
        'sent',
      );
    }
    const keys = addresses.map((address) => keyInEmail(peer.to(address)[0]!.raw)!);
    const messageIds = peer.received.map((email) => email.messageId);

    // A hot backup of DATA_DIR, as a copy of the volume would be.
    const copy = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-copy-')), 'data');
    cpSync(config.dataDir, copy, { recursive: true });
    const files = filesUnder(copy);
    expect(files.some((file) => file.includes(`${path.sep}pglite${path.sep}`))).toBe(true);
    const bytes = files.map((file) => readFileSync(file).toString('latin1'));

    for (const key of keys) expect(bytes.some((content) => content.includes(key))).toBe(false);
    expect(bytes.join('\n').match(KEY_IN_TEXT)).toBeNull();

    // Every small file of the copy tried as the server secret, on every sealed value left in its bytes.
    // A match may run into the next column's bytes (a length byte can be a letter): every prefix is tried.
    const sealed = new Set(
      bytes
        .flatMap((content) => content.match(SEALED) ?? [])
        .flatMap((match) => {
          const body = match.lastIndexOf('.') + 1;
          return Array.from({ length: match.length - body - 39 }, (_, extra) =>
            match.slice(0, body + 40 + extra),
          );
        }),
    );
    const candidates = files
      .filter((file) => statSync(file).size <= 4096)
      .map((file) => readFileSync(file, 'utf8').trim())
      .filter((value) => value.length >= 32);
    const unsealed: string[] = [];
    for (const candidate of candidates) {
      const secrets = new Secrets(candidate, 'unused-admin-token');
      for (const value of sealed) {
        for (const messageId of messageIds) {
          try {
            unsealed.push(secrets.unseal(value, messageId));
          } catch {
            // Wrong secret or wrong Message-ID: authentication fails, as it must.
          }
        }
      }
    }
    expect(unsealed).toEqual([]);
    // The secret that does unseal them lives outside DATA_DIR.
    expect(path.relative(config.dataDir, config.secretsDir).startsWith('..')).toBe(true);
    expect(readdirSync(config.secretsDir)).toEqual(['server-secret']);
  });
});
