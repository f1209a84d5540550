// An in-process memory probe for issue 59's hunts (decision 308): loaded with `NODE_OPTIONS=--import <this file>`,
// it writes one JSON line every PROBE_EVERY_S (default 30) seconds to PROBE_OUT: `process.memoryUsage()`, V8's heap
// spaces (committed / used), and the resident set from /proc/self/smaps by kind of mapping:
//
// - `wasm`: anonymous mappings of 128 MB or more of address space (PGlite's WebAssembly memory: one 128 MB mapping);
// - `v8Pages`: anonymous mappings of exactly 256 KB (V8's heap pages, each mapped on its own);
// - `mallocArenas`: anonymous mappings inside a 64 MB-aligned region whose neighbour is the `---p` rest of it (glibc's
//   per-thread heaps), counted with the `---p` part;
// - `brk`: the `[heap]` mapping (glibc's main arena);
// - `stacks`: `[stack]` and thread stacks (an anonymous mapping right after a 4 KB `---p` guard);
// - `files`: file-backed mappings (the node binary, shared libraries, the build, the data folder's mappings);
// - `otherAnon`: every other anonymous mapping: V8's heap pages (256 KB each, merged when adjacent), its code space,
//   and glibc's mmapped blocks (≥ mmap_threshold), V8's large objects and code.
//
// PROBE_SNAPSHOT_S=<s,…>: also writes a heap snapshot (v8.writeHeapSnapshot) at those seconds after the probe loaded,
// into PROBE_DIR (default the folder of PROBE_OUT). Active only in the process whose PORT is PROBE_PORT. Not part of the server: for the benches' servers only.
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

const out = process.env.PROBE_OUT;
const every = Number(process.env.PROBE_EVERY_S ?? 30) * 1000;
const started = Date.now();

export function smapsKinds(text) {
  const kinds = { wasm: 0, v8Pages: 0, mallocArenas: 0, brk: 0, stacks: 0, files: 0, otherAnon: 0 };
  const maps = [];
  let current = null;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      current = {
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        perms: head[3],
        inode: head[4],
        name: head[5],
        rss: 0,
      };
      maps.push(current);
    } else if (current && line.startsWith('Rss:')) current.rss = Number(line.split(/\s+/)[1]) * 1024;
  }
  const ARENA = 64n * 1024n * 1024n;
  for (let i = 0; i < maps.length; i += 1) {
    const map = maps[i];
    const size = map.end - map.start;
    let kind;
    if (map.name === '[heap]') kind = 'brk';
    else if (map.name === '[stack]') kind = 'stacks';
    else if (map.name.startsWith('/') || map.inode !== '0') kind = 'files';
    else if (map.name.startsWith('[')) kind = 'files';
    else if (
      map.start % ARENA === 0n &&
      maps[i + 1] &&
      maps[i + 1].start === map.end &&
      maps[i + 1].perms.startsWith('---') &&
      maps[i + 1].end - map.start === ARENA
    )
      kind = 'mallocArenas';
    else if (size >= 128n * 1024n * 1024n) kind = 'wasm';
    else if (size === 256n * 1024n) kind = 'v8Pages';
    else if (
      map.perms.startsWith('---') &&
      maps[i - 1] &&
      maps[i - 1].start % ARENA === 0n &&
      map.end - maps[i - 1].start === ARENA
    )
      kind = 'mallocArenas';
    else if (
      maps[i - 1] &&
      maps[i - 1].end === map.start &&
      maps[i - 1].perms.startsWith('---') &&
      maps[i - 1].end - maps[i - 1].start === 4096n
    )
      kind = 'stacks';
    else kind = 'otherAnon';
    kinds[kind] += map.rss;
  }
  const mb = (bytes) => Math.round(bytes / 1e5) / 10;
  return Object.fromEntries(Object.entries(kinds).map(([key, value]) => [key, mb(value)]));
}

function sample() {
  const mb = (bytes) => Math.round(bytes / 1e5) / 10;
  const memory = process.memoryUsage();
  const spaces = Object.fromEntries(
    v8
      .getHeapSpaceStatistics()
      .map((space) => [
        space.space_name.replace(/_space$/, ''),
        [mb(space.physical_space_size), mb(space.space_used_size)],
      ]),
  );
  const v8Committed = mb(
    v8.getHeapSpaceStatistics().reduce((sum, space) => sum + space.physical_space_size, 0),
  );
  let kinds = null;
  try {
    kinds = smapsKinds(readFileSync('/proc/self/smaps', 'utf8'));
  } catch {
    // Not Linux.
  }
  const line = {
    s: Math.round((Date.now() - started) / 1000),
    rss: mb(memory.rss),
    heapTotal: mb(memory.heapTotal),
    heapUsed: mb(memory.heapUsed),
    external: mb(memory.external),
    arrayBuffers: mb(memory.arrayBuffers),
    v8Committed,
    spaces,
    kinds,
  };
  if (out) appendFileSync(out, `${JSON.stringify(line)}\n`);
}

// Only in the server (the bench's own node processes have the same NODE_OPTIONS): PROBE_PORT is the server's PORT.
if (out && process.env.PORT && process.env.PORT === process.env.PROBE_PORT) {
  setInterval(sample, every).unref();
  for (const at of (process.env.PROBE_SNAPSHOT_S ?? '').split(',').filter(Boolean).map(Number)) {
    setTimeout(() => {
      sample();
      const file = path.join(
        process.env.PROBE_DIR ?? path.dirname(out),
        `probe-${process.pid}-${at}.heapsnapshot`,
      );
      v8.writeHeapSnapshot(file);
      appendFileSync(out, `${JSON.stringify({ s: at, snapshot: file })}\n`);
    }, at * 1000).unref();
  }
}

// Experiments (decision 308), in the server only:
// PROBE_PULSE=<on_s>/<period_s>: V8's --optimize-for-size for on_s seconds every period_s seconds (decision 301's
// "the same flag for a few seconds every few minutes").
if (out && process.env.PORT && process.env.PORT === process.env.PROBE_PORT && process.env.PROBE_PULSE) {
  const [onS, periodS] = process.env.PROBE_PULSE.split('/').map(Number);
  setInterval(() => {
    v8.setFlagsFromString('--optimize-for-size');
    setTimeout(() => v8.setFlagsFromString('--no-optimize-for-size'), onS * 1000).unref();
  }, periodS * 1000).unref();
}

// `node scripts/diagnostics/memory-probe.mjs <pid>`: the kinds of another process's resident set, once.
if (process.argv[1]?.endsWith('memory-probe.mjs') && /^\d+$/.test(process.argv[2] ?? '')) {
  console.log(JSON.stringify(smapsKinds(readFileSync(`/proc/${process.argv[2]}/smaps`, 'utf8'))));
}
