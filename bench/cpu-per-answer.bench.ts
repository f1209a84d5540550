// CPU per feed answer, by thread (issue 59, decision 280): what answering GET /tools/arbs.json costs the server
// running its simulator, beside a bare node:http server and nginx (one worker) serving the same gzip bytes, measured
// as CPU time (/proc: user + system of each thread) rather than requests a second, so that a loaded machine changes
// the figures less. For each target: a quiet phase (the feed fetched once every 2 s, so the server keeps compressing
// each snapshot as a busy server does, decision 248), then BENCH_FEED_CPU_ANSWERS answers from autocannon (50
// connections), then the quiet phase again; the answers' CPU is the loaded phase's minus the quiet phases' rate.
// The server's threads are grouped as its main thread, V8's platform workers (GC and compilation helpers), libuv's
// pool (zlib) and the rest. BENCH_FEED_SERVER_ENV (JSON) adds environment to the server only.
// Node 20 names no thread, so the groups go by creation order (main, a timer thread, four V8 workers, one more, the
// pool's four). At a low request rate (a loaded machine) the split by thread carries the background's noise (a
// negative figure is that noise); the total is steadier, and nginx's and the bare server's have no background.
// Writes bench/results/cpu-per-answer.json.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { fixtureBuild, startServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_FEED_PORT ?? 4111);
const NGINX_PORT = PORT + 1;
const BARE_PORT = PORT + 2;
const ANSWERS = Number(process.env.BENCH_FEED_CPU_ANSWERS ?? 10_000);
const QUIET_MS = Number(process.env.BENCH_FEED_CPU_QUIET_S ?? 10) * 1000;
const WARMUP_MS = Number(process.env.BENCH_FEED_WARMUP_S ?? 40) * 1000;
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const serverEnv = JSON.parse(process.env.BENCH_FEED_SERVER_ENV ?? '{}') as Record<string, string>;
const loadBefore = loadavg().map((load) => Number(load.toFixed(2)));

/** CPU seconds of each thread of `pid`, by thread id. */
function threadCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** Node's threads in creation order: main, the V8 platform's workers, libuv's pool, others (by Node 20's start-up). */
function groupOf(pid: number, tid: number, order: number[]): string {
  if (tid === pid) return 'main';
  const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
  if (name.startsWith('libuv-worker')) return 'libuv pool';
  if (name.startsWith('V8 DefaultWorke') || name === 'node') {
    // Node 20 names no thread: the four V8 workers are started first, right after the signal-watchdog thread.
    const index = order.indexOf(tid);
    if (index >= 2 && index <= 5) return 'V8 workers';
    if (index >= 7 && index <= 10) return 'libuv pool';
  }
  return 'other';
}

function grouped(
  pid: number,
  before: Map<number, number>,
  after: Map<number, number>,
): Record<string, number> {
  const order = [...after.keys()].sort((a, b) => a - b);
  const out: Record<string, number> = {};
  for (const [tid, cpu] of after) {
    const group = groupOf(pid, tid, order);
    out[group] = (out[group] ?? 0) + cpu - (before.get(tid) ?? 0);
  }
  return out;
}

async function fetchBody(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}

/** A phase of `ms` with the feed fetched every 2 s; the CPU by thread group. */
async function quiet(pid: number, url: string, ms: number) {
  const before = threadCpu(pid);
  const started = Date.now();
  while (Date.now() - started < ms) {
    await fetchBody(url);
    await new Promise((resolve) => setTimeout(resolve, Math.min(2000, ms - (Date.now() - started))));
  }
  return { cpu: grouped(pid, before, threadCpu(pid)), seconds: (Date.now() - started) / 1000 };
}

