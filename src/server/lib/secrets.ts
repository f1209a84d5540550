import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Server-side secrets kept in DATA_DIR (mode 0600) unless given by the environment:
// - server-secret: keys the client-address HMAC and seals queued API keys until their email is sent;
// - admin-token: bearer token of the loopback admin routes, read by `npm run trials`.

export const ADMIN_TOKEN_FILE = 'admin-token';
export const SERVER_SECRET_FILE = 'server-secret';

/** Reads `dir/name`, creating it with a fresh random value (mode 0600) when absent. */
export function readOrCreateSecretFile(dir: string, name: string): string {
  const file = path.join(dir, name);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600);
  const value = readFileSync(file, 'utf8').trim();
  if (value.length < 32) throw new Error(`${file} is too short; delete it to get a new one`);
  return value;
}

export class Secrets {
  private readonly sealKey: Buffer;
  private readonly hmacKey: Buffer;

  constructor(
    serverSecret: string,
    public readonly adminToken: string,
  ) {
    const ikm = Buffer.from(serverSecret, 'utf8');
    this.sealKey = Buffer.from(hkdfSync('sha256', ikm, 'sharpline', 'outbox-seal', 32));
    this.hmacKey = Buffer.from(hkdfSync('sha256', ikm, 'sharpline', 'client-address', 32));
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

export function loadSecrets(config: {
  dataDir: string;
  SERVER_SECRET?: string | undefined;
  ADMIN_TOKEN?: string | undefined;
}): Secrets {
  const serverSecret = config.SERVER_SECRET ?? readOrCreateSecretFile(config.dataDir, SERVER_SECRET_FILE);
  const adminToken = config.ADMIN_TOKEN ?? readOrCreateSecretFile(config.dataDir, ADMIN_TOKEN_FILE);
  return new Secrets(serverSecret, adminToken);
}
