// Paid odds API benchmark (docs/decisions/080-086). Writes bench/results/api.json.
// 1. REST: GET /v1/odds?league=nba with valid Elite keys (auth + quota + serialisation), autocannon on loopback,
//    requests/s and p99, in memory and with Redis (REDIS_URL, default CI's local one), as a ratio to GET
//    /tools/arbs.json on the same server in the same run; each with `accept-encoding: gzip, br` (as real clients send)
//    and with identity, and the bytes per answer on the wire. Requests rotate over enough Elite keys that none reaches
//    its 250/minute quota (every answer must be a 200).
// 2. Streams: N concurrent SSE clients (BENCH_SSE_CLIENTS, default 5000) on one instance with the market simulator,
//    time from a price update (its `updated_at`, stamped by the engine on receipt) to its arrival at the clients
//    (p50/p99 over every chunk received), and the server's resident memory.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { fixtureBuild, startServer } from './lib/server.ts';
import {
  adminToken,
  ask,
  clientProcess,
  cpuSeconds,
  createKeys,
  mergedLatency,
  rssMb,
  waitReady,
  type ClientReport,
} from './lib/sse-pool.ts';
import { measureWriteFloor } from './lib/write-floor.ts';

const PORT = Number(process.env.BENCH_API_PORT ?? 4450);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 16);
const SSE_CLIENTS = Number(process.env.BENCH_SSE_CLIENTS ?? 5000);
const SSE_SECONDS = Number(process.env.BENCH_SSE_SECONDS ?? 20);
/** Client processes the streams are spread over (bench/lib/sse-clients.ts). */
const SSE_PROCESSES = Number(process.env.BENCH_SSE_PROCESSES ?? 2);
const SSE_CONNECT_TIMEOUT_S = Number(process.env.BENCH_SSE_CONNECT_TIMEOUT ?? 240);
/** What each stream client asks for, besides its league (the leagues rotate over the clients). */
const SSE_QUERY = process.env.BENCH_SSE_QUERY ?? 'types=price&markets=moneyline,1x2&initial=false';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface RestFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  bytesPerResponse: number;
}

/** What a real client sends (curl --compressed, browsers, requests/axios): the server picks br or gzip. */
const COMPRESSED = 'gzip, br';

async function cannon(
  url: string,
  acceptEncoding: string,
  headers: () => Record<string, string>,
): Promise<RestFigures> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'accept-encoding': acceptEncoding },
    requests: [
      { setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...headers() } }) },
    ],
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    bytesPerResponse: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
  };
}

async function rest(label: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-bench-api-'));
  const server = await startServer(PORT, {
    DATA_DIR: dataDir,
    BUILD_DIR: fixtureBuild(),
    SIM_SEED: '7',
    ...env,
  });
  try {
    await waitReady(server);
    // Enough keys that no key reaches 250 requests in a minute at the expected rate.
    const keys = await createKeys(server, adminToken(dataDir), 'elite', 600);
    let next = 0;
    const key = () => ({ 'x-api-key': keys[(next += 1) % keys.length]! });
    const none = () => ({});
    const feedUrl = `${server.origin}/tools/arbs.json`;
    const oddsUrl = `${server.origin}/v1/odds?league=nba`;
    const mainUrl = `${server.origin}/v1/odds?league=nba&main=true&markets=moneyline,spread,total&books=fanduel,draftkings,betmgm`;
    const feed = await cannon(feedUrl, COMPRESSED, none);
    const feedIdentity = await cannon(feedUrl, 'identity', none);
    const odds = await cannon(oddsUrl, COMPRESSED, key);
    const oddsIdentity = await cannon(oddsUrl, 'identity', key);
    const main = await cannon(mainUrl, COMPRESSED, key);
    const mainIdentity = await cannon(mainUrl, 'identity', key);
    const ratio = (figures: RestFigures, to: RestFigures) =>
      Number((figures.requestsPerSecond / to.requestsPerSecond).toFixed(3));
    return {
      backend: label,
      acceptEncoding: COMPRESSED,
      feed,
      feedIdentity,
      odds,
      oddsIdentity,
      main,
      mainIdentity,
      // Each route against the feed measured with the same Accept-Encoding on the same server minutes apart.
      ratio: ratio(odds, feed),
      ratioIdentity: ratio(oddsIdentity, feedIdentity),
      mainRatio: ratio(main, feed),
      mainRatioIdentity: ratio(mainIdentity, feedIdentity),
      keys: keys.length,
      requestsSent: next,
    };
  } finally {
    await server.stop();
  }
}

