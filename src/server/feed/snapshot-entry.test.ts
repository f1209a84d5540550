import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { strongEtag, whenCompressed } from '../http/static-files.ts';
import { FEED_WANTED_MS, feedEncoder, snapshotEntry } from './plugin.ts';

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

describe('feedEncoder (issue 59: no compressed copy nobody reads)', () => {
  const body = (n: number) =>
    Buffer.from(JSON.stringify({ generated_at: n, arbs: Array.from({ length: 200 }, (_, i) => i) }));

  it('compresses a snapshot on first demand while the feed is not read, and as it is published while it is', async () => {
    let now = 1_000_000;
    const encode = feedEncoder(() => now);

    // Nobody has asked: nothing is compressed, nor started.
    const idle = encode(body(1));
    expect(idle.etag).toBe(strongEtag(idle.body));
    expect(idle.ready).toBeUndefined();
    expect(idle.gzip).toBeUndefined();
    expect(idle.br).toBeUndefined();

    // A reader's demand starts it; both forms are the body's bytes.
    const first = whenCompressed(idle);
    expect(first).toBeInstanceOf(Promise);
    await first;
    expect(gunzipSync(idle.gzip!).equals(idle.body)).toBe(true);
    expect(brotliDecompressSync(idle.br!).equals(idle.body)).toBe(true);
    expect(whenCompressed(idle)).toBeUndefined();

    // Asked for within FEED_WANTED_MS: the next snapshots are compressed as they are published.
    now += FEED_WANTED_MS - 1;
    const wanted = encode(body(2));
    expect(wanted.ready).toBeInstanceOf(Promise);
    await wanted.ready;
    expect(gunzipSync(wanted.gzip!).equals(wanted.body)).toBe(true);

    // A reader of that one keeps the feed wanted; FEED_WANTED_MS after the last demand, it is on demand again.
    expect(whenCompressed(wanted)).toBeUndefined();
    now += FEED_WANTED_MS - 1;
    expect(encode(body(3)).ready).toBeInstanceOf(Promise);
    now += FEED_WANTED_MS;
    const later = encode(body(4));
    expect(later.ready).toBeUndefined();
    expect(later.gzip).toBeUndefined();
  });
});
