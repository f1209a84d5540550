// Past one machine (issue 19, decisions 143–145): one ROLE=ingest leader and two ROLE=api instances on PostgreSQL
// (DATABASE_URL, default CI's local one) and Redis (REDIS_URL), all on this machine's 2 cores.
// 1. Feed: GET /tools/arbs.json (gzip) requests/s summed over the two api instances (autocannon, half the connections
//    each, at the same time) against one ROLE=all instance with all the connections, in the same run.
// 2. Streams: BENCH_CLUSTER_CLIENTS (default 2,500) SSE clients on each api instance; the time from a price's receipt
//    by the leader (its `updated_at`) to its arrival at the clients (p50/p99 over every chunk), and, from each api
//    instance's /readyz, the lag from the leader's append of a snapshot to the instance serving it.
// 3. Bootstrap (decision 146): once the stream reaches back the longest plan delay (its oldest kept full entry at
//    least 120 s old), a third api instance starts; the time until it is ready (it replays the whole retained stream
//    first), the CPU it spent, and the stream's length and memory in Redis. BENCH_CLUSTER_BOOTSTRAP=false skips it.
// Writes bench/results/cluster.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { fixtureBuild, startServer, type RunningServer } from './lib/server.ts';
import {
  ask,
  clientProcess,
  cpuSeconds,
  createKeys,
  mergedLatency,
  waitReady,
  type ClientReport,
} from './lib/sse-pool.ts';

const PORT = Number(process.env.BENCH_CLUSTER_PORT ?? 4600);
const CLIENTS_PER_API = Number(process.env.BENCH_CLUSTER_CLIENTS ?? 2500);
const SECONDS = Number(process.env.BENCH_CLUSTER_SECONDS ?? 20);
const FEED_SECONDS = Number(process.env.BENCH_CLUSTER_FEED_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CLUSTER_CONNECTIONS ?? 50);
const SSE_QUERY = process.env.BENCH_SSE_QUERY ?? 'types=price&markets=moneyline,1x2&initial=false';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN_TOKEN = 'bench-cluster-admin-token-0123456789';
const tag = `bench_cluster_${Date.now().toString(36)}`;
const shared = {
  BUILD_DIR: fixtureBuild(),
  SIM_SEED: '7',
  // Game lines only by default: with the simulator's player props (~6,000 prices/s, every api instance replaying
  // them) three servers and 5,000 clients overload 2 cores (load average 12; docs/benchmarks.md). BENCH_CLUSTER_PROPS=true.
  SIM_PROPS: process.env.BENCH_CLUSTER_PROPS ?? 'false',
  STREAM_OPENS_PER_MINUTE: '10000',
  ADMIN_TOKEN,
  SERVER_SECRET: 'bench-cluster-secret-0123456789abcdef0123',
};
const cluster = {
  ...shared,
  DATABASE_URL,
  REDIS_URL,
  DATABASE_SCHEMA: tag,
  REDIS_PREFIX: `${tag}:`,
};

const loadBefore = loadavg().map((load) => Number(load.toFixed(2)));

