import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Arb } from '#domain/schemas/feed.ts';
import { ArbsJson } from './publisher.ts';

// ArbsJson writes what JSON.stringify would, byte for byte, and says whether that differs from its last call without
// comparing the feeds' strings. The arbs here are small stand-in objects: the writer only serialises them.

/** A pool of arbs; some have the same content as others (a rebuilt arb is a new object with the same JSON). */
function pool(): Arb[] {
  const arbs: Arb[] = [];
  for (let i = 0; i < 6; i += 1) {
    const content = { id: `arb-${i % 4}`, edge_pct: (i % 4) / 2, text: i === 3 ? '},{"x":1' : 'plain' };
    arbs.push(content as unknown as Arb);
  }
  return arbs;
}

describe('ArbsJson', () => {
  it('writes JSON.stringify of the arbs and says changed exactly when the JSON differs from the last call', () => {
    const arbs = pool();
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: arbs.length - 1 }), { maxLength: 5 }), {
          minLength: 1,
          maxLength: 30,
        }),
        (feeds) => {
          const writer = new ArbsJson();
          let previous: string | undefined;
          for (const indexes of feeds) {
            const feed = indexes.map((index) => arbs[index]!);
            const json = writer.write(feed);
            const expected = JSON.stringify(feed);
            expect(json).toBe(expected);
            expect(writer.changed).toBe(previous !== expected);
            previous = expected;
          }
        },
      ),
      { seed: 37, numRuns: 300 },
    );
  });

  it('hands back the same JSON when the arbs are the same objects, or others with the same JSON', () => {
    const [a, b, c] = pool();
    const writer = new ArbsJson();
    const first = writer.write([a!, b!, c!]);
    expect(writer.changed).toBe(true);
    expect(writer.write([a!, b!, c!])).toBe(first);
    expect(writer.changed).toBe(false);
    // A new object with a's content, in a's place.
    expect(writer.write([{ ...a! }, b!, c!])).toBe(first);
    expect(writer.changed).toBe(false);
    expect(writer.write([b!, a!, c!])).toBe(JSON.stringify([b, a, c]));
    expect(writer.changed).toBe(true);
    expect(writer.write([])).toBe('[]');
    expect(writer.changed).toBe(true);
    expect(writer.write([])).toBe('[]');
    expect(writer.changed).toBe(false);
  });
});
