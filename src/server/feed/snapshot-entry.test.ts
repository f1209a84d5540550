import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { strongEtag } from '../http/static-files.ts';
import { snapshotEntry } from './plugin.ts';

describe('snapshotEntry', () => {
  it('returns the body and ETag at once and fills gzip and brotli off the event loop, the same bytes', async () => {
    const body = Buffer.from(
      JSON.stringify({ generated_at: 1, arbs: Array.from({ length: 200 }, (_, i) => i) }),
    );
    const entry = snapshotEntry(body);
    expect(entry.body).toBe(body);
    expect(entry.etag).toBe(strongEtag(body));
    // Compression runs on zlib's thread pool: nothing is encoded synchronously.
    expect(entry.ready).toBeInstanceOf(Promise);
    expect(entry.gzip).toBeUndefined();
    expect(entry.br).toBeUndefined();
    await entry.ready;
    expect(entry.ready).toBeUndefined();
    expect(gunzipSync(entry.gzip!).equals(body)).toBe(true);
    expect(brotliDecompressSync(entry.br!).equals(body)).toBe(true);
    expect(entry.gzip!.length).toBeLessThan(body.length);
  });
});
