import { constants, crc32, deflateRawSync } from 'node:zlib';

// One gzip member assembled from independently compressed pieces, so that a large answer made of cached parts (the
// paid API's per-event odds) is compressed once per part version rather than once per request. Each piece is a raw
// deflate stream ended with a sync flush (byte aligned, not final, no reference to earlier pieces), and raw deflate
// streams concatenated that way are one valid deflate stream (the technique pigz uses). The member ends with an
// empty final block, the CRC-32 of all the uncompressed bytes and their length (RFC 1952); the CRC is combined from
// the pieces' own CRCs (zlib's crc32_combine), so the uncompressed bytes are not read again per request. Any gzip
// decoder reads the result.

/** A piece of the body: its bytes, their CRC-32 and their deflated form. */
export interface DeflatedPiece {
  raw: Buffer;
  crc: number;
  deflated: Buffer;
}

/** gzip header: magic, CM=deflate, no flags, no mtime, XFL 0, OS unknown. */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** An empty final block with fixed Huffman codes: BFINAL=1, BTYPE=01, end-of-block. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
const MAX_STORED = 0xffff;

export function crcOf(raw: Buffer): number {
  // An empty Buffer's CRC is 0 (and Node 20's crc32 is not called with one: it has answered 0 for a non-zero seed).
  return raw.length === 0 ? 0 : crc32(raw);
}

/** Deflates `raw` as a piece that may be followed by others (level 6 is zlib's default balance). */
export function deflatePiece(raw: Buffer, level = 6): DeflatedPiece {
  return {
    raw,
    crc: crcOf(raw),
    deflated: deflateRawSync(raw, { level, finishFlush: constants.Z_SYNC_FLUSH }),
  };
}

/**
 * `raw` as one stored (uncompressed) deflate block: for small per-request bytes, where setting up a compressor would
 * cost more than the few bytes it saves. Follows a sync flush, so it starts on a byte boundary.
 */
export function storedPiece(raw: Buffer): DeflatedPiece {
  if (raw.length > MAX_STORED) return deflatePiece(raw);
  const deflated = Buffer.alloc(5 + raw.length);
  deflated[0] = 0x00; // BFINAL=0, BTYPE=00 (stored), padded to the byte
  deflated.writeUInt16LE(raw.length, 1);
  deflated.writeUInt16LE(~raw.length & 0xffff, 3);
  raw.copy(deflated, 5);
  return { raw, crc: crcOf(raw), deflated };
}

const POLY = 0xedb88320;

/** a(x)·b(x) modulo the CRC-32 polynomial (reflected), as in zlib's crc32.c. */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p = (p ^ b) >>> 0;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? ((b >>> 1) ^ POLY) >>> 0 : b >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) modulo the polynomial. */
const X2N: number[] = [];
for (let k = 0, p = 0x40000000; k < 32; k += 1) {
  X2N.push(p);
  p = multModP(p, p);
}

/** x^(n·2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000;
  while (n) {
    if (n & 1) p = multModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k += 1;
  }
  return p;
}

/** CRC-32 of A‖B from CRC(A), CRC(B) and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x2nModP(lengthB, 3), crcA) ^ crcB) >>> 0;
}

/** The gzip member of the pieces' concatenated raw bytes, as a list of Buffers to write in order. */
export function gzipJoin(pieces: readonly DeflatedPiece[]): Buffer[] {
  let crc = 0;
  let length = 0;
  const out: Buffer[] = [HEADER];
  for (const piece of pieces) {
    crc = crc32Combine(crc, piece.crc, piece.raw.length);
    length += piece.raw.length;
    out.push(piece.deflated);
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  out.push(FINAL_BLOCK, trailer);
  return out;
}
