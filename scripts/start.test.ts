import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start` runs scripts/start.sh, which sets glibc's allocator for the server and hands over to scripts/start.mjs
// (decision 192). The script is run here as npm runs it, with a `node` on the PATH that prints what it was given
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
  it('runs scripts/start.mjs with at most two malloc arenas and fixed mmap and trim thresholds', () => {
    const [tunables, entry] = start({});
    expect(tunables).toBe(
      'GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072',
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
});
