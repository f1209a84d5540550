// Paid odds API benchmark (issue 6). Writes bench/results/api.json.
// 1. REST: GET /v1/odds?league=nba with valid Elite keys (auth + quota + serialisation), autocannon on loopback,
//    requests/s and p99, in memory and with Redis (REDIS_URL, default CI's local one), as a ratio to GET
//    /tools/arbs.json on the same server in the same run. Requests rotate over enough Elite keys that none reaches
//    its 250/minute quota (every answer must be a 200).
// 2. Streams: N concurrent SSE clients (BENCH_SSE_CLIENTS, default 5000) on one instance with the market simulator,
//    time from a price update (its `updated_at`, stamped by the engine on receipt) to its arrival at the clients
//    (p50/p99 over every chunk received), and the server's resident memory.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { fixtureBuild, startServer, type RunningServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_API_PORT ?? 4450);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 16);
const SSE_CLIENTS = Number(process.env.BENCH_SSE_CLIENTS ?? 5000);
const SSE_SECONDS = Number(process.env.BENCH_SSE_SECONDS ?? 20);
/** What each stream client asks for, besides its league (the leagues rotate over the clients). */
const SSE_QUERY = process.env.BENCH_SSE_QUERY ?? 'types=price&markets=moneyline,1x2&initial=false';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function waitReady(server: RunningServer) {
  for (;;) {
    const ready = await fetch(`${server.origin}/readyz`).catch(() => null);
    if (ready?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function adminToken(dataDir: string): string {
  return readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
}

async function createKeys(
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

interface RestFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  bytesPerResponse: number;
}

async function cannon(url: string, headers: () => Record<string, string>): Promise<RestFigures> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'accept-encoding': 'identity' },
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
    const keys = await createKeys(server, adminToken(dataDir), 'elite', 400);
    let next = 0;
    const feed = await cannon(`${server.origin}/tools/arbs.json`, () => ({}));
    const key = () => ({ 'x-api-key': keys[(next += 1) % keys.length]! });
    const odds = await cannon(`${server.origin}/v1/odds?league=nba`, key);
    const main = await cannon(
      `${server.origin}/v1/odds?league=nba&main=true&markets=moneyline,spread,total&books=fanduel,draftkings,betmgm`,
      key,
    );
    return {
      backend: label,
      feed,
      odds,
      main,
      ratio: Number((odds.requestsPerSecond / feed.requestsPerSecond).toFixed(3)),
      mainRatio: Number((main.requestsPerSecond / feed.requestsPerSecond).toFixed(3)),
      keys: keys.length,
      requestsSent: next,
    };
  } finally {
    await server.stop();
  }
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function streams() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-bench-sse-'));
  const server = await startServer(PORT + 1, { DATA_DIR: dataDir, BUILD_DIR: fixtureBuild(), SIM_SEED: '7' });
  const pid = server.process.pid!;
  const sockets: http.ClientRequest[] = [];
  try {
    await waitReady(server);
    const rssIdle = rssMb(pid);
    const keys = await createKeys(server, adminToken(dataDir), 'enterprise', Math.ceil(SSE_CLIENTS / 100));
    const leagues = ['nba', 'ncaab', 'nfl', 'mlb', 'nhl', 'epl', 'mls'];
    const latencies: number[] = [];
    let connected = 0;
    let failed = 0;
    let measuring = false;
    let events = 0;
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const open = (index: number) =>
      new Promise<void>((resolve) => {
        const league = leagues[index % leagues.length];
        const request = http.get(
          `${server.origin}/v1/stream?league=${league}&${SSE_QUERY}`,
          { agent, headers: { 'x-api-key': keys[index % keys.length]!, accept: 'text/event-stream' } },
          (response) => {
            if (response.statusCode !== 200) {
              failed += 1;
              response.resume();
              resolve();
              return;
            }
            connected += 1;
            resolve();
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              if (!measuring) return;
              const arrived = Date.now();
              // The newest update in the chunk: its updated_at is when the engine received it.
              let newest = 0;
              let count = 0;
              for (const match of chunk.matchAll(/"updated_at":"([^"]+)"/g)) {
                const time = Date.parse(match[1]!);
                if (time > newest) newest = time;
                count += 1;
              }
              if (newest > 0) {
                latencies.push(arrived - newest);
                events += count;
              }
            });
            response.on('error', () => {});
          },
        );
        request.on('error', () => {
          failed += 1;
          resolve();
        });
        sockets.push(request);
      });
    const started = Date.now();
    for (let index = 0; index < SSE_CLIENTS; index += 200) {
      await Promise.all(
        Array.from({ length: Math.min(200, SSE_CLIENTS - index) }, (_, offset) => open(index + offset)),
      );
    }
    const connectSeconds = (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    measuring = true;
    let rssPeak = rssMb(pid);
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 500);
    await new Promise((resolve) => setTimeout(resolve, SSE_SECONDS * 1000));
    clearInterval(sampler);
    measuring = false;
    latencies.sort((a, b) => a - b);
    return {
      clients: SSE_CLIENTS,
      query: `league=<rotating>&${SSE_QUERY}`,
      connected,
      failed,
      connectSeconds,
      seconds: SSE_SECONDS,
      chunks: latencies.length,
      priceEventsReceived: events,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies[latencies.length - 1] ?? Number.NaN,
      rssIdleMb: rssIdle,
      rssPeakMb: rssPeak,
    };
  } finally {
    for (const socket of sockets) socket.destroy();
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
  console.table(
    restResults.map((result) => ({
      backend: result.backend,
      'feed req/s': result.feed.requestsPerSecond,
      'feed p99': result.feed.p99Ms,
      'odds req/s': result.odds.requestsPerSecond,
      'odds p99': result.odds.p99Ms,
      'odds non2xx': result.odds.non2xx,
      'odds KB': Math.round(result.odds.bytesPerResponse / 1024),
      ratio: result.ratio,
      'main req/s': result.main.requestsPerSecond,
      'main p99': result.main.p99Ms,
      'main non2xx': result.main.non2xx,
      'main KB': Math.round(result.main.bytesPerResponse / 1024),
      'main ratio': result.mainRatio,
    })),
  );
}
if (which === 'all' || which === 'sse') {
  results.streams = await streams();
  console.log(results.streams);
}
const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'api.json'), `${JSON.stringify(results, null, 2)}\n`);
