import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Arb } from '#domain/schemas/feed.ts';
import { ArbsJson, feedBody } from './publisher.ts';

// ArbsJson writes what JSON.stringify would, byte for byte, and says whether that differs from its last call without
// comparing the feeds' strings. The arbs here are small stand-in objects: the writer only serialises them.

/** A pool of arbs; some have the same content as others (a rebuilt arb is a new object with the same JSON). */
function pool(): Arb[] {
  const arbs: Arb[] = [];
  for (let i = 0; i < 6; i += 1) {
    // Non-ASCII text (two- and four-byte UTF-8) in some: the body is put together from each arb's bytes.
    const text = i === 3 ? '},{"x":1' : i === 2 ? 'Atlético — Bayern München 🏆' : 'plain';
    const content = { id: `arb-${i % 4}`, edge_pct: (i % 4) / 2, text };
    arbs.push(content as unknown as Arb);
  }
  return arbs;
}

describe('ArbsJson', () => {
  it('writes JSON.stringify of the arbs, its feed body byte for byte, and says changed exactly when the JSON differs', () => {
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
            const expected = JSON.stringify(feed);
            // Half the time through `update` and `body`, as the engine calls it.
            if (feed.length % 2 === 0) {
              writer.update(feed);
              expect(
                writer
                  .body(1_733_000_123_456, 'replay')
                  .equals(feedBody(1_733_000_123_456, 'replay', expected)),
              ).toBe(true);
            } else expect(writer.write(feed)).toBe(expected);
            expect(writer.changed).toBe(previous !== expected);
            expect(writer.json()).toBe(expected);
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
