import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openDatabase, type DatabaseHandle } from '#server/db/database.ts';
import { external, externalEnv, fixtureBuild, waitFor } from './trials.ts';

// Real server processes (`node --import tsx src/server/server.ts`) for crash tests: started with an environment,
// killed with any signal, all killed when the file's tests end.

export interface ServerProcesses {
  start(env: Record<string, string>): ChildProcess;
  /** Resolves when `base`/readyz answers 200. */
  ready(base: string): Promise<void>;
  exited(child: ChildProcess): Promise<void>;
}

export function serverProcesses(): ServerProcesses {
  const children = new Set<ChildProcess>();
  // The last child started on each PORT: ready() stops waiting, with the exit status, if it has exited.
  const byPort = new Map<string, ChildProcess>();
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });
  return {
    start(env) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.add(child);
      if (env.PORT) byPort.set(env.PORT, child);
      child.once('exit', () => children.delete(child));
      return child;
    },
    async ready(base) {
      await waitFor(
        async () => {
          const child = byPort.get(new URL(base).port);
          if (child && (child.exitCode !== null || child.signalCode !== null)) {
            throw new Error(
              `The server for ${base} exited (${child.exitCode ?? child.signalCode}) before it was ready`,
            );
          }
          try {
            return (await fetch(`${base}/readyz`)).ok;
          } catch {
            return false;
          }
        },
        'the server to be ready',
        // A safety net, not a measure: a server that exits is reported at once above. (The cluster test's long waits
        // in CI were one of two instances failing to start: the schema race decision 154 records.) A first start on
        // a fresh DATA_DIR imports the server and runs initdb in a child process: in CI, beside the browser tests'
        // servers and Chromium, that took 100–200 s (session 27: two crash tests timed out at 150 s, together).
        300_000,
      );
    },
    exited: (child) =>
      new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null
          ? resolve()
          : child.once('exit', () => resolve()),
      ),
  };
}

/**
 * The environment of a crash test's server: a fresh DATA_DIR (returned), PostgreSQL and Redis under
 * `useExternalStorage()`, mail to `smtpUrl`, a fast outbox and a short claim lease (on PostgreSQL the killed process's
 * claim is taken over when its lease ends).
 */
export function crashTestEnv(port: number, smtpUrl: string, extra: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-crash-'));
  const env: Record<string, string> = {
    ...externalEnv(),
    OUTBOX_LEASE_MS: '2000',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SMTP_URL: smtpUrl,
    BUILD_DIR: fixtureBuild(path.join(dataDir, 'site')),
    SITE_URL: 'https://example.test',
    LOG_LEVEL: 'error',
    // What survives a crash is under test, not the market: two replayed games instead of the simulator, whose first
    // board and its history rows cost most of each start.
    ODDS_SOURCE: 'replay:tests/fixtures/replay-example.jsonl',
    OUTBOX_POLL_MS: '50',
    OUTBOX_BACKOFF_MS: '50',
    ...extra,
  };
  return { env, dataDir };
}

/** The stopped server's database, as its environment names it: whatever it says is final. */
export function openStoppedDatabase(env: Record<string, string>): Promise<DatabaseHandle> {
  return openDatabase({
    databaseUrl: external() ? env.DATABASE_URL : undefined,
    pgliteDir: path.join(env.DATA_DIR!, 'pglite'),
    schemaName: env.DATABASE_SCHEMA ?? 'public',
  });
}
