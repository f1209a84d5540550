import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PAGE_PATHS } from '#server/site/plugin.ts';

// Starts the real server (`node --import tsx src/server/server.ts`) on a loopback port for a benchmark or audit,
// waits until /healthz answers, and stops it by PID.

export interface RunningServer {
  origin: string;
  /** The server's DATA_DIR (the embedded database is under it). */
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startServer(
  port: number,
  env: Record<string, string> = {},
  /** The script to run (default the real server; bench/lib/app-server.ts passes AppOptions a bench needs). */
  entry = 'src/server/server.ts',
): Promise<RunningServer> {
  const origin = `http://127.0.0.1:${port}`;
  // BENCH_PROFILE_DIR: the server writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`, '--cpu-prof-interval=250']
    : [];
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'sharpline-bench-'));
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', entry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: origin,
      LOG_LEVEL: 'warn',
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // BENCH_START_TIMEOUT_S: a loaded machine (other jobs) may need longer than a minute for a first start.
  const startSeconds = Number(process.env.BENCH_START_TIMEOUT_S ?? 60);
  const deadline = Date.now() + startSeconds * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${origin}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within ${startSeconds} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    origin,
    dataDir,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** CPU seconds a process has used (user + system), from /proc (Linux; clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  // The command name (field 2) is in parentheses and may hold spaces: fields are counted after its `)`.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Waits until the server's own CPU use over `windowMs` falls under `share` of one core (its start-up work done: the
 * first history writes, the first scans, code compiled on first use), at most `maxMs`. Returns the seconds waited and
 * the last window's share. On a 2-core machine a page audited during the start-up burst shares a core with it.
 */
export async function settle(
  server: RunningServer,
  { share = 0.5, windowMs = 5_000, maxMs = 120_000 } = {},
): Promise<{ waitedS: number; share: number }> {
  const pid = server.process.pid!;
  const started = Date.now();
  let last = share;
  while (Date.now() - started < maxMs) {
    const before = cpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    last = (cpuSeconds(pid) - before) / (windowMs / 1000);
    if (last < share) break;
  }
  return { waitedS: Math.round((Date.now() - started) / 1000), share: Number(last.toFixed(2)) };
}

/** A stand-in for the built site, so a server bench neither needs nor races with `npm run build`. */
export function fixtureBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sharpline-bench-site-'));
  // Every page the site loads at start (its list, not a copy of it: a new page used to stop these benches' servers).
  for (const page of [...PAGE_PATHS, '/404']) {
    mkdirSync(path.join(dir, page), { recursive: true });
    writeFileSync(path.join(dir, page, 'index.html'), '<!doctype html><title>bench</title>');
  }
  return dir;
}
