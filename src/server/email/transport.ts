import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

// Where emails go: SMTP (SMTP_URL) or, by default, `.eml` files in DATA_DIR/outbox.

export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Unique per email; names the .eml file (a retry of one email rewrites its file, two emails never share one). */
  messageId: string;
}

/**
 * A file name for a Message-ID: `<uuid@host>` → `uuid@host.eml`. Other UTF-16 units than [A-Za-z0-9.@-] become `_`
 * and four hex digits (a leading dot too), so two Message-IDs never share a name and no name leaves the directory.
 */
export function emlFileName(messageId: string): string {
  const bare = messageId.replace(/^<|>$/g, '');
  const safe = bare.replace(
    /[^A-Za-z0-9.@-]|^\./g,
    (char) => `_${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (safe.length === 0 || safe.length > 200) throw new Error('Message-ID unusable as a file name');
  return `${safe}.eml`;
}

export interface Mailer {
  readonly kind: 'smtp' | 'file';
  /** Resolves once the message is accepted (SMTP 250) or written; returns where it went. */
  send(email: OutgoingEmail): Promise<string>;
  close(): void;
}

/**
 * An address holding CR, LF or NUL: never handed to nodemailer, which reads "a@x\r\nBcc: b@y" as a list whose group
 * "Bcc" holds b@y, and would send there (issue 55). The forms and the webhook refuse such addresses first; this is
 * the last line. The message names no address (it is stored and logged).
 */
export class UnsafeAddressError extends Error {
  constructor(field: 'to' | 'from') {
    super(`the ${field} address holds a line break or NUL; the email is not sent`);
    this.name = 'UnsafeAddressError';
  }
}

const UNSAFE_IN_ADDRESS = /[\r\n\0]/;

const message = (email: OutgoingEmail) => {
  if (UNSAFE_IN_ADDRESS.test(email.to)) throw new UnsafeAddressError('to');
  if (UNSAFE_IN_ADDRESS.test(email.from)) throw new UnsafeAddressError('from');
  return {
    from: email.from,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    messageId: email.messageId,
    headers: { 'Auto-Submitted': 'auto-generated' },
    disableFileAccess: true,
    disableUrlAccess: true,
  };
};

export function smtpMailer(url: string): Mailer {
  // Timeouts well under the outbox lease, so a hung server cannot outlive the claim.
  const transport = nodemailer.createTransport({
    url,
    // One reused connection: the worker sends one email at a time.
    pool: true,
    maxConnections: 1,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    kind: 'smtp',
    async send(email) {
      const info = await transport.sendMail(message(email));
      return String(info.response ?? 'accepted').slice(0, 200);
    },
    close: () => transport.close(),
  };
}

export function fileMailer(dir: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send(email) {
      const info = await transport.sendMail(message(email));
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, emlFileName(email.messageId));
      const temp = `${file}.tmp`;
      writeFileSync(temp, info.message as Buffer, { mode: 0o600 });
      renameSync(temp, file);
      return file;
    },
    close: () => transport.close(),
  };
}
