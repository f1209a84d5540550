import { describe, expect, it } from 'vitest';
import { feed, moneyline } from '../test/fixtures.ts';
import { replaceEqualDeep } from './structural-sharing.ts';

describe('replaceEqualDeep', () => {
  it('returns the previous value when the next one is deep-equal', () => {
    const previous = feed([moneyline('a'), moneyline('b')]);
    const next = structuredClone(previous);
    expect(replaceEqualDeep(previous, next)).toBe(previous);
  });

  it('keeps unchanged arbs as the same objects and takes changed ones from the next value', () => {
    const previous = feed([moneyline('a', 1), moneyline('b', 2)]);
    const next = structuredClone(previous);
    next.generated_at += 1;
    next.arbs[1]!.edge_pct = 2.5;
    const shared = replaceEqualDeep(previous, next);
    expect(shared).not.toBe(previous);
    expect(shared.generated_at).toBe(next.generated_at);
    expect(shared.arbs[0]).toBe(previous.arbs[0]);
    expect(shared.arbs[1]).not.toBe(previous.arbs[1]);
    expect(shared.arbs[1]!.edge_pct).toBe(2.5);
    expect(shared.arbs[1]!.event).toBe(previous.arbs[1]!.event);
  });

  it('notices added, removed and reordered items', () => {
    const previous = feed([moneyline('a'), moneyline('b')]);
    const added = structuredClone(previous);
    added.arbs.push(moneyline('c'));
    expect(replaceEqualDeep(previous, added).arbs).toHaveLength(3);
    const removed = structuredClone(previous);
    removed.arbs.pop();
    expect(replaceEqualDeep(previous, removed).arbs).toHaveLength(1);
    const reordered = structuredClone(previous);
    reordered.arbs.reverse();
    const shared = replaceEqualDeep(previous, reordered);
    expect(shared.arbs.map((a) => a.event.id)).toEqual(['b', 'a']);
  });

  it('treats a key that became undefined as a change', () => {
    const previous: { a: number; b?: number } = { a: 1, b: 2 };
    expect(replaceEqualDeep(previous, { a: 1, b: undefined })).not.toBe(previous);
    expect(replaceEqualDeep({ a: 1 }, { a: 1, b: undefined })).toEqual({ a: 1, b: undefined });
  });
});
