import { constants, crc32, deflateRawSync } from 'node:zlib';

// One gzip member assembled from independently compressed pieces, so that a large answer made of cached parts (the
// paid API's per-event odds) is compressed once per part version rather than once per request. Each piece is a raw
// deflate stream ended with a sync flush (byte aligned, not final, no reference to earlier pieces), and raw deflate
// streams concatenated that way are one valid deflate stream (the technique pigz uses). The member ends with an
// empty final block, the CRC-32 of all the uncompressed bytes and their length (RFC 1952). Any gzip decoder reads it.

/** A piece of the body: its bytes and their deflated form. */
export interface DeflatedPiece {
  raw: Buffer;
  deflated: Buffer;
}

/** gzip header: magic, CM=deflate, no flags, no mtime, XFL 0, OS unknown. */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** An empty final block with fixed Huffman codes: BFINAL=1, BTYPE=01, end-of-block. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** Deflates `raw` as a piece that may be followed by others (level 6 is zlib's default balance). */
export function deflatePiece(raw: Buffer, level = 6): DeflatedPiece {
  return { raw, deflated: deflateRawSync(raw, { level, finishFlush: constants.Z_SYNC_FLUSH }) };
}

/** The gzip member of the pieces' concatenated raw bytes, as a list of Buffers to write in order. */
export function gzipJoin(pieces: readonly DeflatedPiece[]): Buffer[] {
  let crc = 0;
  let length = 0;
  const out: Buffer[] = [HEADER];
  for (const piece of pieces) {
    // Skipped when empty: Node 20's zlib.crc32 has been seen to answer 0 for an empty Buffer and a non-zero value.
    if (piece.raw.length > 0) crc = crc32(piece.raw, crc);
    length += piece.raw.length;
    out.push(piece.deflated);
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  out.push(FINAL_BLOCK, trailer);
  return out;
}
