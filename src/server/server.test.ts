import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureBuild, waitFor } from '#tests/support/server/trials.ts';

// server.ts as a real process: config errors stop it with the variable's name; SIGTERM and SIGINT stop it cleanly.
// Deterministic on a busy machine (issue 31): a stand-in site build (not `npm run build`'s, which another run may be
// rebuilding), the signal sent once /readyz answers 200 (not at the first listening line, while the start's work
// still runs), and timeouts only as a safety net.

/** Safety nets only: a first start on a busy machine initialises the embedded database (tens of seconds). */
const START_BUDGET_MS = 180_000;
const SHUTDOWN_BUDGET_MS = 120_000;

function runServer(env: Record<string, string>, nodeArgs: readonly string[] = []) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-server-'));
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      BUILD_DIR: fixtureBuild(path.join(dataDir, 'site')),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      // The signal path is under test, not the market: two replayed games instead of the simulator, whose first
      // board (and its history rows) cost most of a start.
      ODDS_SOURCE: 'replay:tests/fixtures/replay-example.jsonl',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_BUDGET_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exitSignal: NodeJS.Signals | null = null;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      exitSignal = signal;
      resolve(code);
    }),
  );
  const listening = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', onData);
    void exited.then((code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  listening.catch(() => undefined); // observed by the tests that expect the server to listen

  return { child, exited, listening, dataDir, output: () => output, signal: () => exitSignal };
}

describe('server.ts', () => {
  it('refuses to start on an invalid variable and names it', async () => {
    const server = runServer({ PORT: 'not-a-port' });
    expect(await server.exited).toBe(78);
    expect(server.output()).toContain('PORT');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'serves, then shuts down cleanly on %s',
    async (signal) => {
      const server = runServer({});
      try {
        const origin = await server.listening;
        expect((await fetch(`${origin}/healthz`)).status).toBe(200);
        // Where the data goes and how much the history may take there, once (issue 59).
        const storage = server.output().match(/"msg":"(Storage: [^"]*)"/g) ?? [];
        expect(storage).toHaveLength(1);
        expect(storage[0]).toContain(`holds the embedded database (${path.join(server.dataDir, 'pglite')})`);
        expect(storage[0]).toContain('at most 2 GiB (HISTORY_RETENTION_DAYS, HISTORY_MAX_GB');
        // What the cap does there (decision 279), and the log's size.
        expect(storage[0]).toContain(
          'past the cap the oldest quarter-days are emptied, never the current one',
        );
        expect(storage[0]).toContain('up to about 24 MB of its write-ahead log');
        // Ready (database reachable, the engine has published): the start's work is done.
        await waitFor(
          async () => (await fetch(`${origin}/readyz`)).status === 200,
          'the server to be ready',
          START_BUDGET_MS,
        );
        server.child.kill(signal);
        expect(await server.exited, server.output()).toBe(0);
        expect(server.output()).toContain('shutting down');
        expect(server.output()).toMatch(/shut down in \d+ ms/);
      } finally {
        server.child.kill('SIGKILL');
      }
    },
    START_BUDGET_MS + SHUTDOWN_BUDGET_MS,
  );

  it(
    'is killed by its watchdog when its main thread is held past SHUTDOWN_TIMEOUT_MS',
    async () => {
      // A SIGTERM listener registered before server.ts's (a preload) holds the main thread forever once the shutdown
      // has begun, as the embedded database's error loop did once (decision 312): the shutdown's own timer cannot fire.
      const holdAfterShutdownStarts = `data:text/javascript,process.on('SIGTERM',()=>setImmediate(()=>{for(;;){}}))`;
      const server = runServer({ SHUTDOWN_TIMEOUT_MS: '1000' }, ['--import', holdAfterShutdownStarts]);
      try {
        const origin = await server.listening;
        await waitFor(
          async () => (await fetch(`${origin}/readyz`)).status === 200,
          'the server to be ready',
          START_BUDGET_MS,
        );
        server.child.kill('SIGTERM');
        const started = Date.now();
        expect(await server.exited, server.output()).toBeNull();
        expect(server.signal()).toBe('SIGKILL');
        // Not before SHUTDOWN_TIMEOUT_MS + the watchdog's 2 s of grace (a lower bound only: the machine may be slow).
        expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
        expect(server.output()).toContain('shutting down');
        expect(server.output()).toContain('the main thread was still busy 3000 ms after SIGTERM');
        expect(server.output()).not.toMatch(/shut down in \d+ ms/);
      } finally {
        server.child.kill('SIGKILL');
      }
    },
    START_BUDGET_MS + SHUTDOWN_BUDGET_MS,
  );
});
