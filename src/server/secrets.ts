import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Server-side secrets, unless given by the environment:
// - server-secret: keys the client-address HMAC and seals queued API keys until their email is sent. It lives in
//   SECRETS_DIR (default: DATA_DIR's sibling `<DATA_DIR>-secrets`, mode 0700), never in DATA_DIR, so that a copy of
//   DATA_DIR cannot unseal what the database still holds in its files (docs/decisions/025-sealing-secret-outside-data-dir.md);
// - admin-token: bearer token of the loopback admin routes, read by `npm run trials` (DATA_DIR, mode 0600).

export const ADMIN_TOKEN_FILE = 'admin-token';
export const SERVER_SECRET_FILE = 'server-secret';

/** Restricts a directory or file we own to its owner; a directory we may not change (read-only mount) is left as is. */
function restrict(target: string, mode: number) {
  if ((statSync(target).mode & 0o777) === mode) return;
  try {
    chmodSync(target, mode);
  } catch (error) {
    if (!['EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}

/** Reads `dir/name`, creating it with a fresh random value (mode 0600) when absent. */
export function readOrCreateSecretFile(dir: string, name: string, dirMode?: number): string {
  const file = path.join(dir, name);
  mkdirSync(dir, { recursive: true, ...(dirMode === undefined ? {} : { mode: dirMode }) });
  if (dirMode !== undefined) restrict(dir, dirMode);
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  restrict(file, 0o600);
  const value = readFileSync(file, 'utf8').trim();
  if (value.length < 32) throw new Error(`${file} is too short; delete it to get a new one`);
  return value;
}

/**
 * Moves a server secret left in DATA_DIR by an older version to SECRETS_DIR (so that queued keys can still be
 * unsealed), or deletes it when SECRETS_DIR already has one or SERVER_SECRET is set. Returns what it did, for the log.
 */
function evictLegacySecret(
  dataDir: string,
  secretsDir: string,
  fromEnvironment: boolean,
): string | undefined {
  const legacy = path.join(dataDir, SERVER_SECRET_FILE);
  if (!existsSync(legacy)) return undefined;
  const target = path.join(secretsDir, SERVER_SECRET_FILE);
  if (fromEnvironment || existsSync(target)) {
    rmSync(legacy, { force: true });
    return `deleted ${legacy} (unused: the server secret comes from ${fromEnvironment ? 'SERVER_SECRET' : target})`;
  }
  mkdirSync(secretsDir, { recursive: true, mode: 0o700 });
  copyFileSync(legacy, target);
  chmodSync(target, 0o600);
  rmSync(legacy, { force: true });
  return `moved ${legacy} to ${target}`;
}

export class Secrets {
  private readonly sealKey: Buffer;
  private readonly hmacKey: Buffer;
  private readonly cursorKey: Buffer;

  constructor(
    serverSecret: string,
    public readonly adminToken: string,
  ) {
    const ikm = Buffer.from(serverSecret, 'utf8');
    this.sealKey = Buffer.from(hkdfSync('sha256', ikm, 'sharpline', 'outbox-seal', 32));
    this.hmacKey = Buffer.from(hkdfSync('sha256', ikm, 'sharpline', 'client-address', 32));
    this.cursorKey = Buffer.from(hkdfSync('sha256', ikm, 'sharpline', 'page-cursor', 32));
  }

  /**
   * The signature of a page cursor's payload (HMAC-SHA256 truncated to 128 bits, base64url): a cursor is accepted
   * only with the signature this server secret gives it, so a client cannot edit what it continues (decision 147).
   */
  signCursor(payload: string): string {
    return createHmac('sha256', this.cursorKey)
      .update(payload)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  /** Keyed hash (hex) of a client address: comparable across requests, not reversible by enumerating IPv4. */
  hashAddress(address: string): string {
    return createHmac('sha256', this.hmacKey).update(address).digest('hex');
  }

  /** AES-256-GCM; the output is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  unseal(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unknown sealed format');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

export function loadSecrets(
  config: {
    dataDir: string;
    secretsDir: string;
    SERVER_SECRET?: string | undefined;
    ADMIN_TOKEN?: string | undefined;
  },
  notice: (message: string) => void = () => {},
): Secrets {
  const evicted = evictLegacySecret(config.dataDir, config.secretsDir, config.SERVER_SECRET !== undefined);
  if (evicted) notice(evicted);
  const serverSecret =
    config.SERVER_SECRET ?? readOrCreateSecretFile(config.secretsDir, SERVER_SECRET_FILE, 0o700);
  const adminToken = config.ADMIN_TOKEN ?? readOrCreateSecretFile(config.dataDir, ADMIN_TOKEN_FILE);
  return new Secrets(serverSecret, adminToken);
}

declare module 'fastify' {
  interface FastifyInstance {
    secrets: Secrets;
  }
}

/**
 * Server secret (SERVER_SECRET, else SECRETS_DIR/server-secret) and admin token (ADMIN_TOKEN, else
 * DATA_DIR/admin-token), files created at start with mode 0600.
 */
export const secretsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'secrets',
      loadSecrets(app.config, (message) => app.log.warn(`server secret: ${message}`)),
    );
  },
  { name: 'secrets' },
);
