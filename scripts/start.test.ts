import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start` runs scripts/start.sh, which sets glibc's allocator (decision 192) and V8's young generation (decision 301)
// for the server and hands over to scripts/start.mjs. The script is run here as npm runs it, with a `node` on the PATH that prints what it was given
// instead of starting the server.

const root = path.resolve(import.meta.dirname, '..');
const bin = mkdtempSync(path.join(tmpdir(), 'sharpline-start-'));
writeFileSync(
  path.join(bin, 'node'),
  '#!/bin/sh\nprintf "%s\\n" "GLIBC_TUNABLES=${GLIBC_TUNABLES-unset}" "NODE_OPTIONS=${NODE_OPTIONS-unset}" "$@"\n',
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
  it('runs scripts/start.mjs with at most two malloc arenas, fixed mmap and trim thresholds and 8 MB semi-spaces', () => {
    const [tunables, nodeOptions, entry, ...rest] = start({});
    expect(tunables).toBe(
      'GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072',
    );
    expect(nodeOptions).toBe('NODE_OPTIONS=--max-semi-space-size=8');
    expect(path.resolve(root, entry!)).toBe(path.join(root, 'scripts/start.mjs'));
    expect(rest).toEqual([]);
  });

  it("leaves an operator's own GLIBC_TUNABLES as it is, and passes the arguments on", () => {
    expect(start({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' }, ['--flag', 'two words'])).toEqual([
      'GLIBC_TUNABLES=glibc.malloc.arena_max=4',
      'NODE_OPTIONS=--max-semi-space-size=8',
      expect.stringMatching(/scripts\/start\.mjs$/),
      '--flag',
      'two words',
    ]);
  });

  it("keeps an operator's own NODE_OPTIONS after the semi-space size, so that theirs win", () => {
    const [, nodeOptions] = start({ NODE_OPTIONS: '--max-semi-space-size=32 --enable-source-maps' });
    expect(nodeOptions).toBe(
      'NODE_OPTIONS=--max-semi-space-size=8 --max-semi-space-size=32 --enable-source-maps',
    );
  });

  it("gives V8 the last of a flag given twice: the operator's semi-space size is the one a server gets", () => {
    const semiSpaceMB = (nodeOptions: string) =>
      Number(
        execFileSync(
          process.execPath,
          [
            '-e',
            // New space is two semi-spaces; filling it past their start size grows them to the maximum.
            "let a = []; for (let i = 0; i < 2e6; i++) a.push({ i }); const s = require('node:v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space'); console.log(s.space_size / 2 / 1048576)",
          ],
          { env: { ...process.env, NODE_OPTIONS: nodeOptions }, encoding: 'utf8' },
        ).trim(),
      );
    expect(semiSpaceMB('--max-semi-space-size=8')).toBe(8);
    expect(semiSpaceMB('--max-semi-space-size=8 --max-semi-space-size=2')).toBe(2);
  });
});