async function measure(name: string, pid: number, url: string) {
  const first = await quiet(pid, url, QUIET_MS);
  const before = threadCpu(pid);
  const clientBefore = process.cpuUsage();
  const started = Date.now();
  const result = await autocannon({
    url,
    headers: { 'accept-encoding': 'gzip' },
    connections: 50,
    amount: ANSWERS,
  });
  const seconds = (Date.now() - started) / 1000;
  const client = process.cpuUsage(clientBefore);
  const loaded = grouped(pid, before, threadCpu(pid));
  const second = await quiet(pid, url, QUIET_MS);
  const answers = result.requests.total;
  const perAnswer: Record<string, number> = {};
  let total = 0;
  for (const group of new Set([
    ...Object.keys(loaded),
    ...Object.keys(first.cpu),
    ...Object.keys(second.cpu),
  ])) {
    const quietRate = ((first.cpu[group] ?? 0) + (second.cpu[group] ?? 0)) / (first.seconds + second.seconds);
    const us = (((loaded[group] ?? 0) - quietRate * seconds) / answers) * 1e6;
    perAnswer[group] = Math.round(us);
    total += us;
  }
  const quietCores = Object.fromEntries(
    Object.keys(first.cpu).map((group) => [
      group,
      Number(
        (((first.cpu[group] ?? 0) + (second.cpu[group] ?? 0)) / (first.seconds + second.seconds)).toFixed(3),
      ),
    ]),
  );
  const figures = {
    answers,
    non2xx: result.non2xx,
    seconds: Number(seconds.toFixed(1)),
    requestsPerSecond: Math.round(answers / seconds),
    cpuUsPerAnswer: Math.round(total),
    cpuUsPerAnswerByThread: perAnswer,
    quietCores,
    clientCpuUsPerAnswer: Math.round((client.user + client.system) / answers),
  };
  console.log(name, JSON.stringify(figures));
  return figures;
}

const dir = mkdtempSync(path.join(tmpdir(), 'sharpline-cpu-per-answer-'));
chmodSync(dir, 0o755);
const server = await startServer(PORT, { ODDS_SOURCE: 'simulator', BUILD_DIR: fixtureBuild(), ...serverEnv });
let nginx: ReturnType<typeof spawn> | null = null;
let bare: ReturnType<typeof spawn> | null = null;
try {
  const feedUrl = `${server.origin}/tools/arbs.json?t=1`;
  console.log(`simulator: waiting ${WARMUP_MS / 1000} s`);
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
  const body = await fetchBody(feedUrl);
  const root = path.join(dir, 'root');
  mkdirSync(path.join(root, 'tools'), { recursive: true });
  writeFileSync(path.join(root, 'tools', 'arbs.json'), '{}');
  writeFileSync(path.join(root, 'tools', 'arbs.json.gz'), body);
  mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  const temp = (kind: string) => `${kind}_temp_path ${dir}/tmp/${kind};`;
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join(' ')}
  server {
    listen 127.0.0.1:${NGINX_PORT};
    root ${root};
    location = /tools/arbs.json { gzip_static on; default_type "application/json; charset=utf-8"; add_header Cache-Control no-cache; }
  }
}
`,
  );
  nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  bare = spawn(
    process.execPath,
    [
      '-e',
      `const body = require('node:fs').readFileSync(${JSON.stringify(path.join(root, 'tools', 'arbs.json.gz'))});
       require('node:http').createServer((req, res) => {
         res.writeHead(200, ['content-type', 'application/json; charset=utf-8', 'content-encoding', 'gzip', 'cache-control', 'no-cache']);
         res.end(body);
       }).listen(${BARE_PORT}, '127.0.0.1');`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const nginxWorker = Number(
    readFileSync(`/proc/${nginx.pid}/task/${nginx.pid}/children`, 'utf8').trim().split(/\s+/)[0],
  );
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    serverEnv,
    gzipBytes: body.length,
    server: await measure('server', server.process.pid!, feedUrl),
    bareNode: await measure('bare node', bare.pid!, `http://127.0.0.1:${BARE_PORT}/tools/arbs.json`),
    nginx: await measure('nginx', nginxWorker, `http://127.0.0.1:${NGINX_PORT}/tools/arbs.json`),
    loadAverage: { before: loadBefore, after: loadavg().map((load) => Number(load.toFixed(2))) },
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/cpu-per-answer.json', `${JSON.stringify(results, null, 2)}\n`);
} finally {
  bare?.kill('SIGTERM');
  nginx?.kill('SIGQUIT');
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
