// Feed benchmark (docs/decisions/040-044, 136): requests per second for GET /tools/arbs.json on the real server (a
// deterministic 200-arb feed from a replay file, gzip) against nginx serving the very same gzip bytes from a file, same
// autocannon settings (50 connections, as issue 17 measures; BENCH_FEED_CONNECTIONS to change), on loopback; then the
// 304 path (If-None-Match) on both. The targets take turns in slices (BENCH_FEED_ROUNDS, default 5 × 2 s each), so the
// load others put on the shared machine weighs on all alike; reported as ratios, with the load average before and
// after. nginx is measured twice: as configured since the bench began (Cache-Control only: 9 header lines against the
// server's 21), and also sending the server's own header lines (helmet's, Vary, Cache-Control), since the client's
// work per answer grows with them (decision 136). A bare node:http server writing the server's header lines and bytes
// (no framework, no app) is measured beside them: what any answer from Node costs here.
// nginx runs as our own process (one worker, like Node's one thread) with a temp config, and is killed after.
// BENCH_FEED_SOURCE=simulator runs the server as `npm start` does (its market simulator quoting, the odds history
// writing, props included) instead of the static replay: issue 59's measure of the feed while the server does its
// background work. nginx then serves one snapshot of the server's gzip bytes, and the server's own feed keeps changing
// (each answer is whatever the latest tick published, as a visitor gets it).
// Each target's figures also hold the CPU its process(es) spent per answer (every thread, from /proc) and the cores the
// load generator (autocannon, in this process) used meanwhile: the load generator costs several times what any of
// the servers does per answer, so the requests a second mostly measure what the server leaves it (decision 280).
// Two diagnostics (decision 314): BENCH_FEED_SERVER_B_ENV (JSON) runs a second app server with that extra environment
// in the same rounds, so two settings are compared side by side rather than run after run (the same code reads
// 0.85-0.96 of nginx from one run to the next); BENCH_FEED_BURN=<share of a core> adds two bare servers doing synthetic
// background work of that size on their main thread and in a worker thread (BENCH_FEED_BURN_ALLOC=1: allocating over
// a ~100 MB heap, as the app's background does), to tell what such work costs any Node server here.
// Writes bench/results/feed.json (feed-simulator.json in simulator mode).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { simulatedLinks } from '#engine/sources/links.ts';
import { TEAMS } from '#engine/sources/teams.ts';
import { cpuSeconds, startServer } from './lib/server.ts';

