import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The server started exactly as `npm start` does, for the benches that measure what `npm start` costs
// (bench/memory.bench.ts, bench/idle.bench.ts): package.json's `start` script, run by the shell with `exec` so that the
// process measured is the server's own, on a fresh DATA_DIR, with the market simulator and no client. With
// DATABASE_URL set it runs in PostgreSQL mode, in a schema of its own.

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

export interface NpmStartServer {
  child: ChildProcess;
  /** The folder holding DATA_DIR and SECRETS_DIR (removed by `stop`). */
  base: string;
  dataDir: string;
  mode: 'postgres' | 'pglite';
  /** Stops the server (SIGTERM, waiting for it to exit) and removes its folder. */
  stop(): Promise<void>;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `npm start` on 127.0.0.1:`port` and waits (up to ten minutes) until /readyz answers 200. */
export async function startLikeNpmStart(port: number, name: string): Promise<NpmStartServer> {
  const base = mkdtempSync(path.join(tmpdir(), `sharpline-${name}-`));
  const dataDir = path.join(base, 'data');
  const startScript = (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start;
  const child = spawn('sh', ['-c', `exec ${startScript}`], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SECRETS_DIR: path.join(base, 'secrets'),
      LOG_LEVEL: 'warn',
      ...(process.env.DATABASE_URL ? { DATABASE_SCHEMA: `bench_${name}_${process.pid}` } : {}),
    },
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(base, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
      if (ready?.ok) break;
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error('the server did not become ready');
      await sleep(250);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, base, dataDir, mode: process.env.DATABASE_URL ? 'postgres' : 'pglite', stop };
}

/** A field of /proc/<pid>/status in MB: the resident set (`VmRSS`) or its peak (`VmHWM`). */
export function memoryMB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${field}:`));
  return Math.round(Number(line?.split(/\s+/)[1] ?? Number.NaN) / 1024);
}
