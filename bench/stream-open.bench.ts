// Stream opens under load (decision 087). Writes bench/results/stream-open.json.
// BENCH_OPENS streams (default 300) are opened at once, over real HTTP on loopback, from forked client processes
// (bench/lib/stream-openers.ts), each reading its whole `snapshot` event, while this process asks GET /healthz one
// request at a time and records its latency. The aim: /healthz p99 under 50 ms while the snapshots go out. Reports
// /healthz p50/p99/max when idle and during the opens, the opens' time to a complete snapshot, the snapshot size, how
// many pieces it arrived in, and the server's CPU. Then the reopen case: BENCH_REOPEN_KEYS Pro keys (the plan of a
// trial key, default 5), each with as many loops as its concurrent streams (5), open a stream, read its snapshot,
// close it and start again for BENCH_REOPEN_SECONDS (default 15; 0 skips it), while /healthz is measured again.
// The server runs the market simulator (SIM_SEED 7) on PGlite, or on PostgreSQL when DATABASE_URL is set.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixtureBuild, startServer, type RunningServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_OPEN_PORT ?? 4300);
const OPENS = Number(process.env.BENCH_OPENS ?? 300);
/** What each stream asks for: by default the whole board (no filter) with its initial snapshot. */
const QUERY = process.env.BENCH_OPEN_QUERY ?? 'initial=true';
const PROCESSES = Number(process.env.BENCH_OPEN_PROCESSES ?? 2);
const PLAN = process.env.BENCH_OPEN_PLAN ?? 'enterprise';
/** Keys the streams rotate over: enough that none reaches its opens per minute or concurrent streams. */
const KEYS = Number(process.env.BENCH_OPEN_KEYS ?? Math.ceil(OPENS / 10));
const TIMEOUT_S = Number(process.env.BENCH_OPEN_TIMEOUT ?? 120);
const REOPEN_KEYS = Number(process.env.BENCH_REOPEN_KEYS ?? 5);
const REOPEN_SECONDS = Number(process.env.BENCH_REOPEN_SECONDS ?? 15);
/** Pause between two /healthz requests (ms). */
const PROBE_GAP_MS = 5;

async function waitReady(server: RunningServer) {
  for (;;) {
    const ready = await fetch(`${server.origin}/readyz`).catch(() => null);
    if (ready?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function spread(values: number[]) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return { count: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN };
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  const round = (n: number) => Math.round(n * 10) / 10;
  return { count: sorted.length, p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1)!) };
}

/**
 * GET /healthz one at a time on a keep-alive connection until `stop()`; returns each [sent at (ms since `from`),
 * latency in ms].
 */
function probe(origin: string, from = performance.now()): { stop(): Promise<[number, number][]> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: [number, number][] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await new Promise<void>((resolve) => {
        http
          .get(`${origin}/healthz`, { agent }, (response) => {
            response.resume();
            response.on('end', () => resolve());
          })
          .on('error', () => resolve());
      });
      latencies.push([started - from, performance.now() - started]);
      await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return latencies;
    },
  };
}

interface Outcome {
  status: number;
  snapshotMs: number;
  bytes: number;
  chunks: number;
}

/** Forks one client process; `done` settles with its streams' outcomes once it has been sent 'open'. */
function openers(): { child: ChildProcess; done: Promise<Outcome[]> } {
  const child = fork(path.join(path.dirname(new URL(import.meta.url).pathname), 'lib', 'stream-openers.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const done = new Promise<Outcome[]>((resolve, reject) => {
    child.on('message', (message: { type: string; outcomes: Outcome[] }) => {
      if (message.type === 'opened') resolve(message.outcomes);
    });
    child.once('exit', (code) => reject(new Error(`client process exited with ${code}`)));
  });
  return { child, done };
}

