import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_MS } from '../lib/arbs.ts';
import { nextHighlights, type HighlightSource } from './use-new-arb-highlights.ts';

const fetched = (
  keys: string[],
  receivedAt: number,
  sample = false,
): Omit<HighlightSource, 'highlights'> => ({
  keys,
  receivedAt,
  sample,
});

describe('nextHighlights', () => {
  it('highlights nothing on the first fetch', () => {
    expect(nextHighlights(undefined, fetched(['a', 'b'], 1000))).toEqual([]);
  });

  it('makes a batch of the keys absent from the previous fetch, ending 2500 ms after it arrived', () => {
    const previous = { ...fetched(['a', 'b'], 1000), highlights: [] };
    const [batch, ...rest] = nextHighlights(previous, fetched(['a', 'b', 'c'], 2000));
    expect(rest).toEqual([]);
    expect([...batch!.keys]).toEqual(['c']);
    expect(batch!.until).toBe(2000 + HIGHLIGHT_MS);
  });

  it('keeps running batches, drops ended ones, and adds none when nothing is new', () => {
    const running = { id: 5000, keys: new Set(['c']), until: 5000 };
    const ended = { id: 1500, keys: new Set(['b']), until: 1500 };
    const previous = { ...fetched(['a', 'b', 'c'], 2000), highlights: [ended, running] };
    expect(nextHighlights(previous, fetched(['a', 'b', 'c'], 3000))).toEqual([running]);
    const unchanged = { ...previous, highlights: [running] };
    expect(nextHighlights(unchanged, fetched(['a', 'b', 'c'], 3000))).toBe(unchanged.highlights);
  });

  it('treats a switch between the sample data and the feed as a first fetch', () => {
    const previous = { ...fetched(['s1', 's2'], 1000, true), highlights: [] };
    expect(nextHighlights(previous, fetched(['a', 'b'], 2000))).toEqual([]);
  });
});
