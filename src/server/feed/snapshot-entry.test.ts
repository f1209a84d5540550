import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { strongEtag, whenCompressed } from '../http/static-files.ts';
import { FeedDemand } from './feed-demand.ts';
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
  const BROWSER = 'gzip, deflate, br, zstd';
  const API_CLIENT = 'gzip';

  it('compresses a snapshot on first demand while the feed is not read, and as it is published while it is', async () => {
    let now = 1_000_000;
    const encode = feedEncoder(() => now);

    // Nobody has asked: nothing is compressed, nor started.
    const idle = encode(body(1));
    expect(idle.etag).toBe(strongEtag(idle.body));
    expect(idle.ready).toBeUndefined();
    expect(idle.gzip).toBeUndefined();
    expect(idle.br).toBeUndefined();

    // A reader's demand starts the form it will be sent (a browser: brotli), the body's bytes.
    const first = whenCompressed(idle, BROWSER);
    expect(first).toBeInstanceOf(Promise);
    await first;
    expect(brotliDecompressSync(idle.br!).equals(idle.body)).toBe(true);
    expect(whenCompressed(idle, BROWSER)).toBeUndefined();

    // Asked for within FEED_WANTED_MS: the next snapshots are given that form as they are published.
    now += FEED_WANTED_MS - 1;
    const wanted = encode(body(2));
    expect(wanted.ready).toBeInstanceOf(Promise);
    await wanted.ready;
    expect(wanted.ready).toBeUndefined();
    expect(brotliDecompressSync(wanted.br!).equals(wanted.body)).toBe(true);

    // A reader of that one keeps the feed wanted; FEED_WANTED_MS after the last demand, it is on demand again.
    expect(whenCompressed(wanted, BROWSER)).toBeUndefined();
    now += FEED_WANTED_MS - 1;
    expect(encode(body(3)).ready).toBeInstanceOf(Promise);
    now += FEED_WANTED_MS;
    const later = encode(body(4));
    expect(later.ready).toBeUndefined();
    expect(later.br).toBeUndefined();
    expect(later.gzip).toBeUndefined();
  });

  it('makes only the forms its readers take: no brotli copy while only gzip readers come (decision 315)', async () => {
    let now = 2_000_000;
    const asked: boolean[] = [];
    const encode = feedEncoder(
      () => now,
      new FeedDemand({ now: () => now, wantedMs: FEED_WANTED_MS, onChange: (wanted) => asked.push(wanted) }),
    );

    // An API client asks for gzip: that form alone is made, on this snapshot and on the ones published after it.
    const first = encode(body(1));
    await whenCompressed(first, API_CLIENT);
    expect(gunzipSync(first.gzip!).equals(first.body)).toBe(true);
    expect(first.br).toBeUndefined();
    now += 250;
    const next = encode(body(2));
    await next.ready;
    expect(gunzipSync(next.gzip!).equals(next.body)).toBe(true);
    expect(next.br).toBeUndefined();

    // A browser comes: it waits for the brotli form of this snapshot only; from then on both are made at publish.
    const browserWait = whenCompressed(next, BROWSER);
    expect(browserWait).toBeInstanceOf(Promise);
    await browserWait;
    expect(brotliDecompressSync(next.br!).equals(next.body)).toBe(true);
    now += 250;
    const both = encode(body(3));
    await both.ready;
    expect(gunzipSync(both.gzip!).equals(both.body)).toBe(true);
    expect(brotliDecompressSync(both.br!).equals(both.body)).toBe(true);

    // The browser leaves; FEED_WANTED_MS after its last read, snapshots are given gzip only again.
    now += FEED_WANTED_MS / 2;
    await whenCompressed(encode(body(4)), API_CLIENT);
    now += FEED_WANTED_MS / 2;
    const gzipOnly = encode(body(5));
    await gzipOnly.ready;
    expect(gzipOnly.gzip).toBeDefined();
    expect(gzipOnly.br).toBeUndefined();

    // A reader taking the body as it is (no Accept-Encoding) makes no form, but the feed is wanted all the same.
    now += 2 * FEED_WANTED_MS;
    const plain = encode(body(6));
    expect(whenCompressed(plain, undefined)).toBeUndefined();
    expect(plain.ready).toBeUndefined();
    expect(plain.gzip).toBeUndefined();
    expect(plain.br).toBeUndefined();
    expect(asked).toEqual([true]);
  });
});
