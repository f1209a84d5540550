import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start` runs scripts/start.sh, which sets glibc's allocator for the server and hands over to scripts/start.mjs
// (decisions 192, 308). The script is run here as npm runs it, with a `node` on the PATH that prints what it was given
// instead of starting the server.

const root = path.resolve(import.meta.dirname, '..');
const bin = mkdtempSync(path.join(tmpdir(), 'sharpline-start-'));
writeFileSync(
  path.join(bin, 'node'),
  '#!/bin/sh\nprintf "%s\\n" "GLIBC_TUNABLES=${GLIBC_TUNABLES-unset}" "$@"\n',
);
chmodSync(path.join(bin, 'node'), 0o755);
afterAll(() => rmSync(bin, { recursive: true, force: true }));

function start(env: Record<string, string>, args: string[] = []): string[] {
  const script = (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    }
  ).scripts.start;
  const out = execFileSync('sh', ['-c', `${script} "$@"`, 'npm-start', ...args], {
    cwd: root,
    env: { PATH: `${bin}:/usr/bin:/bin`, ...env },
    encoding: 'utf8',
  });
  return out.trimEnd().split('\n');
}

describe('npm start', () => {
  it('runs scripts/start.mjs with at most two malloc arenas, 32 KB mmap and trim thresholds and no top padding', () => {
    const [tunables, entry] = start({});
    // Decision 308: blocks of 32 KB (V8's zone segments) mapped on their own rather than left as holes in an arena.
    expect(tunables).toBe(
      'GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=32768:glibc.malloc.trim_threshold=32768:glibc.malloc.top_pad=0',
    );
    expect(path.resolve(root, entry!)).toBe(path.join(root, 'scripts/start.mjs'));
  });

  it("leaves an operator's own GLIBC_TUNABLES as it is, and passes the arguments on", () => {
    expect(start({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' }, ['--flag', 'two words'])).toEqual([
      'GLIBC_TUNABLES=glibc.malloc.arena_max=4',
      expect.stringMatching(/scripts\/start\.mjs$/),
      '--flag',
      'two words',
    ]);
  });

  it('has glibc give back 40 KB blocks once freed, even with smaller ones kept between them (decision 308)', () => {
    // A real node with the tunables start.sh sets: 1,000 Buffers of 40 KB (calloc'd by Node's allocator), each followed
    // by a 1 KB one that stays, then the 40 KB ones freed. Mapped on their own (threshold 32 KB), their 40 MB leave the
    // resident set; carved from the heap (threshold 128 KB), they stay in it as holes between the kept ones.
    const [tunables] = start({});
    const freedMB = (value: string) =>
      Number(
        execFileSync(
          process.execPath,
          [
            '--expose-gc',
            '-e',
            `const rss = () => process.memoryUsage().rss;
             const big = [];
             const small = [];
             for (let i = 0; i < 1000; i += 1) {
               big.push(Buffer.alloc(40 * 1024, 1));
               small.push(Buffer.alloc(1024, 1));
             }
             const full = rss();
             big.length = 0;
             gc();
             gc();
             console.log(Math.round((full - rss()) / 1e6) + small.length * 0);`,
          ],
          { env: { PATH: '/usr/bin:/bin', GLIBC_TUNABLES: value }, encoding: 'utf8' },
        ).trim(),
      );
    expect(freedMB(tunables!.slice('GLIBC_TUNABLES='.length))).toBeGreaterThanOrEqual(35);
    expect(
      freedMB(
        'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072',
      ),
    ).toBeLessThan(10);
  });
});