/** Pro keys reopening streams in a loop (what a few free trial keys can do), while /healthz is measured. */
async function reopenPhase(origin: string, keys: string[], children: ChildProcess[]) {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const { child, done: exited } = openers();
  // It answers 'reopened', never 'opened': its `done` only ever rejects, when it exits at the end.
  exited.catch(() => {});
  children.push(child);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const done = new Promise<{ statuses: Record<string, number>; snapshots: number }>((resolve) => {
    child.on('message', (message: { type: string; statuses: Record<string, number>; snapshots: number }) => {
      if (message.type === 'reopened') resolve(message);
    });
  });
  const started = performance.now();
  const healthz = probe(origin, started);
  child.send({
    type: 'reopen',
    origin,
    keys,
    query: QUERY,
    loops: 5,
    seconds: REOPEN_SECONDS,
    pauseMs: 200,
    timeoutMs: TIMEOUT_S * 1000,
  });
  const { statuses, snapshots } = await done;
  const probes = await healthz.stop();
  return {
    keys: keys.length,
    loopsPerKey: 5,
    seconds: REOPEN_SECONDS,
    statuses,
    snapshots,
    healthzMs: spread(probes.map(([, ms]) => ms)),
  };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-bench-open-'));
  const server = await startServer(PORT, { DATA_DIR: dataDir, BUILD_DIR: fixtureBuild(), SIM_SEED: '7' });
  const pid = server.process.pid!;
  const children: ChildProcess[] = [];
  try {
    await waitReady(server);
    const token = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const createKeys = async (plan: string, count: number) => {
      const created: string[] = [];
      for (let index = 0; index < count; index += 1) {
        const response = await fetch(`${server.origin}/admin/keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ plan, email: `bench+${plan}${index}@example.com` }),
        });
        if (!response.ok) throw new Error(`key creation failed: ${response.status}`);
        created.push(((await response.json()) as { key: string }).key);
      }
      return created;
    };
    const keys = await createKeys(PLAN, KEYS);
    const reopenKeys = await createKeys('pro', REOPEN_KEYS);
    // Let the simulator's market fill up, then the idle baseline.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idleProbe = probe(server.origin);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = spread((await idleProbe.stop()).map(([, ms]) => ms));

    // Fork the client processes first (tsx start-up is slow), then send every open at once.
    const share = Math.ceil(OPENS / PROCESSES);
    const groups = Array.from({ length: PROCESSES }, (_, index) => {
      const first = index * share;
      return { first, count: Math.max(0, Math.min(share, OPENS - first)) };
    }).filter((group) => group.count > 0);
    const forked = groups.map((group) => ({ group, ...openers() }));
    for (const one of forked) children.push(one.child);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const cpuBefore = cpuSeconds(pid);
    const started = performance.now();
    const loadProbe = probe(server.origin, started);
    for (const { child, group } of forked)
      child.send({
        type: 'open',
        origin: server.origin,
        first: group.first,
        count: group.count,
        keys,
        query: QUERY,
        timeoutMs: TIMEOUT_S * 1000,
      });
    const outcomes = (await Promise.all(forked.map((one) => one.done))).flat();
    const seconds = (performance.now() - started) / 1000;
    const probes = await loadProbe.stop();
    const during = spread(probes.map(([, ms]) => ms));
    const slowest = [...probes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([at, ms]) => ({ sentAtMs: Math.round(at), ms: Math.round(ms) }));
    const serverCpu = (cpuSeconds(pid) - cpuBefore) / seconds;
    const ok = outcomes.filter((outcome) => Number.isFinite(outcome.snapshotMs));
    const statuses: Record<string, number> = {};
    for (const outcome of outcomes) statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
    for (const child of children.splice(0)) child.send({ type: 'close' });
    const reopen = REOPEN_SECONDS > 0 ? await reopenPhase(server.origin, reopenKeys, children) : null;
    const results = {
      at: new Date().toISOString(),
      load: readFileSync('/proc/loadavg', 'utf8').trim(),
      opens: OPENS,
      query: QUERY,
      plan: PLAN,
      keys: KEYS,
      clientProcesses: groups.length,
      statuses,
      snapshots: ok.length,
      snapshotBytes: spread(ok.map((outcome) => outcome.bytes)),
      snapshotPieces: spread(ok.map((outcome) => outcome.chunks)),
      snapshotMs: spread(ok.map((outcome) => outcome.snapshotMs)),
      allSnapshotsSeconds: Number(seconds.toFixed(2)),
      healthzIdleMs: idle,
      healthzDuringOpensMs: during,
      healthzSlowest: slowest,
      serverCpuCores: Number(serverCpu.toFixed(2)),
      reopen,
    };
    console.log(results);
    const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'stream-open.json'), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    for (const child of children) child.send({ type: 'close' });
    await server.stop();
  }
}

await main();
