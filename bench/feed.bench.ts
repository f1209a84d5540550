// Feed benchmark (docs/decisions/040-044): requests per second for GET /tools/arbs.json on the real server (a deterministic
// 200-arb feed from a replay file, gzip) against nginx serving the very same gzip bytes from a file, same autocannon
// settings (50 connections, as issue 17 measures; BENCH_FEED_CONNECTIONS to change), on loopback; then the 304 path
// (If-None-Match) on both. One run each, reported as ratios, with the load average before and after (the machine is
// shared: compare ratios of one run, not req/s across runs).
// nginx runs as our own process (one worker, like Node's one thread) with a temp config, and is killed after.
// Writes bench/results/feed.json.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { simulatedLinks } from '#engine/sources/links.ts';
import { TEAMS } from '#engine/sources/teams.ts';
import { startServer } from './lib/server.ts';

const NODE_PORT = Number(process.env.BENCH_FEED_PORT ?? 4101);
const NGINX_PORT = Number(process.env.BENCH_FEED_NGINX_PORT ?? 4102);
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const ARBS = 200;
// Checked before the server starts: a missing nginx used to crash the bench and leave its server running.
if (!existsSync(NGINX))
  throw new Error(`nginx not found at ${NGINX}: apt-get install nginx, or set NGINX_PATH`);
const SETTINGS = {
  connections: Number(process.env.BENCH_FEED_CONNECTIONS ?? 50),
  duration: Number(process.env.BENCH_FEED_SECONDS ?? 10),
  pipelining: 1,
};
const loadBefore = loadavg().map((load) => Number(load.toFixed(2)));

const dir = mkdtempSync(path.join(tmpdir(), 'sharpline-feed-bench-'));
chmodSync(dir, 0o755); // nginx workers run as an unprivileged user and must read the root below

/** A replay file yielding exactly ARBS moneyline arbs (two books each, links as the books shape them). */
function replayFile(): string {
  const leagues = ['nba', 'nfl', 'mlb', 'nhl', 'ncaab'] as const;
  const books = [
    'fanduel',
    'draftkings',
    'betmgm',
    'caesars',
    'betrivers',
    'bodog',
    'espn',
    'fanatics',
  ] as const;
  const lines = [JSON.stringify({ replay: 1, keepalive: true, loop: false })];
  for (let i = 0; i < ARBS; i += 1) {
    const league = leagues[i % leagues.length]!;
    const teams = TEAMS[league];
    const home = teams[i % teams.length]!;
    const away = teams[(i + 1) % teams.length]!;
    const id = `bench-${i}`;
    lines.push(
      JSON.stringify({
        kind: 'event',
        sourceEventId: id,
        league,
        home: { name: home[0], abbreviation: home[1] },
        away: { name: away[0], abbreviation: away[1] },
        startsIn: (i + 1) * 3_600_000,
        live: i % 4 === 0,
      }),
    );
    const pair = [books[i % books.length]!, books[(i + 3) % books.length]!] as const;
    const american = [140 + (i % 40), -130 - (i % 17)];
    (['away', 'home'] as const).forEach((outcome, side) => {
      const links = simulatedLinks(pair[side]!, {
        league,
        fixture: i,
        market: 0,
        marketType: 'moneyline',
        outcome,
        eventSlug: `${away[0]}-${home[0]}`.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      });
      lines.push(
        JSON.stringify({
          kind: 'price',
          sourceEventId: id,
          book: pair[side],
          market: 'moneyline',
          outcome,
          american: american[side],
          links,
        }),
      );
    });
  }
  const file = path.join(dir, 'feed-200.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function cannon(url: string, headers: Record<string, string>) {
  console.log(`autocannon ${url} ${JSON.stringify(headers)}`);
  const result = await autocannon({ url, headers, ...SETTINGS });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    throughputMBps: Number((result.throughput.average / 1e6).toFixed(1)),
  };
}

const server = await startServer(NODE_PORT, { ODDS_SOURCE: `replay:${replayFile()}` });
let nginx: ReturnType<typeof spawn> | null = null;
try {
  const feedUrl = `${server.origin}/tools/arbs.json`;
  const plain = await fetch(feedUrl, { headers: { 'accept-encoding': 'identity' } });
  const feed = ArbFeedSchema.parse(await plain.json());
  if (feed.arbs.length !== ARBS) throw new Error(`expected ${ARBS} arbs, got ${feed.arbs.length}`);
  // The exact gzip bytes the server sends (fetch would decompress them).
  const raw = await new Promise<{ body: Buffer; etag: string }>((resolve, reject) => {
    get(feedUrl, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ body: Buffer.concat(chunks), etag: String(response.headers.etag) }));
    }).on('error', reject);
  });

  const root = path.join(dir, 'root');
  mkdirSync(path.join(root, 'tools'), { recursive: true });
  writeFileSync(path.join(root, 'tools', 'arbs.json'), JSON.stringify(feed));
  writeFileSync(path.join(root, 'tools', 'arbs.json.gz'), raw.body);
  const tmp = path.join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const config = path.join(dir, 'nginx.conf');
  writeFileSync(
    config,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  server {
    listen 127.0.0.1:${NGINX_PORT};
    root ${root};
    location = /tools/arbs.json {
      gzip_static on;
      default_type "application/json; charset=utf-8";
      add_header Cache-Control no-cache;
    }
  }
}
`,
  );
  nginx = spawn(NGINX, ['-c', config, '-p', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
  const nginxUrl = `http://127.0.0.1:${NGINX_PORT}/tools/arbs.json`;
  for (let attempt = 0; ; attempt += 1) {
    const status = await fetch(nginxUrl).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (attempt > 50)
      throw new Error(`nginx did not serve the feed (status ${status}); see ${dir}/error.log`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const nginxEtag =
    (await fetch(nginxUrl, { headers: { 'accept-encoding': 'gzip' } })).headers.get('etag') ?? '';

  const gzip = { 'accept-encoding': 'gzip' };
  const nodeGzip = await cannon(`${feedUrl}?t=1`, gzip);
  const nginxGzip = await cannon(nginxUrl, gzip);
  const node304 = await cannon(`${feedUrl}?t=1`, { ...gzip, 'if-none-match': raw.etag });
  const nginx304 = await cannon(nginxUrl, { ...gzip, 'if-none-match': nginxEtag });
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    settings: SETTINGS,
    loadAverage: { before: loadBefore, after: loadavg().map((load) => Number(load.toFixed(2))) },
    arbs: ARBS,
    bodyBytes: Buffer.byteLength(JSON.stringify(feed)),
    gzipBytes: raw.body.length,
    server: { gzip: nodeGzip, notModified: node304 },
    nginx: { gzip: nginxGzip, notModified: nginx304 },
    ratioGzip: Number((nodeGzip.requestsPerSecond / nginxGzip.requestsPerSecond).toFixed(2)),
    ratio304: Number((node304.requestsPerSecond / nginx304.requestsPerSecond).toFixed(2)),
    server304OverGzip: Number((node304.requestsPerSecond / nodeGzip.requestsPerSecond).toFixed(2)),
  };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/feed.json', `${JSON.stringify(results, null, 2)}\n`);
} finally {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGQUIT');
    await exited;
  }
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
