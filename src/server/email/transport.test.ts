import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, SmtpPeer } from '#tests/support/server/trials.ts';
import { fileMailer, smtpMailer, type OutgoingEmail } from './transport.ts';

// The mail transports never put a header-injecting address on the wire (issue 55): an address holding CR, LF or NUL
// is refused before nodemailer reads it, whoever queued it (defence in depth behind the forms' and the webhook's
// validation). Nodemailer reads "a@x\r\nBcc: b@y" as an address list with a group "Bcc" holding b@y.

const victim = 'victim@example.net';
const peer = new SmtpPeer(await freePort());

const email = (to: string, from = 'Sharpline <keys@example.test>'): OutgoingEmail => ({
  from,
  to,
  subject: 'Your Sharpline API key',
  text: 'sl_live_0123456789abcdefghijklmnopqrstuv',
  html: '<p>sl_live_0123456789abcdefghijklmnopqrstuv</p>',
  messageId: `<${Math.random().toString(36).slice(2)}@example.test>`,
});

const UNSAFE = [
  `buyer@example.com\r\nBcc: ${victim}`,
  `buyer@example.com\nBcc: ${victim}`,
  `buyer@example.com\rBcc: ${victim}`,
  `buyer@example.com\u0000`,
];

beforeAll(() => peer.start());
afterAll(() => peer.stop());

describe('SMTP transport', () => {
  it('refuses an address holding CR, LF or NUL, in To or From, and sends nothing to anyone', async () => {
    const mailer = smtpMailer(peer.url);
    try {
      for (const to of UNSAFE) await expect(mailer.send(email(to))).rejects.toThrow(/line break or NUL/);
      await expect(
        mailer.send(email('buyer@example.com', `keys@example.test\r\nBcc: ${victim}`)),
      ).rejects.toThrow(/line break or NUL/);
      // The transport itself works: a plain address is delivered, to that address only.
      await mailer.send(email('buyer@example.com'));
    } finally {
      mailer.close();
    }
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]!.to).toEqual(['buyer@example.com']);
    expect(peer.to(victim)).toHaveLength(0);
  });
});

describe('.eml file transport', () => {
  it('refuses the same addresses and writes no file', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-eml-')), 'outbox');
    const mailer = fileMailer(dir);
    try {
      for (const to of UNSAFE) await expect(mailer.send(email(to))).rejects.toThrow(/line break or NUL/);
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      await mailer.send(email('buyer@example.com'));
      expect(readdirSync(dir)).toHaveLength(1);
    } finally {
      mailer.close();
    }
  });
});