async function feedRate(servers: RunningServer[]): Promise<number[]> {
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        url: `${server.origin}/tools/arbs.json`,
        connections: Math.max(1, Math.round(CONNECTIONS / servers.length)),
        duration: FEED_SECONDS,
        headers: { 'accept-encoding': 'gzip' },
      }),
    ),
  );
  for (const result of results)
    if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx feed answers`);
  return results.map((result) => Math.round(result.requests.average));
}

async function snapshotLag(server: RunningServer) {
  const body = (await (await fetch(`${server.origin}/readyz`)).json()) as {
    checks: { cluster: { details: { snapshotLagMs: unknown; lagMs: unknown; restarts: unknown } } };
  };
  return body.checks.cluster.details;
}

const results: Record<string, unknown> = { at: new Date().toISOString(), loadBefore };

// 1a. One ROLE=all instance.
const alone = await startServer(PORT, shared);
try {
  await waitReady(alone);
  const [rate] = await feedRate([alone]);
  results.feedAll = { requestsPerSecond: rate, connections: CONNECTIONS };
} finally {
  await alone.stop();
}

// 1b. One ingest leader and two api instances.
const ingest = await startServer(PORT + 1, { ...cluster, ROLE: 'ingest', INSTANCE_ID: 'bench-ingest' });
const apis = await Promise.all(
  [PORT + 2, PORT + 3].map((port) =>
    startServer(port, { ...cluster, ROLE: 'api', INSTANCE_ID: `bench-api-${port}` }),
  ),
);
const children: ChildProcess[] = [];
try {
  await Promise.all([ingest, ...apis].map(waitReady));
  const rates = await feedRate(apis);
  const all = (results.feedAll as { requestsPerSecond: number }).requestsPerSecond;
  const sum = rates.reduce((total, rate) => total + rate, 0);
  results.feedCluster = {
    requestsPerSecondEach: rates,
    requestsPerSecondSum: sum,
    ratioToAll: Number((sum / all).toFixed(3)),
  };
  console.log('feed', results.feedAll, results.feedCluster);

  // 2. Streams: CLIENTS_PER_API on each api instance, one client process per instance.
  const keys = await createKeys(apis[0]!, ADMIN_TOKEN, 'enterprise', Math.ceil((2 * CLIENTS_PER_API) / 100));
  const leagues = ['nba', 'ncaab', 'nfl', 'mlb', 'nhl', 'epl', 'mls'];
  const started = Date.now();
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('clients not all connected within 240 s')), 240_000).unref(),
  );
  const opened = await Promise.race([
    Promise.all(
      apis.map((api, index) =>
        clientProcess(
          {
            origin: api.origin,
            first: index * CLIENTS_PER_API,
            count: CLIENTS_PER_API,
            keys,
            leagues,
            query: SSE_QUERY,
            concurrency: 100,
          },
          { connected: 0 },
          () => {},
        ),
      ),
    ),
    deadline,
  ]);
  for (const one of opened) children.push(one.child);
  const connectSeconds = (Date.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  for (const child of children) child.send({ type: 'measure' });
  const pids = [ingest, ...apis].map((server) => server.process.pid!);
  const cpuBefore = pids.map(cpuSeconds);
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const cpu = pids.map((pid, index) => Number(((cpuSeconds(pid) - cpuBefore[index]!) / SECONDS).toFixed(2)));
  const reports = await Promise.all(children.map((child) => ask<ClientReport>(child, 'report', 'report')));
  const latency = mergedLatency(reports);
  results.streams = {
    clientsPerApi: CLIENTS_PER_API,
    query: `league=<rotating>&${SSE_QUERY}`,
    connected: opened.reduce((sum, one) => sum + one.connected, 0),
    failed: opened.reduce((sum, one) => sum + one.failed, 0),
    connectSeconds,
    seconds: SECONDS,
    chunks: latency.total,
    priceEventsReceived: reports.reduce((sum, report) => sum + report.events, 0),
    closedByServer: reports.reduce((sum, report) => sum + report.closed, 0),
    leaderReceiptToClientP50Ms: latency.percentile(50),
    leaderReceiptToClientP99Ms: latency.percentile(99),
    leaderReceiptToClientMaxMs: latency.max,
    apiFollowers: await Promise.all(apis.map(snapshotLag)),
    cpuCores: { ingest: cpu[0], api: cpu.slice(1) },
  };
  console.dir(results.streams, { depth: null });
  for (const child of children.splice(0)) child.send({ type: 'close' });

  // 3. Bootstrap: a new api instance replays the retained stream before it is ready.
  if (process.env.BENCH_CLUSTER_BOOTSTRAP !== 'false') {
    const redis = new Redis(REDIS_URL);
    const streamKey = `${tag}:cluster:changes`;
    const oldestAge = async () => {
      const first = await redis.lindex(`${tag}:cluster:fulls`, 0);
      return first === null ? 0 : Date.now() - Number(first.split('-')[0]);
    };
    while ((await oldestAge()) < 120_000) await new Promise((resolve) => setTimeout(resolve, 1_000));
    const replayFromAgeMs = await oldestAge();
    const entries = await redis.xlen(streamKey);
    const bytes = Number(await redis.call('MEMORY', 'USAGE', streamKey, 'SAMPLES', '0'));
    redis.disconnect();
    const startedAt = Date.now();
    const late = await startServer(PORT + 4, { ...cluster, ROLE: 'api', INSTANCE_ID: 'bench-api-late' });
    try {
      await waitReady(late);
      results.bootstrap = {
        replayFromAgeMs,
        streamEntries: entries,
        streamMegabytes: Number((bytes / 1024 ** 2).toFixed(1)),
        readyAfterMs: Date.now() - startedAt,
        cpuSeconds: cpuSeconds(late.process.pid!),
        follower: await snapshotLag(late),
      };
      console.dir(results.bootstrap, { depth: null });
    } finally {
      await late.stop();
    }
  }
} finally {
  for (const child of children) child.send({ type: 'close' });
  await Promise.all([ingest, ...apis].map((server) => server.stop()));
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`);
  await client.end();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${tag}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
}
results.loadAfter = loadavg().map((load) => Number(load.toFixed(2)));
const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'cluster.json'), `${JSON.stringify(results, null, 2)}\n`);
