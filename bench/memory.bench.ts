// Idle memory of the embedded default (docs/decisions/008). Writes bench/results/memory.json.
// Starts the server exactly as `npm start` does (package.json's `start` script, run by the shell with `exec`, so that the
// measured process is the server's own: scripts/start.sh, which sets glibc's allocator and runs scripts/start.mjs,
// which builds first when the build is missing or stale) on a fresh DATA_DIR, with the market simulator running and no client, and samples the process's
// resident set (VmRSS) every 10 s for BENCH_MEMORY_SECONDS (default 600), and the CPU time the process used. The aims:
// under 600 MB after 60 s and under 500 MB after 10 minutes (decision 008), at most 450 MB at 600 s (issue 37). To
// compare without scripts/start.sh's allocator settings in one sitting, give the server a tunable that changes nothing:
// `GLIBC_TUNABLES=glibc.malloc.check=0 npm run bench -- memory`. With DATABASE_URL set it measures PostgreSQL mode instead (the server's own
// process; PostgreSQL's memory is its own). Run it with nothing else on the machine.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { memoryMB, sleep, startLikeNpmStart } from './lib/npm-start.ts';

const PORT = Number(process.env.BENCH_MEMORY_PORT ?? 4500);
const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 600);
const SAMPLE_MS = 10_000;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** User and system CPU seconds of a process so far (/proc/<pid>/stat, in clock ticks of 1/100 s on Linux). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const server = await startLikeNpmStart(PORT, 'memory');
const { child, mode } = server;

try {
  const started = Date.now();
  const samples: { seconds: number; rssMB: number }[] = [];
  while (Date.now() - started < SECONDS * 1000) {
    await sleep(SAMPLE_MS);
    const seconds = Math.round((Date.now() - started) / 1000);
    samples.push({ seconds, rssMB: memoryMB(child.pid!, 'VmRSS') });
    console.log(`${mode} t=${seconds}s rss=${samples.at(-1)!.rssMB} MB`);
  }
  const at = (seconds: number) => samples.find((sample) => sample.seconds >= seconds)?.rssMB ?? null;
  const result = {
    mode,
    seconds: SECONDS,
    rssAt60sMB: at(60),
    rssAtEndMB: samples.at(-1)?.rssMB ?? null,
    peakRssMB: memoryMB(child.pid!, 'VmHWM'),
    maxSampleMB: Math.max(...samples.map((sample) => sample.rssMB)),
    cpuSeconds: cpuSeconds(child.pid!),
    glibcTunables: process.env.GLIBC_TUNABLES ?? null,
    samples,
  };
  console.log(
    `${mode}: RSS ${result.rssAt60sMB} MB after 60 s (aim < 600), ${result.rssAtEndMB} MB after ${SECONDS} s` +
      ` (aims: < 500, and ≤ 450 at 600 s), largest sample ${result.maxSampleMB} MB, peak ${result.peakRssMB} MB,` +
      ` ${result.cpuSeconds} CPU-s`,
  );
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, `bench/results/memory-${mode}.json`), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await server.stop();
}
