// What an idle `npm start` costs (issue 59's aims): CPU of the server's process tree, growth of the data folder, bytes
// of that growth per price change the odds history wrote, the resident set at the end, and how current /readyz's
// `storedBytes` is. Writes bench/results/idle-<mode>.json.
//
// Starts the server exactly as `npm start` does (package.json's `start` script run by `sh -c 'exec …'`, as
// bench/memory.bench.ts), on a fresh DATA_DIR, with the market simulator and no client, and samples every
// BENCH_IDLE_SAMPLE_S (default 10) seconds from the moment /readyz first answers 200:
//
// - CPU: utime + stime of the server process (every thread: /proc/<pid>/stat counts them all), plus cutime + cstime
//   (its children that ended, such as initdb's), plus utime + stime of every live descendant process;
// - the data folder's disk use (allocated blocks of every file under DATA_DIR, as `du`);
// - the history's `writtenChanges` and `storedBytes` (and `storedBytesAt`, when it was measured) from /readyz;
// - VmRSS of the server process.
//
// The window is BENCH_IDLE_FROM_S to BENCH_IDLE_TO_S seconds after ready (default 300 to 600: minutes 5–10). A short
// run while developing: `BENCH_IDLE_FROM_S=60 BENCH_IDLE_TO_S=180 npm run bench -- idle`. The aims (issue 59): CPU at
// most 15 % of a core, growth at most 4 MB a minute and 24 bytes per change written, `storedBytes` at most 60 s old,
// RSS at most 450 MB at 600 s. With DATABASE_URL set it measures PostgreSQL mode (the server's own processes; the data
// folder then holds what PostgreSQL does not: the outbox). Run it with nothing else on the machine.
//
// The simulator's board follows its calendar (decision 293): at 01:00 UTC on a Monday it wrote ~580 changes a second,
// on a Sunday evening ~770, and CPU and RSS follow. So the bench pins the calendar (SIM_START, decision 230) to a busy
// moment of the week, BENCH_IDLE_SIM_START (default IDLE_SIM_START below); `clock` runs it on the wall clock instead.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, lstatSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { memoryMB, sleep, startLikeNpmStart } from './lib/npm-start.ts';

const PORT = Number(process.env.BENCH_IDLE_PORT ?? 4510);
const FROM_S = Number(process.env.BENCH_IDLE_FROM_S ?? 300);
const TO_S = Number(process.env.BENCH_IDLE_TO_S ?? 600);
const SAMPLE_S = Number(process.env.BENCH_IDLE_SAMPLE_S ?? 10);
if (!(FROM_S >= 0 && TO_S > FROM_S && SAMPLE_S > 0))
  throw new Error('BENCH_IDLE_FROM_S must be ≥ 0 and below BENCH_IDLE_TO_S, BENCH_IDLE_SAMPLE_S above 0');
/** A busy moment of the simulator's week (Sunday evening UTC: NFL late games, NBA, NHL, props; docs/benchmarks.md). */
const IDLE_SIM_START = '2026-12-06T21:00:00Z';
const SIM_START = process.env.BENCH_IDLE_SIM_START ?? IDLE_SIM_START;
if (SIM_START !== 'clock') {
  if (Number.isNaN(Date.parse(SIM_START)))
    throw new Error(`BENCH_IDLE_SIM_START must be an ISO 8601 instant or clock, not ${SIM_START}`);
  process.env.SIM_START = SIM_START;
}
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** The fields of /proc/<pid>/stat after the command's name (field 3 on is index 0 on). */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The live descendants of a process (by their parent pid in /proc/<pid>/stat). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    if (!fields) continue;
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const todo = [pid];
  while (todo.length > 0) {
    for (const child of children.get(todo.pop()!) ?? []) {
      out.push(child);
      todo.push(child);
    }
  }
  return out;
}

/** CPU seconds of the process tree so far: the process's threads, its ended children, its live descendants. */
function treeCpuSeconds(pid: number): number {
  const own = statFields(pid);
  if (!own) return Number.NaN;
  // utime, stime, cutime, cstime are fields 14–17 (index 11–14 here).
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const child of descendants(pid)) {
    const fields = statFields(child);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS;
}

/** Disk use of a folder: allocated blocks of every file under it (what `du` counts), in bytes. */
function diskBytes(dir: string): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of entries) {
    const full = path.join(dir, name);
    try {
      const stats = lstatSync(full);
      total += stats.blocks * 512;
      if (stats.isDirectory()) total += diskBytes(full);
    } catch {
      // Removed while walking (a temporary file): not counted.
    }
  }
  return total;
}

interface HistoryDetails {
  writtenChanges?: number;
  storedBytes?: number | null;
  storedBytesAt?: string | null;
}

