import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { heapGrowth } from './heap-growth.ts';

// Decisions 294, 301 and 313: the flags the server gives V8 at start and as the public feed's demand comes and goes.

/**
 * Runs `body` in a node process of its own (V8's flags are process-wide) after `heapGrowth(config)` and returns the
 * number it prints. `heapGrowth`'s result is `onFeedWanted` there.
 */
function inOwnProcess(config: string, body: string): number {
  const script = `
    const { heapGrowth } = await import(${JSON.stringify(path.join(import.meta.dirname, 'heap-growth.ts'))});
    const onFeedWanted = heapGrowth(${config});
    ${body}`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '--max-semi-space-size=16' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return Number(out.trim());
}

/** V8's own behaviour but for the allowances: the settings each test below changes. */
const SETTINGS = {
  HEAP_GROWTH_PCT: 10,
  HEAP_GROWTH_FEED_PCT: 50,
  HEAP_FOR_SIZE: false,
  HEAP_PRETENURING: true,
};

/** `heapGrowth` with `settings` over SETTINGS, recording the flags it sets (in `flags`, in order). */
function recorded(settings: Partial<typeof SETTINGS>, flags: string[] = []) {
  const onFeedWanted = heapGrowth({ ...SETTINGS, ...settings }, (flag) => flags.push(flag));
  return { flags, onFeedWanted };
}

describe('heapGrowth', () => {
  it('sets HEAP_GROWTH_PCT at start, HEAP_GROWTH_FEED_PCT while the feed is wanted and HEAP_GROWTH_PCT after', () => {
    const { flags, onFeedWanted } = recorded({ HEAP_GROWTH_FEED_PCT: 0 });
    expect(flags).toEqual(['--heap-growing-percent=10']);
    onFeedWanted!(true);
    onFeedWanted!(false);
    expect(flags).toEqual([
      '--heap-growing-percent=10',
      '--heap-growing-percent=0',
      '--heap-growing-percent=10',
    ]);
  });

  it('leaves V8 alone at start with 0, and switches nothing when both settings are the same', () => {
    const flags: string[] = [];
    expect(recorded({ HEAP_GROWTH_PCT: 0, HEAP_GROWTH_FEED_PCT: 0 }, flags).onFeedWanted).toBeUndefined();
    expect(flags).toEqual([]);
    expect(recorded({ HEAP_GROWTH_PCT: 20, HEAP_GROWTH_FEED_PCT: 20 }, flags).onFeedWanted).toBeUndefined();
    expect(flags).toEqual(['--heap-growing-percent=20']);
    recorded({ HEAP_GROWTH_PCT: 0, HEAP_GROWTH_FEED_PCT: 50 }, flags).onFeedWanted!(true);
    expect(flags).toEqual(['--heap-growing-percent=20', '--heap-growing-percent=50']);
  });

  it('with HEAP_FOR_SIZE, optimizes for size at start and while the feed is quiet, not while it is wanted', () => {
    const { flags, onFeedWanted } = recorded({ HEAP_FOR_SIZE: true });
    expect(flags).toEqual(['--heap-growing-percent=10', '--optimize-for-size']);
    onFeedWanted!(true);
    expect(flags.slice(2)).toEqual(['--heap-growing-percent=50', '--no-optimize-for-size']);
    onFeedWanted!(false);
    expect(flags.slice(4)).toEqual(['--heap-growing-percent=10', '--optimize-for-size']);
  });

  it('with HEAP_FOR_SIZE and one allowance, switches only the optimization', () => {
    const { flags, onFeedWanted } = recorded({ HEAP_GROWTH_FEED_PCT: 10, HEAP_FOR_SIZE: true });
    onFeedWanted!(true);
    onFeedWanted!(false);
    expect(flags).toEqual([
      '--heap-growing-percent=10',
      '--optimize-for-size',
      '--no-optimize-for-size',
      '--optimize-for-size',
    ]);
  });

  it('turns allocation-site pretenuring off at start by default (HEAP_PRETENURING false), and keeps it off', () => {
    const { flags, onFeedWanted } = recorded({ HEAP_PRETENURING: false });
    expect(flags).toEqual(['--no-allocation-site-pretenuring', '--heap-growing-percent=10']);
    onFeedWanted!(true);
    onFeedWanted!(false);
    expect(flags.slice(2)).toEqual(['--heap-growing-percent=50', '--heap-growing-percent=10']);
    // With one allowance and nothing to switch, still set at start.
    const alone = recorded({ HEAP_GROWTH_PCT: 0, HEAP_GROWTH_FEED_PCT: 0, HEAP_PRETENURING: false });
    expect(alone.onFeedWanted).toBeUndefined();
    expect(alone.flags).toEqual(['--no-allocation-site-pretenuring']);
  });

  // V8 pretenures an allocation site whose objects it saw survive: its later objects are made in the old space, with no
  // scavenge. A loop keeping a million objects of one site at a time: with pretenuring (V8's default) the site is
  // tenured and the young generation is collected about half as often as without (16 against 29 scavenges here).
  it('reaches V8: without pretenuring, surviving objects of one site keep being made young', () => {
    const scavenges = (pretenuring: boolean) =>
      inOwnProcess(
        `{ HEAP_GROWTH_PCT: 0, HEAP_GROWTH_FEED_PCT: 0, HEAP_FOR_SIZE: false, HEAP_PRETENURING: ${pretenuring} }`,
        `const { PerformanceObserver } = await import('node:perf_hooks');
        let count = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) if (entry.detail.kind === 1) count += 1;
        }).observe({ entryTypes: ['gc'] });
        const make = (i) => ({ i, a: i + 1, b: i + 2 });
        let keep = [];
        for (let i = 0; i < 4e6; i++) {
          keep.push(make(i));
          if (keep.length > 1e6) keep = [];
        }
        setTimeout(() => console.log(count), 100);`,
      );
    const withPretenuring = scavenges(true);
    const without = scavenges(false);
    expect(withPretenuring).toBeGreaterThan(0);
    expect(without).toBeGreaterThan(withPretenuring * 1.4);
  });

  // The flags as V8 itself takes them, in a process of their own (they are process-wide): the young generation a
  // scavenge-heavy loop grows to, with semi-spaces of at most 16 MB. Optimized for size, V8 grows it to half.
  it("reaches V8: a young generation half as large while the feed is quiet, V8's full one while it is wanted", () => {
    const youngMB = (forSize: boolean, feedWanted: boolean) =>
      inOwnProcess(
        `{ HEAP_GROWTH_PCT: 10, HEAP_GROWTH_FEED_PCT: 50, HEAP_FOR_SIZE: ${forSize}, HEAP_PRETENURING: true }`,
        `const { getHeapSpaceStatistics } = await import('node:v8');
        if (${feedWanted}) onFeedWanted(true);
        let keep = [];
        let most = 0;
        for (let i = 0; i < 3e6; i++) {
          keep.push({ i });
          if (keep.length > 200000) keep = [];
          if (i % 1000 === 0)
            most = Math.max(most, getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size);
        }
        console.log(most / 1048576);`,
      );
    expect(youngMB(false, false)).toBe(32);
    expect(youngMB(true, false)).toBe(16);
    expect(youngMB(true, true)).toBe(32);
  });
});
