import { describe, expect, it } from 'vitest';
import { AlertBatch } from './alert-batch.ts';

function harness(worthy = (_item: string) => true) {
  let now = 0;
  const fired: string[][] = [];
  const timers: { at: number; run: () => void }[] = [];
  const batch = new AlertBatch<string>({
    fire: (items) => fired.push([...items]),
    key: (item) => item,
    stillWorthy: (item) => worthy(item),
    gapMs: 10_000,
    now: () => now,
    schedule: (run, ms) => {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return timer;
    },
    cancel: (handle) => timers.splice(timers.indexOf(handle as (typeof timers)[number]), 1),
  });
  const advance = (ms: number) => {
    now += ms;
    for (const timer of timers.filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.run();
    }
  };
  return { batch, fired, advance, timers };
}

describe('AlertBatch', () => {
  it('alerts the first arrivals at once, all of one fetch in one alert', () => {
    const { batch, fired } = harness();
    batch.add(['a', 'b', 'c']);
    expect(fired).toEqual([['a', 'b', 'c']]);
  });

  it('gathers the arrivals of the next 10 s into one alert at the end of the gap', () => {
    const { batch, fired, advance } = harness();
    batch.add(['a']);
    for (const item of ['b', 'c', 'd', 'c', 'e', 'f', 'g', 'h', 'i']) {
      advance(1_000);
      batch.add([item]);
    }
    expect(fired).toEqual([['a']]);
    advance(1_000);
    expect(fired).toEqual([['a'], ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']]);
    // Quiet for longer than the gap: the next arrival is alerted at once.
    advance(30_000);
    batch.add(['j']);
    expect(fired.at(-1)).toEqual(['j']);
    expect(fired).toHaveLength(3);
  });

  it('leaves out arrivals that are no longer worth an alert when the gap ends, and fires nothing if none is', () => {
    const gone = new Set<string>();
    const { batch, fired, advance } = harness((item) => !gone.has(item));
    batch.add(['a']);
    advance(2_000);
    batch.add(['b', 'c']);
    gone.add('b');
    advance(8_000);
    expect(fired).toEqual([['a'], ['c']]);
    advance(1_000);
    batch.add(['d']);
    gone.add('d');
    advance(10_000);
    expect(fired).toHaveLength(2);
  });

  it('dispose drops what waits', () => {
    const { batch, fired, advance, timers } = harness();
    batch.add(['a']);
    batch.add(['b']);
    batch.dispose();
    expect(timers).toHaveLength(0);
    advance(20_000);
    expect(fired).toEqual([['a']]);
  });
});
