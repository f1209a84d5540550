import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deflatePiece, gzipJoin } from './gzip-join.ts';

describe('gzipJoin', () => {
  it('makes one gzip member that any decoder reads as the pieces concatenated', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string({ maxLength: 2000 }), fc.uint8Array({ maxLength: 70_000 })), {
          maxLength: 8,
        }),
        fc.integer({ min: 0, max: 9 }),
        async (pieces, level) => {
          const raws = pieces.map((piece) => Buffer.from(piece));
          const gzip = Buffer.concat(gzipJoin(raws.map((raw) => deflatePiece(raw, level))));
          const expected = Buffer.concat(raws);
          expect(gunzipSync(gzip).equals(expected)).toBe(true);
          const stream = new Blob([new Uint8Array(gzip)]).stream().pipeThrough(new DecompressionStream('gzip'));
          expect(Buffer.from(await new Response(stream).arrayBuffer()).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reuses a piece in several members (pieces do not depend on what precedes them)', () => {
    const shared = deflatePiece(Buffer.from('{"shared":"'.padEnd(5000, 'x') + '"}'));
    const a = Buffer.concat(
      gzipJoin([deflatePiece(Buffer.from('[')), shared, deflatePiece(Buffer.from(']'))]),
    );
    const b = Buffer.concat(
      gzipJoin([
        deflatePiece(Buffer.from('[1,')),
        shared,
        deflatePiece(Buffer.from(',')),
        shared,
        deflatePiece(Buffer.from(']')),
      ]),
    );
    expect(JSON.parse(gunzipSync(a).toString())).toHaveLength(1);
    expect(JSON.parse(gunzipSync(b).toString())).toHaveLength(3);
  });
});
