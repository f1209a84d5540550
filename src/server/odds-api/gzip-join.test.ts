import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import { crc32Combine, deflatePiece, gzipJoin, storedPiece } from './gzip-join.ts';

describe('gzipJoin', () => {
  it('makes one gzip member that any decoder reads as the pieces concatenated', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string({ maxLength: 2000 }), fc.uint8Array({ maxLength: 70_000 })), {
          maxLength: 8,
        }),
        fc.integer({ min: 0, max: 10 }),
        async (pieces, level) => {
          const raws = pieces.map((piece) => Buffer.from(piece));
          // Level 10 stands for a stored block.
          const piece = (raw: Buffer) => (level === 10 ? storedPiece(raw) : deflatePiece(raw, level));
          const gzip = Buffer.concat(gzipJoin(raws.map(piece)));
          const expected = Buffer.concat(raws);
          expect(gunzipSync(gzip).equals(expected)).toBe(true);
          const stream = new Blob([new Uint8Array(gzip)])
            .stream()
            .pipeThrough(new DecompressionStream('gzip'));
          expect(Buffer.from(await new Response(stream).arrayBuffer()).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('combines CRCs as zlib computes the CRC of the concatenation', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.uint8Array({ maxLength: 5000 }), (a, b) => {
        const [bufferA, bufferB] = [Buffer.from(a), Buffer.from(b)];
        const crcA = a.length ? crc32(bufferA) : 0;
        const crcB = b.length ? crc32(bufferB) : 0;
        const whole = Buffer.concat([bufferA, bufferB]);
        expect(crc32Combine(crcA, crcB, b.length)).toBe(whole.length ? crc32(whole) : 0);
      }),
      { numRuns: 200 },
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