const NODE_PORT = Number(process.env.BENCH_FEED_PORT ?? 4101);
const NGINX_PORT = Number(process.env.BENCH_FEED_NGINX_PORT ?? 4102);
const NGINX_SAME_PORT = NGINX_PORT + 1;
const BARE_NODE_PORT = NGINX_PORT + 2;
/** The server's default KEEP_ALIVE_TIMEOUT_MS, for the bare node server's Keep-Alive line. */
const KEEP_ALIVE_MS = 10_000;
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
const ROUNDS = Number(process.env.BENCH_FEED_ROUNDS ?? 5);
const SOURCE = process.env.BENCH_FEED_SOURCE ?? 'replay';
if (SOURCE !== 'replay' && SOURCE !== 'simulator')
  throw new Error(`BENCH_FEED_SOURCE must be replay or simulator, not ${SOURCE}`);
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
    // Edges of 0.24–0.95 %: the public feed shows arbs up to the free tier's 1 % edge in real time and only counts the
    // rest (decision 212's free row), so larger edges would leave the feed with fewer than ARBS arbs.
    const american = [105 + (i % 3), -103 - (i % 2)];
    (['away', 'home'] as const).forEach((outcome, side) => {
      const links = simulatedLinks(pair[side]!);
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

interface Target {
  url: string;
  headers: Record<string, string>;
  /** The processes answering it (all their threads), for the CPU they spend per answer. */
  pids: number[];
}

/**
 * Loads the targets in turn, ROUNDS slices of duration/ROUNDS seconds each (server, nginx, …, server, nginx, …), so
 * that the load others put on the shared machine weighs on every target alike; the totals are summed over the slices
 * (p99: the highest of the slices').
 */
interface Measured {
  requestsPerSecond: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  throughputMBps: number;
  /** CPU (user + system, every thread of the answering processes) per answer, µs; from /proc, 10 ms ticks. */
  serverCpuUsPerRequest: number;
  /** That CPU over the slices' wall time: the share of one core the target used. */
  serverCores: number;
  /** The load generator's own CPU (this process: autocannon) over the same wall time. */
  clientCores: number;
  /**
   * The load generator's CPU per answer, µs. With it saturated (clientCores ~1), answers a second are one core over
   * this: a target that makes the client's work per answer dearer reads slower however fast it answers (decision 314).
   */
  clientCpuUsPerRequest: number;
  /** The app server's process over the same wall time (during other targets' slices: its background work alone). */
  appServerCores: number;
}

async function cannonRounds(targets: Target[], appServerPid: number): Promise<Measured[]> {
  const totals = targets.map(() => ({
    requests: 0,
    seconds: 0,
    bytes: 0,
    p99: 0,
    non2xx: 0,
    errors: 0,
    serverCpu: 0,
    clientCpu: 0,
    appServerCpu: 0,
  }));
  const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const clientCpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  const seconds = SETTINGS.duration / ROUNDS;
  for (const target of targets) console.log(`autocannon ${target.url} ${JSON.stringify(target.headers)}`);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, { url, headers, pids }] of targets.entries()) {
      const [serverBefore, clientBefore, appBefore] = [cpuOf(pids), clientCpu(), cpuSeconds(appServerPid)];
      const result = await autocannon({ url, headers, ...SETTINGS, duration: seconds });
      const total = totals[index]!;
      total.serverCpu += cpuOf(pids) - serverBefore;
      total.clientCpu += clientCpu() - clientBefore;
      total.appServerCpu += cpuSeconds(appServerPid) - appBefore;
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.bytes += result.throughput.total;
      total.p99 = Math.max(total.p99, result.latency.p99);
      total.non2xx += result.non2xx;
      total.errors += result.errors;
    }
  }
  return totals.map((total) => ({
    requestsPerSecond: Math.round(total.requests / total.seconds),
    latencyP99Ms: total.p99,
    non2xx: total.non2xx,
    errors: total.errors,
    throughputMBps: Number((total.bytes / total.seconds / 1e6).toFixed(1)),
    serverCpuUsPerRequest: Math.round((total.serverCpu / total.requests) * 1e6),
    serverCores: Number((total.serverCpu / total.seconds).toFixed(2)),
    clientCores: Number((total.clientCpu / total.seconds).toFixed(2)),
    clientCpuUsPerRequest: Math.round((total.clientCpu / total.requests) * 1e6),
    appServerCores: Number((total.appServerCpu / total.seconds).toFixed(2)),
  }));
}

