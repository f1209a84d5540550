import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll } from 'vitest';
import { loadConfig, type Config } from '#server/config.ts';

// Test helpers for docs/decisions/020-024: configs on a temp DATA_DIR, a real SMTP peer on loopback, payloads, polling.
// Importing this file does nothing: a test file that runs on PostgreSQL and Redis calls useExternalStorage().

/** A minimal stand-in for the built site, so these tests do not depend on (or race with) `npm run build`. */
export function fixtureBuild(dir: string): string {
  for (const page of [
    '',
    'betting-tools/arbitrage',
    'betting-tools/positive-ev',
    'betting-tools/middles',
    'betting-tools/bet-tracker',
    'betting-tools/calibration',
    'sports-betting-api',
    'welcome',
    'account',
    '404',
  ]) {
    mkdirSync(path.join(dir, page), { recursive: true });
    writeFileSync(path.join(dir, page, 'index.html'), `<!doctype html><title>${page || 'home'}</title>`);
  }
  return dir;
}

let externalRun: string | undefined;
const schemas: string[] = [];

/**
 * Makes every app this test file builds run on DATABASE_URL and REDIS_URL, each in its own schema and Redis key
 * prefix, and drops them after the file. The integration suite (`*.integration.test.ts`) calls it, then imports a
 * unit test file, so that the same tests run against PostgreSQL and Redis.
 */
export function useExternalStorage(): void {
  if (!process.env.DATABASE_URL) throw new Error('The integration suite needs DATABASE_URL (and REDIS_URL)');
  if (externalRun) return;
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  externalRun = runId;
  afterAll(async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    for (const schema of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    if (process.env.REDIS_URL) await deleteRedisKeys(process.env.REDIS_URL, `sharpline-it:it_${runId}_*`);
  });
}

/** Deletes the keys matching `pattern` (a test's own prefix) from the Redis at `url`. */
export async function deleteRedisKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

/** Whether `useExternalStorage()` was called: the apps run on PostgreSQL and Redis rather than PGlite and memory. */
export function external(): boolean {
  return externalRun !== undefined;
}

/** The storage variables of one more app: a fresh schema and key prefix under `useExternalStorage()`, else none. */
export function externalEnv(): Record<string, string> {
  if (!externalRun) return {};
  const schema = `it_${externalRun}_${schemas.length}`;
  schemas.push(schema);
  return {
    DATABASE_URL: process.env.DATABASE_URL!,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    DATABASE_SCHEMA: schema,
    REDIS_PREFIX: `sharpline-it:${schema}:`,
  };
}

export function trialTestConfig(env: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-trial-'));
  return loadConfig({
    ...externalEnv(),
    // The odds history's storage (decision 240): a run may put every suite on the blocks format.
    ...(process.env.HISTORY_FORMAT ? { HISTORY_FORMAT: process.env.HISTORY_FORMAT } : {}),
    DATA_DIR: dataDir,
    PGLITE_DIR: 'memory://',
    BUILD_DIR: fixtureBuild(path.join(dataDir, 'site')),
    SITE_URL: 'https://example.test',
    LOG_LEVEL: 'silent',
    // Emails and lost-key requests are kicked after each commit; the poll only finds retries. 200 ms, not 50: an idle
    // app's two pollers at 50 ms cost 7 % of a core, with many apps alive at once in a suite (issue 32).
    OUTBOX_POLL_MS: '200',
    OUTBOX_BACKOFF_MS: '50',
    // The trial flows do not read odds: a two-game replay instead of the simulator, whose ticks cost an idle app
    // another 8–12 % of a core. Tests about odds pass their own ODDS_SOURCE (or use buildTestApp's hand-fed engine).
    ODDS_SOURCE: 'replay:tests/fixtures/replay-example.jsonl',
    SIM_PROPS: 'false',
    ...env,
  });
}

export interface ReceivedEmail {
  from: string;
  to: string[];
  raw: string;
  messageId: string;
}

/**
 * A loopback port nobody listens on now, chosen by the system: tests never name fixed ports, so that two runs on one
 * machine (two worktrees, the unit and integration suites at once) cannot take each other's.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * An SMTP server on loopback that records what it accepted; it can be stopped and restarted on the same port (take
 * one from `freePort()`).
 */
export class SmtpPeer {
  readonly received: ReceivedEmail[] = [];
  private server: SMTPServer | undefined;
  /** While set, DATA is read but never answered (the client cannot know whether the message was accepted). */
  hold = false;
  holding = 0;

  constructor(readonly port: number) {}

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (this.hold) {
            // Never answered: a message is delivered only once the server says 250.
            this.holding += 1;
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
            messageId: /^Message-ID:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? '',
          });
          callback();
        });
      },
    });
    server.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    // Drop open connections too, like a crashed mail server.
    const connections = (server as unknown as { connections: Set<{ close(): void }> }).connections;
    for (const connection of connections ?? []) connection.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  to(address: string): ReceivedEmail[] {
    return this.received.filter((email) => email.to.includes(address));
  }
}

let counter = 0;
/** A valid docs/product.md §7 payload; every call gets a distinct email unless one is given. */
export function trialBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    name: 'Ada Lovelace',
    email: `ada.${process.pid}.${counter}.${Math.random().toString(36).slice(2, 8)}@example.com`,
    company: 'Analytical Engines',
    useCase: 'Trial',
    expectedVolume: 'Unknown',
    message: 'Requested from the home page',
    timestamp: new Date().toISOString(),
    userAgent: 'vitest',
    referrer: 'Direct',
    website: '',
    ...overrides,
  };
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Polls `probe` every 20 ms until it returns a truthy value. The bound only catches what never happens: at load 40 on
 * two cores (other sessions' suites) an email took over 20 s to arrive (decision 159).
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 120_000,
): Promise<Truthy<T>> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The key in an email body (text part). */
export function keyInEmail(raw: string): string | undefined {
  return /sl_(?:trial|live)_[0-9A-Za-z]{32}/.exec(raw)?.[0];
}
