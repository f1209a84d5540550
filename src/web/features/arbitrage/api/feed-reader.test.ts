import { describe, expect, it } from 'vitest';
import { arbKey } from '#domain/arbs.ts';
import { ArbFeedEnvelopeSchema, ArbSchema } from '#domain/schemas/feed.ts';
import { arb, side } from '../test/fixtures.ts';
import { ZodError } from 'zod';
import { createFeedReader, jsonEqual } from './feed-reader.ts';

/** A reader over the shared schemas that counts how many arbs it validated. */
function countingReader() {
  const counter = { arbsParsed: 0 };
  const reader = createFeedReader({
    envelope: ArbFeedEnvelopeSchema,
    arb: {
      parse(input: unknown) {
        counter.arbsParsed++;
        return ArbSchema.parse(input);
      },
    },
  });
  return { reader, counter };
}

const a = arb('a', [side('a-1', 'fanduel', '+155', 2.55), side('a-2', 'draftkings', '-140', 1.7143)], {
  edge: 2,
});
const b = arb('b', [side('b-1', 'betmgm', '+120', 2.2), side('b-2', 'caesars', '-105', 1.9524)], { edge: 1 });
const c = arb('c', [side('c-1', 'betrivers', '+110', 2.1), side('c-2', 'fanduel', '+100', 2)], { edge: 0.5 });

/** What the page reads: the JSON text of a feed, parsed afresh (no shared objects between fetches). */
const body = (arbs: unknown[], generatedAt = 1) =>
  JSON.parse(JSON.stringify({ generated_at: generatedAt, arbs }));

describe('createFeedReader', () => {
  it('validates every arb of the first feed and gives their keys in feed order', () => {
    const { reader, counter } = countingReader();
    const { feed, keys } = reader.read(body([a, b, c]));
    expect(feed.arbs).toEqual([a, b, c]);
    expect(keys).toEqual([a, b, c].map(arbKey));
    expect(counter.arbsParsed).toBe(3);
  });

  it('keeps an unchanged arb as the same object, also when the list around it shifts', () => {
    const { reader, counter } = countingReader();
    const first = reader.read(body([a, b, c])).feed.arbs;
    const second = reader.read(body([b, c], 2)).feed.arbs;
    expect(second[0]).toBe(first[1]);
    expect(second[1]).toBe(first[2]);
    expect(counter.arbsParsed).toBe(3);
  });

  it('parses again only the arb whose JSON changed', () => {
    const { reader, counter } = countingReader();
    const first = reader.read(body([a, b])).feed.arbs;
    const repriced = { ...b, edge_pct: 1.25 };
    const second = reader.read(body([a, repriced], 2)).feed.arbs;
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]).toEqual(repriced);
    expect(counter.arbsParsed).toBe(3);
  });

  it('gives the previous arbs array when no arb changed, a new one when any did', () => {
    const { reader } = countingReader();
    const first = reader.read(body([a, b])).feed;
    const same = reader.read(body([a, b], 2)).feed;
    expect(same.arbs).toBe(first.arbs);
    expect(same.generated_at).toBe(2);
    expect(reader.read(body([b, a], 3)).feed.arbs).not.toBe(first.arbs);
  });

  it('rejects an arb that breaks the schema even when an earlier fetch had a valid arb under its key', () => {
    const { reader } = countingReader();
    reader.read(body([a]));
    const broken = { ...a, sides: [{ ...a.sides[0], decimal_odds: 0.5 }, a.sides[1]] };
    expect(() => reader.read(body([broken], 2))).toThrow(ZodError);
  });

  it('rejects a feed without its envelope and an arb with no usable key', () => {
    const { reader } = countingReader();
    expect(() => reader.read({ arbs: [] })).toThrow();
    expect(() => reader.read(body([{ event: 'x' }]))).toThrow(ZodError);
  });

  it('drops fields the schema does not know, as a full parse does', () => {
    const { reader } = countingReader();
    const { feed } = reader.read(body([{ ...a, extra: true }]));
    expect(feed.arbs[0]).toEqual(a);
    expect(reader.read(body([{ ...a, extra: true }], 2)).feed.arbs[0]).toBe(feed.arbs[0]);
  });
});

describe('jsonEqual', () => {
  it('compares JSON values deeply, whatever the key order', () => {
    expect(jsonEqual({ x: 1, y: [1, { z: null }] }, { y: [1, { z: null }], x: 1 })).toBe(true);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual({ x: 1 }, { x: 1, y: 2 })).toBe(false);
    expect(jsonEqual({ x: 1, y: 2 }, { x: 1 })).toBe(false);
    expect(jsonEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});
