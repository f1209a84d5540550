import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EncodingCache, makeEntry, strongEtag } from './static-files.ts';

const text = (seed: string, kb: number) =>
  Buffer.from(`${seed} `.repeat(Math.ceil((kb * 1024) / (seed.length + 1))));

describe('makeEntry', () => {
  it('holds gzip and brotli encodings that decode to the bytes, and none for small or incompressible files', () => {
    const body = text('<p>Sharpline odds</p>', 8);
    const entry = makeEntry(body, 'text/html; charset=utf-8', true);
    expect(gunzipSync(entry.gzip!)).toEqual(body);
    expect(brotliDecompressSync(entry.br!)).toEqual(body);
    expect(entry.etag).toBe(strongEtag(body));
    expect(makeEntry(Buffer.from('tiny'), 'text/plain', true).br).toBeUndefined();
    expect(makeEntry(body, 'image/png', false).gzip).toBeUndefined();
  });

  it('compresses the same bytes once: a second entry of them shares the first one’s encodings', () => {
    const body = text(`same bytes ${randomBytes(4).toString('hex')}`, 16);
    const first = makeEntry(body, 'text/css', true);
    const second = makeEntry(Buffer.from(body), 'text/css', true);
    expect(second.br).toBe(first.br);
    expect(second.gzip).toBe(first.gzip);
    const other = makeEntry(text(`other bytes ${randomBytes(4).toString('hex')}`, 16), 'text/css', true);
    expect(other.br).not.toBe(first.br);
  });
});

describe('EncodingCache', () => {
  it('keeps encodings up to its size, dropping the oldest first, and never keeps one larger than the bound', () => {
    const bodies = [1, 2, 3].map(() => randomBytes(3_000));
    const [a, b, c] = bodies as [Buffer, Buffer, Buffer];
    // Random bytes do not compress: each body's two encodings take a little over 6,000 bytes.
    const cache = new EncodingCache(13_000);
    const first = cache.encodings(a, strongEtag(a));
    expect(cache.encodings(a, strongEtag(a))).toBe(first);
    cache.encodings(b, strongEtag(b));
    expect(cache.size).toBe(2);
    cache.encodings(c, strongEtag(c));
    expect(cache.size).toBe(2);
    // a was the oldest: it is made again (a new object), b is still kept.
    expect(cache.encodings(a, strongEtag(a))).not.toBe(first);
    const huge = randomBytes(20_000);
    const made = cache.encodings(huge, strongEtag(huge));
    expect(brotliDecompressSync(made.br)).toEqual(huge);
    expect(cache.encodings(huge, strongEtag(huge))).not.toBe(made);
  });
});