async function streams() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-bench-sse-'));
  // Each key opens 100 streams at once here: the per-key open rate limit (30 a minute, decision 087) would refuse
  // most of them, and this bench measures delivery, not that limit.
  const server = await startServer(PORT + 1, {
    DATA_DIR: dataDir,
    BUILD_DIR: fixtureBuild(),
    SIM_SEED: '7',
    STREAM_OPENS_PER_MINUTE: '10000',
  });
  const pid = server.process.pid!;
  const children: ChildProcess[] = [];
  try {
    await waitReady(server);
    const rssIdle = rssMb(pid);
    const keys = await createKeys(server, adminToken(dataDir), 'enterprise', Math.ceil(SSE_CLIENTS / 100));
    const leagues = ['nba', 'ncaab', 'nfl', 'mlb', 'nhl', 'epl', 'mls'];
    const started = Date.now();
    const share = Math.ceil(SSE_CLIENTS / SSE_PROCESSES);
    const opening: ReturnType<typeof clientProcess>[] = [];
    const progress: { connected: number }[] = [];
    let lastLog = 0;
    const log = () => {
      if (Date.now() - lastLog < 5000) return;
      lastLog = Date.now();
      const connected = progress.reduce((sum, one) => sum + one.connected, 0);
      console.log(`  ${connected} connected after ${Math.round((Date.now() - started) / 1000)} s`);
    };
    for (let index = 0; index < SSE_PROCESSES; index += 1) {
      const first = index * share;
      const count = Math.max(0, Math.min(share, SSE_CLIENTS - first));
      const counter = { connected: 0 };
      progress.push(counter);
      opening.push(
        clientProcess(
          { origin: server.origin, first, count, keys, leagues, query: SSE_QUERY, concurrency: 100 },
          counter,
          log,
        ),
      );
    }
    const deadline = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), SSE_CONNECT_TIMEOUT_S * 1000).unref(),
    );
    const opened = await Promise.race([Promise.all(opening), deadline]);
    if (opened === 'timeout') throw new Error(`clients not all connected within ${SSE_CONNECT_TIMEOUT_S} s`);
    for (const one of opened) children.push(one.child);
    const connected = opened.reduce((sum, one) => sum + one.connected, 0);
    const failed = opened.reduce((sum, one) => sum + one.failed, 0);
    const connectSeconds = (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssConnected = rssMb(pid);
    for (const child of children) child.send({ type: 'measure' });
    const measureStart = Date.now();
    const cpuBefore = cpuSeconds(pid);
    const clientCpuBefore = children.reduce((sum, child) => sum + cpuSeconds(child.pid!), 0);
    let rssPeak = rssMb(pid);
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 500);
    await new Promise((resolve) => setTimeout(resolve, SSE_SECONDS * 1000));
    clearInterval(sampler);
    const serverCpu = (cpuSeconds(pid) - cpuBefore) / SSE_SECONDS;
    const clientCpu =
      (children.reduce((sum, child) => sum + cpuSeconds(child.pid!), 0) - clientCpuBefore) / SSE_SECONDS;
    const reports = await Promise.all(children.map((child) => ask<ClientReport>(child, 'report', 'report')));
    // The server's own side of the latency (change known → written to every matching socket), without the clients'
    // reading and parsing, which share the machine's 2 cores with the server here.
    const serverSide = (await (
      await fetch(`${server.origin}/admin/streams?since=${measureStart}`, {
        headers: { authorization: `Bearer ${adminToken(dataDir)}` },
      })
    ).json()) as { releases: number; fanoutMs: unknown; deliveryMs: unknown; eventLoop: unknown };
    const latency = mergedLatency(reports);
    const total = latency.total;
    const percentile = latency.percentile;
    return {
      clients: SSE_CLIENTS,
      database: process.env.DATABASE_URL ? 'postgresql' : 'pglite',
      clientProcesses: SSE_PROCESSES,
      query: `league=<rotating>&${SSE_QUERY}`,
      connected,
      failed,
      connectSeconds,
      seconds: SSE_SECONDS,
      chunks: total,
      priceEventsReceived: reports.reduce((sum, report) => sum + report.events, 0),
      p50Ms: percentile(50),
      p99Ms: percentile(99),
      maxMs: latency.max,
      serverReleases: serverSide.releases,
      serverFanoutMs: serverSide.fanoutMs,
      serverDeliveryMs: serverSide.deliveryMs,
      // How late the server's event loop ran while measuring (a 5 ms timer's lateness; max = longest stall).
      serverEventLoop: serverSide.eventLoop,
      rssIdleMb: rssIdle,
      rssConnectedMb: rssConnected,
      rssPeakMb: rssPeak,
      serverCpuCores: Number(serverCpu.toFixed(2)),
      clientCpuCores: Number(clientCpu.toFixed(2)),
      closedByServer: reports.reduce((sum, report) => sum + report.closed, 0),
    };
  } finally {
    for (const child of children) child.send({ type: 'close' });
    await server.stop();
  }
}

async function redisReachable(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const which = process.env.BENCH_API_PART ?? 'all';
const results: Record<string, unknown> = {
  at: new Date().toISOString(),
  load: readFileSync('/proc/loadavg', 'utf8').trim(),
};
if (which === 'all' || which === 'rest') {
  const restResults = [await rest('memory', {})];
  if (await redisReachable()) {
    restResults.push(await rest('redis', { REDIS_URL, REDIS_PREFIX: `bench-${Date.now().toString(36)}:` }));
  }
  results.rest = restResults;
  const row = (backend: string, route: string, encoding: string, figures: RestFigures, ratio: number) => ({
    backend,
    route,
    encoding,
    'req/s': figures.requestsPerSecond,
    'p50 ms': figures.p50Ms,
    'p99 ms': figures.p99Ms,
    non2xx: figures.non2xx,
    'KB/answer': Number((figures.bytesPerResponse / 1024).toFixed(1)),
    'ratio to feed': ratio,
  });
  console.table(
    restResults.flatMap((result) => [
      row(result.backend, 'feed', COMPRESSED, result.feed, 1),
      row(result.backend, 'feed', 'identity', result.feedIdentity, 1),
      row(result.backend, 'odds nba', COMPRESSED, result.odds, result.ratio),
      row(result.backend, 'odds nba', 'identity', result.oddsIdentity, result.ratioIdentity),
      row(result.backend, 'odds main', COMPRESSED, result.main, result.mainRatio),
      row(result.backend, 'odds main', 'identity', result.mainIdentity, result.mainRatioIdentity),
    ]),
  );
}
if (which === 'all' || which === 'sse') {
  results.streams = await streams();
  console.log(results.streams);
  // The same number of sockets written by a bare Node http server: what one release costs at the least, here.
  results.writeFloor = await measureWriteFloor(SSE_CLIENTS);
  console.log('write floor', results.writeFloor);
}
const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'api.json'), `${JSON.stringify(results, null, 2)}\n`);
