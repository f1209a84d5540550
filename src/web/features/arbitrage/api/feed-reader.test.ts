import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $ZodError } from 'zod/v4/core';
import { arbKey } from '#domain/arb-feed.ts';
import { ArbFeedEnvelopeSchema, ArbSchema, type Arb } from '#domain/schemas/feed.ts';
import { arb, side } from '#tests/support/arbitrage-fixtures.ts';
import { createFeedReader, jsonEqual, splitFeedText } from './feed-reader.ts';

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

/** What the page reads: the text of a feed as the engine writes it (compact, arbs last). */
const body = (arbs: unknown[], generatedAt = 1) =>
  JSON.stringify({ generated_at: generatedAt, source: 'replay', arbs });

afterEach(() => vi.restoreAllMocks());

describe('createFeedReader', () => {
  it('validates every arb of the first feed and gives their keys in feed order', () => {
    const { reader, counter } = countingReader();
    const { feed, keys } = reader.read(body([a, b, c]));
    expect(feed.arbs).toEqual([a, b, c]);
    expect(keys).toEqual([a, b, c].map(arbKey));
    expect(counter.arbsParsed).toBe(3);
  });

  it('reads the free tier’s count of the arbs above its cap, written after the arbs (decision 210)', () => {
    const { reader, counter } = countingReader();
    const aboveCap = { edge_pct: 1, arbs: [{ live: true, books: ['fanduel', 'betmgm'], league: 'nba' }] };
    const text = (arbs: unknown[], generatedAt: number) =>
      JSON.stringify({ generated_at: generatedAt, source: 'replay', arbs, above_cap: aboveCap });
    expect(reader.read(text([b, c], 1)).feed.above_cap).toEqual(aboveCap);
    const second = reader.read(text([c], 2));
    expect(second.feed.arbs).toEqual([c]);
    expect(second.feed.above_cap).toEqual(aboveCap);
    expect(counter.arbsParsed).toBe(2);
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

  it('leaves out an arb that breaks the schema even when an earlier fetch had a valid arb under its key', () => {
    const { reader } = countingReader();
    reader.read(body([a, b]));
    const broken = { ...a, sides: [{ ...a.sides[0], decimal_odds: 0.5 }, a.sides[1]] };
    const { feed, keys, invalid } = reader.read(body([broken, b], 2));
    expect(feed.arbs).toEqual([b]);
    expect(keys).toEqual([arbKey(b)]);
    expect(invalid).toBe(1);
  });

  it('leaves out and counts each invalid arb (null odds, zero probability, missing field, no key) and reads the rest', () => {
    const { reader } = countingReader();
    const nullOdds = { ...a, sides: [{ ...a.sides[0], decimal_odds: null }, a.sides[1]] };
    const zeroProb = { ...b, sides: [b.sides[0], { ...b.sides[1], implied_prob: 0 }] };
    const { market: _market, ...noMarket } = c;
    const arbs = [nullOdds, c, zeroProb, noMarket, { event: 'x' }, a];
    for (const text of [body(arbs), JSON.stringify({ generated_at: 1, arbs }, null, 2)]) {
      const { feed, keys, invalid } = reader.read(text);
      expect(feed.arbs).toEqual([c, a]);
      expect(keys).toEqual([arbKey(c), arbKey(a)]);
      expect(invalid).toBe(4);
    }
  });

  it('does not parse or validate again an invalid arb whose text is unchanged', () => {
    const { reader, counter } = countingReader();
    const broken = { ...b, edge_pct: 'high' };
    expect(reader.read(body([a, broken])).invalid).toBe(1);
    expect(counter.arbsParsed).toBe(2);
    const parse = vi.spyOn(JSON, 'parse');
    const second = reader.read(body([broken, a], 2));
    expect(second.feed.arbs).toEqual([a]);
    expect(second.invalid).toBe(1);
    expect(parse).toHaveBeenCalledTimes(1); // the envelope
    expect(counter.arbsParsed).toBe(2);
  });

  it('still rejects a feed whose envelope is not a feed or whose text is not JSON', () => {
    const { reader } = countingReader();
    expect(() => reader.read('{"arbs":[]}')).toThrow($ZodError);
    expect(() => reader.read(JSON.stringify({ arbs: [a] }))).toThrow($ZodError);
    expect(() => reader.read('{"generated_at":1,"arbs":{}}')).toThrow($ZodError);
    expect(() => reader.read('{"generated_at":1,"arbs":[{"event":')).toThrow(SyntaxError);
  });

  it('drops fields the schema does not know, as a full parse does', () => {
    const { reader } = countingReader();
    const { feed } = reader.read(body([{ ...a, extra: true }]));
    expect(feed.arbs[0]).toEqual(a);
    expect(reader.read(body([{ ...a, extra: true }], 2)).feed.arbs[0]).toBe(feed.arbs[0]);
  });
});

describe('createFeedReader on the text of the feed', () => {
  it('JSON-parses only the envelope and the arbs whose text changed', () => {
    const { reader, counter } = countingReader();
    const first = reader.read(body([a, b, c])).feed.arbs;
    const parse = vi.spyOn(JSON, 'parse');
    const repriced = { ...b, edge_pct: 1.5 };
    const second = reader.read(body([c, repriced, a], 2)).feed.arbs;
    expect(parse.mock.calls.map(([text]) => text)).toEqual([
      '{"generated_at":2,"source":"replay","arbs":[]}',
      JSON.stringify(repriced),
    ]);
    expect(second).toEqual([c, repriced, a]);
    expect(second[0]).toBe(first[2]);
    expect(second[2]).toBe(first[0]);
    expect(counter.arbsParsed).toBe(4);
  });

  it('parses the whole text when it is not laid out compactly, and keeps arbs across layouts', () => {
    const { reader, counter } = countingReader();
    const compact = reader.read(body([a, b])).feed;
    const pretty = JSON.stringify({ generated_at: 2, arbs: [a, b] }, null, 2);
    expect(splitFeedText(pretty)).toBeNull();
    const parse = vi.spyOn(JSON, 'parse');
    const read = reader.read(pretty).feed;
    expect(parse).toHaveBeenCalledWith(pretty);
    expect(read.arbs).toBe(compact.arbs);
    expect(read.source).toBeUndefined();
    expect(counter.arbsParsed).toBe(2);
    // Back to the compact layout: no piece is known by its text, but every arb is by its key and JSON.
    expect(reader.read(body([a, b], 3)).feed.arbs).toBe(compact.arbs);
    expect(counter.arbsParsed).toBe(2);
  });

  it('is not misled by names holding the separators and brackets it searches for', () => {
    const tricky = (id: string, text: string) =>
      arb(id, [
        side(`${id}-1`, 'fanduel', '+155', 2.55, { name: text }),
        side(`${id}-2`, 'betmgm', '-140', 1.7143),
      ]);
    const arbs = [tricky('x', '],{"event":{'), tricky('y', '"arbs":[]}'), tricky('z', '\\",{"event":')];
    const { reader } = countingReader();
    expect(reader.read(body(arbs)).feed.arbs).toEqual(arbs);
    expect(reader.read(body([arbs[2], arbs[0]], 2)).feed.arbs).toEqual([arbs[2], arbs[0]]);
  });

  it('reads an empty feed and a feed whose arbs array is not last', () => {
    const { reader } = countingReader();
    expect(reader.read(body([])).feed).toEqual({ generated_at: 1, source: 'replay', arbs: [] });
    const arbsFirst = JSON.stringify({ arbs: [a], generated_at: 2 });
    expect(reader.read(arbsFirst).feed).toEqual({ generated_at: 2, arbs: [a] });
  });

  // The cut is a guess from string searches; whatever the text, the reader must give what a full parse gives, less
  // the arbs that fail the schema.
  it('gives what a full parse and validation give, without the invalid arbs, for any feed text (property)', () => {
    const glyphs = fc.constantFrom(
      'a',
      'Z',
      ' ',
      ',',
      ':',
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      'é',
      '"event":',
      '"arbs":[',
    );
    const text = fc.string({ unit: glyphs, minLength: 1, maxLength: 12 });
    const extra = fc.option(
      fc.dictionary(fc.constantFrom('event', 'arbs', 'x'), fc.jsonValue({ maxDepth: 2 })),
      {
        nil: undefined,
      },
    );
    // Ways an arb breaks the schema; undefined keeps it valid (as far as its generated names allow).
    const breakage = fc.constantFrom<((arb: Arb) => unknown) | undefined>(
      undefined,
      undefined,
      undefined,
      (arb) => ({ ...arb, sides: [{ ...arb.sides[0], decimal_odds: null }, arb.sides[1]] }),
      (arb) => ({ ...arb, sides: [arb.sides[0], { ...arb.sides[1], implied_prob: 0 }] }),
      ({ market: _market, ...rest }) => rest,
      (arb) => ({ ...arb, sides: [arb.sides[0]] }),
    );
    const anArb = fc
      .record({
        id: text,
        name: text,
        price: fc.constantFrom('+105', '-110'),
        edge: fc.double({ noNaN: true, noDefaultInfinity: true }),
        extra,
        broken: breakage,
      })
      .map(({ id, name, price, edge, extra, broken }) => {
        const valid = arb(
          id,
          [side(`${id}1`, 'fanduel', price, 2.05, { name }), side(`${id}2`, 'draftkings', '+100', 2)],
          { edge },
        );
        return { ...(extra ?? {}), ...(broken ? (broken(valid) as object) : valid) };
      });
    const layout = fc.constantFrom<(feed: object) => string>(
      (feed) => JSON.stringify(feed),
      (feed) => JSON.stringify(feed, null, 1),
      (feed) => JSON.stringify({ ...feed, trailer: { arbs: [{ event: 1 }] } }),
    );
    const feed = fc.record({ arbs: fc.array(anArb, { maxLength: 5 }), layout });
    fc.assert(
      fc.property(fc.array(feed, { minLength: 1, maxLength: 4 }), (feeds) => {
        const { reader } = countingReader();
        feeds.forEach(({ arbs, layout }, n) => {
          const text = layout({ generated_at: n, source: 'replay', arbs });
          let expected: { arbs: Arb[]; invalid: number } | 'invalid';
          try {
            const parsed = ArbFeedEnvelopeSchema.parse(JSON.parse(text));
            const results = parsed.arbs.map((item) => ArbSchema.safeParse(item));
            expected = {
              arbs: results.flatMap((result) => (result.success ? [result.data] : [])),
              invalid: results.filter((result) => !result.success).length,
            };
          } catch {
            expected = 'invalid';
          }
          if (expected === 'invalid') expect(() => reader.read(text)).toThrow();
          else {
            const read = reader.read(text);
            expect(read.feed.arbs).toEqual(expected.arbs);
            expect(read.invalid).toBe(expected.invalid);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('createFeedReader.readInSlices', () => {
  it('reads what `read` reads, pausing between arbs once each slice has used its budget', async () => {
    const { reader: sliced } = countingReader();
    const { reader: whole } = countingReader();
    let pauses = 0;
    const pause = () => {
      pauses++;
      return Promise.resolve();
    };
    const text = body([a, b, c]);
    // A budget of 0: every step ends its slice (three arbs parsed, then three validated).
    expect(await sliced.readInSlices(text, pause, 0)).toEqual(whole.read(text));
    expect(pauses).toBe(6);
  });

  it('does not pause while the slice is within its budget, nor for arbs it has read before', async () => {
    const { reader, counter } = countingReader();
    let pauses = 0;
    const pause = () => {
      pauses++;
      return Promise.resolve();
    };
    await reader.readInSlices(body([a, b, c]), pause, 60_000);
    expect(pauses).toBe(0);
    const again = await reader.readInSlices(body([a, b, c], 2), pause, 0);
    expect(again.feed.arbs).toEqual([a, b, c]);
    expect(pauses).toBe(0);
    expect(counter.arbsParsed).toBe(3);
  });

  it('pauses on a feed that does not split too, and leaves out an arb that breaks the schema', async () => {
    const { reader } = countingReader();
    let pauses = 0;
    const broken = { ...b, edge_pct: 'high' };
    const text = JSON.stringify({ arbs: [a, broken, c], source: 'replay', generated_at: 1 }, null, 2);
    const { feed, invalid } = await reader.readInSlices(
      text,
      () => {
        pauses++;
        return Promise.resolve();
      },
      0,
    );
    expect(feed.arbs).toEqual([a, c]);
    expect(invalid).toBe(1);
    expect(pauses).toBe(3);
  });
});

describe('splitFeedText', () => {
  it('cuts the engine layout into its envelope and one piece per arb', () => {
    expect(
      splitFeedText('{"generated_at":1,"source":"replay","arbs":[{"event":1},{"event":{"event":2}}]}'),
    ).toEqual({
      envelope: '{"generated_at":1,"source":"replay","arbs":[]}',
      pieces: ['{"event":1}', '{"event":{"event":2}}'],
    });
  });

  it('declines texts it cannot cut: no top-level arbs array, or elements that are not objects', () => {
    expect(splitFeedText('{"x":{"arbs":[{"event":1}]}}')).toBeNull();
    expect(splitFeedText('{"x":"\\"arbs\\":[{}]"}')).toBeNull();
    expect(splitFeedText('{"arbs":[1,2]}')).toBeNull();
    expect(splitFeedText('[]')).toBeNull();
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
