// What the stream benches share (bench/api.bench.ts, bench/cluster.bench.ts): waiting for /readyz, keys made through
// the operators' route, /proc figures of a process, and the forked SSE client processes (bench/lib/sse-clients.ts)
// with their latency histograms.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunningServer } from './server.ts';

export async function waitReady(server: RunningServer) {
  for (;;) {
    const ready = await fetch(`${server.origin}/readyz`).catch(() => null);
    if (ready?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function adminToken(dataDir: string): string {
  return readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
}

export async function createKeys(
  server: RunningServer,
  token: string,
  plan: string,
  count: number,
): Promise<string[]> {
  const keys: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${server.origin}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ plan, email: `bench+${index}@example.com` }),
    });
    if (!response.ok) throw new Error(`key creation failed: ${response.status} ${await response.text()}`);
    keys.push(((await response.json()) as { key: string }).key);
  }
  return keys;
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

export function cpuSeconds(pid: number): number {
  // utime + stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface ClientReport {
  histogram: [number, number][];
  chunks: number;
  events: number;
  /** Streams the server ended (slow reader, shutdown) before the report. */
  closed: number;
}

/** Forks one client process; resolves once it has opened its connections. */
export function clientProcess(
  open: Record<string, unknown>,
  progress: { connected: number },
  onProgress: () => void,
): Promise<{ child: ChildProcess; connected: number; failed: number }> {
  const child = fork(path.join(path.dirname(new URL(import.meta.url).pathname), 'sse-clients.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.on('message', (message: { type: string; connected: number; failed: number }) => {
      if (message.type === 'progress') {
        progress.connected = message.connected;
        onProgress();
      }
      if (message.type === 'opened') resolve({ child, connected: message.connected, failed: message.failed });
    });
    child.once('exit', (code) => reject(new Error(`client process exited with ${code}`)));
    child.send({ type: 'open', ...open });
  });
}

export function ask<T>(child: ChildProcess, type: string, answer: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: { type: string }) => {
      if (message.type !== answer) return;
      child.off('message', listener);
      resolve(message as T);
    };
    child.on('message', listener);
    child.send({ type });
  });
}

/** Merges the client processes' histograms (ms → chunks) and reads percentiles off them. */
export function mergedLatency(reports: readonly ClientReport[]) {
  const histogram = new Map<number, number>();
  for (const report of reports)
    for (const [ms, count] of report.histogram) histogram.set(ms, (histogram.get(ms) ?? 0) + count);
  const total = [...histogram.values()].reduce((sum, count) => sum + count, 0);
  const sorted = [...histogram].sort((a, b) => a[0] - b[0]);
  const percentile = (p: number) => {
    let seen = 0;
    for (const [ms, count] of sorted) {
      seen += count;
      if (seen > (p / 100) * total) return ms;
    }
    return Number.NaN;
  };
  return { total, percentile, max: sorted.at(-1)?.[0] ?? Number.NaN };
}
