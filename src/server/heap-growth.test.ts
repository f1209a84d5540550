import { describe, expect, it } from 'vitest';
import { heapGrowth } from './heap-growth.ts';

// Decision 294: the flags the server gives V8 at start and as the public feed's demand comes and goes.

describe('heapGrowth', () => {
  it('sets HEAP_GROWTH_PCT at start, HEAP_GROWTH_FEED_PCT while the feed is wanted and HEAP_GROWTH_PCT after', () => {
    const flags: string[] = [];
    const onFeedWanted = heapGrowth({ HEAP_GROWTH_PCT: 10, HEAP_GROWTH_FEED_PCT: 0 }, (flag) =>
      flags.push(flag),
    );
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
    expect(
      heapGrowth({ HEAP_GROWTH_PCT: 0, HEAP_GROWTH_FEED_PCT: 0 }, (flag) => flags.push(flag)),
    ).toBeUndefined();
    expect(flags).toEqual([]);
    expect(
      heapGrowth({ HEAP_GROWTH_PCT: 20, HEAP_GROWTH_FEED_PCT: 20 }, (flag) => flags.push(flag)),
    ).toBeUndefined();
    expect(flags).toEqual(['--heap-growing-percent=20']);
    heapGrowth({ HEAP_GROWTH_PCT: 0, HEAP_GROWTH_FEED_PCT: 50 }, (flag) => flags.push(flag))!(true);
    expect(flags).toEqual(['--heap-growing-percent=20', '--heap-growing-percent=50']);
  });
});