async function history(): Promise<HistoryDetails> {
  const answer = await fetch(`http://127.0.0.1:${PORT}/readyz`).catch(() => null);
  if (!answer) return {};
  const body = (await answer.json().catch(() => ({}))) as {
    checks?: { history?: { details?: HistoryDetails } };
  };
  return body.checks?.history?.details ?? {};
}

interface Sample {
  seconds: number;
  cpuSeconds: number;
  dataBytes: number;
  /** Of which the embedded database's write-ahead log (pg_wal). */
  walBytes: number;
  rssMB: number;
  writtenChanges: number | null;
  storedBytes: number | null;
  /** How old `storedBytes` was at the sample (s): from `storedBytesAt`, or since it last changed. */
  storedBytesAgeS: number | null;
}

const server = await startLikeNpmStart(PORT, 'idle');
const { child, dataDir, mode } = server;

try {
  const pid = child.pid!;
  const started = Date.now();
  const samples: Sample[] = [];
  let lastStored: { bytes: number | null; since: number } | null = null;
  for (let next = 0; next <= TO_S; next += SAMPLE_S) {
    await sleep(Math.max(0, started + next * 1000 - Date.now()));
    const now = Date.now();
    const details = await history();
    const stored = details.storedBytes ?? null;
    if (!lastStored || lastStored.bytes !== stored) lastStored = { bytes: stored, since: now };
    const age = details.storedBytesAt
      ? (now - Date.parse(details.storedBytesAt)) / 1000
      : (now - lastStored.since) / 1000;
    const sample: Sample = {
      seconds: Math.round((now - started) / 1000),
      cpuSeconds: treeCpuSeconds(pid),
      dataBytes: diskBytes(dataDir),
      walBytes: diskBytes(path.join(process.env.PGLITE_DIR ?? path.join(dataDir, 'pglite'), 'pg_wal')),
      rssMB: memoryMB(pid, 'VmRSS'),
      writtenChanges: details.writtenChanges ?? null,
      storedBytes: stored,
      storedBytesAgeS: Math.round(age),
    };
    samples.push(sample);
    console.log(
      `${mode} t=${sample.seconds}s cpu=${sample.cpuSeconds.toFixed(1)}s data=${(sample.dataBytes / 1e6).toFixed(1)} MB` +
        ` (wal ${(sample.walBytes / 1e6).toFixed(1)} MB)` +
        ` rss=${sample.rssMB} MB written=${sample.writtenChanges} storedBytes=${sample.storedBytes}` +
        ` (${sample.storedBytesAgeS} s old)`,
    );
  }
  const first = samples.find((sample) => sample.seconds >= FROM_S)!;
  const last = samples.at(-1)!;
  const windowS = last.seconds - first.seconds;
  const changes =
    last.writtenChanges !== null && first.writtenChanges !== null
      ? last.writtenChanges - first.writtenChanges
      : null;
  const growth = last.dataBytes - first.dataBytes;
  const inWindow = samples.filter((sample) => sample.seconds >= FROM_S);
  const result = {
    mode,
    fromS: first.seconds,
    toS: last.seconds,
    cpuPctOfCore: Math.round(((last.cpuSeconds - first.cpuSeconds) / windowS) * 1000) / 10,
    dataGrowthMBPerMinute: Math.round((growth / 1e6 / (windowS / 60)) * 100) / 100,
    changesWritten: changes,
    changesPerSecond: changes === null ? null : Math.round(changes / windowS),
    bytesPerChange: changes ? Math.round((growth / changes) * 10) / 10 : null,
    rssAtEndMB: last.rssMB,
    dataBytesAtEnd: last.dataBytes,
    walBytesAtEnd: last.walBytes,
    storedBytesAtEnd: last.storedBytes,
    storedBytesMaxAgeS: Math.max(
      ...inWindow.map((sample) => sample.storedBytesAgeS ?? Number.POSITIVE_INFINITY),
    ),
    simStart: SIM_START,
    loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
    glibcTunables: process.env.GLIBC_TUNABLES ?? null,
    samples,
  };
  console.log(
    `${mode}, ${result.fromS}–${result.toS} s after ready: CPU ${result.cpuPctOfCore} % of a core (aim ≤ 15),` +
      ` data folder +${result.dataGrowthMBPerMinute} MB a minute (aim ≤ 4), ${result.changesWritten} changes written` +
      ` (${result.changesPerSecond}/s), ${result.bytesPerChange} bytes per change (aim ≤ 24), RSS ${result.rssAtEndMB} MB` +
      ` at ${result.toS} s (aim ≤ 450 at 600 s), storedBytes at most ${result.storedBytesMaxAgeS} s old (aim ≤ 60);` +
      ` calendar from ${SIM_START}; load average ${result.loadAverage.join(' ')}`,
  );
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, `bench/results/idle-${mode}.json`), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await server.stop();
}