/** Waits (5 s at most) until `url` answers 200; throws `failure` with the last status otherwise. */
async function untilServed(url: string, failure: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (attempt > 50) throw new Error(`${failure} (status ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// BENCH_FEED_SERVER_ENV: extra environment for the server only, as JSON (e.g. {"NODE_OPTIONS":"--max-semi-space-size=64"}
// or {"HEAP_GROWTH_PCT":"0"}), to compare settings run after run.
const serverEnv = JSON.parse(process.env.BENCH_FEED_SERVER_ENV ?? '{}') as Record<string, string>;
const server = await startServer(NODE_PORT, {
  ...(SOURCE === 'simulator' ? { ODDS_SOURCE: 'simulator' } : { ODDS_SOURCE: `replay:${replayFile()}` }),
  ...serverEnv,
});
// BENCH_FEED_SERVER_B_ENV: a second app server, with this extra environment (JSON), measured in the same rounds as
// the first: settings compared side by side within one run, where run-to-run spread is larger than most effects.
const serverBEnv = process.env.BENCH_FEED_SERVER_B_ENV
  ? (JSON.parse(process.env.BENCH_FEED_SERVER_B_ENV) as Record<string, string>)
  : null;
const serverB = serverBEnv
  ? await startServer(NODE_PORT + 10, {
      ...(SOURCE === 'simulator' ? { ODDS_SOURCE: 'simulator' } : { ODDS_SOURCE: `replay:${replayFile()}` }),
      ...serverBEnv,
    })
  : null;
// BENCH_FEED_BURN=<share of a core>: two more bare servers with synthetic background work (bench/lib/feed-burn.cjs)
// on their main thread and in a worker thread; BENCH_FEED_BURN_ALLOC=1 makes that work allocate over a large heap.
// They tell what background work of that size costs any Node server's ratio (decision 314).
const BURN = process.env.BENCH_FEED_BURN ?? '';
const BURN_ALLOC = process.env.BENCH_FEED_BURN_ALLOC === '1';
let nginx: ReturnType<typeof spawn> | null = null;
let bareNode: ReturnType<typeof spawn> | null = null;
const burners: ReturnType<typeof spawn>[] = [];
try {
  const feedUrl = `${server.origin}/tools/arbs.json`;
  if (SOURCE === 'simulator') {
    // Past the start's own work (the first boards, the history's first blocks), as a server that has been up a while.
    const warmup = Number(process.env.BENCH_FEED_WARMUP_S ?? 60);
    console.log(`simulator: waiting ${warmup} s before measuring`);
    await new Promise((resolve) => setTimeout(resolve, warmup * 1000));
  }
  const plain = await fetch(feedUrl, { headers: { 'accept-encoding': 'identity' } });
  const feed = ArbFeedSchema.parse(await plain.json());
  if (SOURCE === 'replay' && feed.arbs.length !== ARBS)
    throw new Error(`expected ${ARBS} arbs, got ${feed.arbs.length}`);
  // The exact gzip bytes the server sends (fetch would decompress them).
  const raw = await new Promise<{ body: Buffer; etag: string; rawHeaders: string[] }>((resolve, reject) => {
    get(feedUrl, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          body: Buffer.concat(chunks),
          etag: String(response.headers.etag),
          rawHeaders: response.rawHeaders,
        }),
      );
    }).on('error', reject);
  });
  // The server's header lines that nginx does not write itself, for the "same headers" nginx.
  const nginxOwn = new Set([
    'content-type',
    'content-length',
    'content-encoding',
    'etag',
    'last-modified',
    'date',
    'connection',
    'keep-alive',
    'transfer-encoding',
  ]);
  const sameHeaders: string[] = [];
  for (let i = 0; i < raw.rawHeaders.length; i += 2) {
    const [name, value] = [raw.rawHeaders[i]!, raw.rawHeaders[i + 1]!];
    if (nginxOwn.has(name.toLowerCase())) continue;
    if (/["\\$]/.test(value)) throw new Error(`cannot pass header ${name} to nginx as is`);
    sameHeaders.push(`      add_header ${name} "${value}";`);
  }

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
  server {
    listen 127.0.0.1:${NGINX_SAME_PORT};
    root ${root};
    location = /tools/arbs.json {
      gzip_static on;
      default_type "application/json; charset=utf-8";
${sameHeaders.join('\n')}
    }
  }
}
`,
  );
  nginx = spawn(NGINX, ['-c', config, '-p', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
  // The floor of any Node answer: a bare node:http server writing the server's own 200 and 304 header lines and bytes.
  const notModifiedHeaders = await new Promise<string[]>((resolve, reject) => {
    get(feedUrl, { headers: { 'accept-encoding': 'gzip', 'if-none-match': raw.etag } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.rawHeaders));
    }).on('error', reject);
  });
  const nodeOwn = new Set(['date', 'connection', 'keep-alive']);
  const headerPairs = (rawHeaders: string[]) => {
    const out: string[] = [];
    for (let i = 0; i < rawHeaders.length; i += 2)
      if (!nodeOwn.has(rawHeaders[i]!.toLowerCase())) out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
    return out;
  };
  const bareScript = `
    const { createServer } = require('node:http');
    const { readFileSync } = require('node:fs');
    const [ok, notModified, etag, file, port] = JSON.parse(process.argv[1]);
    const body = readFileSync(file);
    const server = createServer((req, res) => {
      if (req.headers['if-none-match'] === etag) { res.writeHead(304, notModified); res.end(); return; }
      res.writeHead(200, ok);
      res.end(body);
    });
    server.keepAliveTimeout = ${KEEP_ALIVE_MS};
    server.listen(port, '127.0.0.1');
    const burn = process.env.BURN_WHERE;
    if (burn) {
      const code = readFileSync(process.env.BURN_FILE, 'utf8');
      if (burn === 'main') (0, eval)(code);
      else new (require('node:worker_threads').Worker)(code, { eval: true });
    }
    process.on('SIGTERM', () => process.exit(0));`;
  const bareArgs = (port: number) => [
    '-e',
    bareScript,
    JSON.stringify([
      headerPairs(raw.rawHeaders),
      headerPairs(notModifiedHeaders),
      raw.etag,
      path.join(root, 'tools', 'arbs.json.gz'),
      port,
    ]),
  ];
  bareNode = spawn(process.execPath, bareArgs(BARE_NODE_PORT), { stdio: ['ignore', 'inherit', 'inherit'] });
  const nginxUrl = `http://127.0.0.1:${NGINX_PORT}/tools/arbs.json`;
  await untilServed(nginxUrl, `nginx did not serve the feed; see ${dir}/error.log`);
  const bareNodeUrl = `http://127.0.0.1:${BARE_NODE_PORT}/tools/arbs.json`;
  await untilServed(bareNodeUrl, 'the bare node server did not answer');
  const nginxEtag =
    (await fetch(nginxUrl, { headers: { 'accept-encoding': 'gzip' } })).headers.get('etag') ?? '';
  const nginxSameUrl = `http://127.0.0.1:${NGINX_SAME_PORT}/tools/arbs.json`;
  const headerLines = async (url: string) =>
    [...(await fetch(url, { headers: { 'accept-encoding': 'gzip' } })).headers.keys()].length;
  const lines = {
    server: await headerLines(feedUrl),
    nginx: await headerLines(nginxUrl),
    nginxSameHeaders: await headerLines(nginxSameUrl),
  };
  console.log(`header lines (fetch's view): ${JSON.stringify(lines)}`);

  const gzip = { 'accept-encoding': 'gzip' };
  // nginx's worker (the master only forks and waits), the server's and the bare server's processes.
  const nginxPids = readFileSync(`/proc/${nginx.pid}/task/${nginx.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  const serverPids = [server.process.pid!];
  const barePids = [bareNode.pid!];
  const burnFile = path.join(path.dirname(new URL(import.meta.url).pathname), 'lib', 'feed-burn.cjs');
  const burnTargets: Target[] = [];
  for (const [i, where] of (BURN ? ['main', 'worker'] : []).entries()) {
    const port = BARE_NODE_PORT + 1 + i;
    const child = spawn(process.execPath, bareArgs(port), {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        BURN_WHERE: where,
        BURN_CORES: BURN,
        BURN_ALLOC: BURN_ALLOC ? '1' : '',
        BURN_FILE: burnFile,
      },
    });
    burners.push(child);
    const url = `http://127.0.0.1:${port}/tools/arbs.json`;
    await untilServed(url, `the bare server with a background on its ${where} thread did not answer`);
    burnTargets.push({ url, headers: { 'accept-encoding': 'gzip' }, pids: [child.pid!] });
  }
  const [nodeGzip, nginxGzip, nginxSameGzip, bareGzip, ...extraGzip] = (await cannonRounds(
    [
      { url: `${feedUrl}?t=1`, headers: gzip, pids: serverPids },
      { url: nginxUrl, headers: gzip, pids: nginxPids },
      { url: nginxSameUrl, headers: gzip, pids: nginxPids },
      { url: bareNodeUrl, headers: gzip, pids: barePids },
      ...burnTargets,
      ...(serverB
        ? [{ url: `${serverB.origin}/tools/arbs.json?t=1`, headers: gzip, pids: [serverB.process.pid!] }]
        : []),
    ],
    server.process.pid!,
  )) as [Measured, Measured, Measured, Measured, ...Measured[]];
  const [burnMainGzip, burnWorkerGzip] = BURN ? extraGzip : [];
  const serverBGzip = serverB ? extraGzip.at(-1) : undefined;
  // With the simulator the feed's ETag moves with every published tick, so the server's "304" slices would be mostly
  // 200s: the conditional path is measured on the replay only (its figures are then reported as null).
  const conditional = SOURCE === 'replay';
  const [node304, nginx304, nginxSame304, bare304] = (await cannonRounds(
    conditional
      ? [
          { url: `${feedUrl}?t=1`, headers: { ...gzip, 'if-none-match': raw.etag }, pids: serverPids },
          { url: nginxUrl, headers: { ...gzip, 'if-none-match': nginxEtag }, pids: nginxPids },
          { url: nginxSameUrl, headers: { ...gzip, 'if-none-match': nginxEtag }, pids: nginxPids },
          { url: bareNodeUrl, headers: { ...gzip, 'if-none-match': raw.etag }, pids: barePids },
        ]
      : [],
    server.process.pid!,
  )) as [Measured?, Measured?, Measured?, Measured?];
  const ratio = (a: Measured | undefined, b: Measured | undefined) =>
    a && b ? Number((a.requestsPerSecond / b.requestsPerSecond).toFixed(2)) : null;
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    settings: { ...SETTINGS, rounds: ROUNDS },
    loadAverage: { before: loadBefore, after: loadavg().map((load) => Number(load.toFixed(2))) },
    source: SOURCE,
    serverEnv,
    arbs: feed.arbs.length,
    bodyBytes: Buffer.byteLength(JSON.stringify(feed)),
    gzipBytes: raw.body.length,
    server: { gzip: nodeGzip, notModified: node304 ?? null },
    nginx: { gzip: nginxGzip, notModified: nginx304 ?? null },
    nginxSameHeaders: { gzip: nginxSameGzip, notModified: nginxSame304 ?? null },
    bareNode: { gzip: bareGzip, notModified: bare304 ?? null },
    headerLines: lines,
    ratioGzip: ratio(nodeGzip, nginxGzip),
    ratio304: ratio(node304, nginx304),
    ratioGzipSameHeaders: ratio(nodeGzip, nginxSameGzip),
    ratio304SameHeaders: ratio(node304, nginxSame304),
    bareNodeRatioGzip: ratio(bareGzip, nginxGzip),
    bareNodeRatio304: ratio(bare304, nginx304),
    server304OverGzip: ratio(node304, nodeGzip),
    // The server's background work (simulator, history) while the others were loaded, and its CPU per feed answer
    // beyond it: what answering costs it, set beside nginx's and the bare server's serverCpuUsPerRequest.
    serverBackgroundCores: Number(
      ((nginxGzip.appServerCores + nginxSameGzip.appServerCores + bareGzip.appServerCores) / 3).toFixed(2),
    ),
    serverAnswerCpuUsPerRequest: Math.round(
      ((nodeGzip.serverCores -
        (nginxGzip.appServerCores + nginxSameGzip.appServerCores + bareGzip.appServerCores) / 3) /
        nodeGzip.requestsPerSecond) *
        1e6,
    ),
    // Side by side (BENCH_FEED_SERVER_B_ENV): the second server with its own settings, and its answers a second over
    // the first's in the same rounds.
    ...(serverB && serverBGzip
      ? {
          serverB: { env: serverBEnv, gzip: serverBGzip },
          serverBOverServerGzip: ratio(serverBGzip, nodeGzip),
        }
      : {}),
    // BENCH_FEED_BURN: bare servers with synthetic background work, each over the plain bare server.
    ...(burnMainGzip && burnWorkerGzip
      ? {
          burn: { cores: Number(BURN), alloc: BURN_ALLOC },
          bareWithBackground: { mainThread: burnMainGzip, workerThread: burnWorkerGzip },
          burnMainOverBareGzip: ratio(burnMainGzip, bareGzip),
          burnWorkerOverBareGzip: ratio(burnWorkerGzip, bareGzip),
        }
      : {}),
  };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    `bench/results/${SOURCE === 'simulator' ? 'feed-simulator' : 'feed'}.json`,
    `${JSON.stringify(results, null, 2)}\n`,
  );
} finally {
  for (const child of burners) if (child.exitCode === null) child.kill('SIGTERM');
  if (bareNode && bareNode.exitCode === null) {
    const exited = new Promise((resolve) => bareNode!.once('exit', resolve));
    bareNode.kill('SIGTERM');
    await exited;
  }
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGQUIT');
    await exited;
  }
  await server.stop();
  if (serverB) await serverB.stop();
  rmSync(dir, { recursive: true, force: true });
}
