import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { buildApp } from '../app.ts';
import type { OddsSource } from '#engine/sources/index.ts';
import { buildTestApp, fixedBoard, TEST_PLUGIN_TIMEOUT_MS } from '#tests/support/server/app.ts';
import { testConfig } from '#tests/support/server/config.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';

describe('GET /tools/arbs.json', () => {
  // The simulator app lives for this block only: its market (props on) keeps a core busy, and the blocks below build
  // apps of their own in this process, which beside it started up to 40× slower in CI.
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildApp({
      // The calendar pinned (decision 230) to a Sunday afternoon: props are posted 3 hours before a start, so at an
      // hour with no game that near (a weekday morning) the board would have none.
      config: testConfig({
        SIM_SEED: '7',
        SIM_START: '2026-11-22T18:30:00Z',
        SIM_PROPS: 'true',
        CORS_ORIGINS: 'https://partner.example',
      }),
      log: false,
      pluginTimeout: TEST_PLUGIN_TIMEOUT_MS,
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers a schema-valid simulator feed sorted by edge_pct descending', async () => {
    const response = await app.inject({ method: 'GET', url: '/tools/arbs.json?t=1763770000000' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const feed = ArbFeedSchema.parse(response.json());
    expect(feed.source).toBe('simulator');
    expect(feed.arbs.length).toBeGreaterThan(0);
    // Player props beside the game lines (issue 15), each labelled by its player, stat and line.
    const props = feed.arbs.filter((arb) => arb.market_type === 'prop');
    expect(props.length).toBeGreaterThan(0);
    expect(feed.arbs.some((arb) => arb.market_type !== 'prop')).toBe(true);
    for (const arb of props)
      expect(arb.market).toMatch(/^\S.* (Over\/Under \d+\.5|Anytime \w+|Double-Double)$/);
    const edges = feed.arbs.map((arb) => arb.edge_pct);
    expect(edges).toEqual([...edges].sort((a, b) => b - a));
    expect(Math.abs(feed.generated_at - Date.now() / 1000)).toBeLessThan(120);
  });

  it('allows the site origin and CORS_ORIGINS cross-origin, and no other', async () => {
    const site = await app.inject({
      method: 'GET',
      url: '/tools/arbs.json',
      headers: { origin: 'https://example.test' },
    });
    expect(site.headers['access-control-allow-origin']).toBe('https://example.test');
    const partner = await app.inject({
      method: 'GET',
      url: '/tools/arbs.json',
      headers: { origin: 'https://partner.example' },
    });
    expect(partner.headers['access-control-allow-origin']).toBe('https://partner.example');
    const other = await app.inject({
      method: 'GET',
      url: '/tools/arbs.json',
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(other.headers.vary)).toContain('Origin');
  });

  it('reports the engine in /readyz with its drop counters', async () => {
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    const body = response.json() as {
      checks: Record<string, { ok: boolean; details: Record<string, unknown> }>;
    };
    expect(body.checks.engine!.ok).toBe(true);
    expect(body.checks.engine!.details).toMatchObject({ source: 'simulator' });
    // The simulator's only drops are the props one book names by a surname two players of the game share, which the
    // engine refuses on purpose (decision 122): nothing else it sends is dropped.
    const drops = body.checks.engine!.details.drops as Record<string, number>;
    const details = body.checks.engine!.details as { dropped: number };
    expect(drops.ambiguous_player).toBeGreaterThan(0);
    expect(details.dropped).toBe(drops.ambiguous_player);
    expect(drops).toMatchObject({ bad_link: 0, invalid_odds: 0, unknown_player: 0, unknown_market: 0 });
  });

  it('gives the snapshots it publishes only the compressed forms its readers take (decision 315)', async () => {
    /** The next snapshot published after now, with the forms made at its publication filled in. */
    const nextSnapshot = async () => {
      const before = app.engine.latest;
      const deadline = Date.now() + 10_000;
      while (app.engine.latest === before) {
        if (Date.now() > deadline) throw new Error('no snapshot published within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const entry = app.engine.latest!.encoded;
      await entry.ready;
      return entry;
    };
    /** The encoding a reader sending this Accept-Encoding is answered in. */
    const readAs = async (acceptEncoding: string) =>
      (
        await app.inject({
          method: 'GET',
          url: '/tools/arbs.json',
          headers: { 'accept-encoding': acceptEncoding },
        })
      ).headers['content-encoding'];
    // An API client reading gzip: the snapshots published after it get a gzip form and no brotli one.
    expect(await readAs('gzip')).toBe('gzip');
    const gzipOnly = await nextSnapshot();
    expect(gunzipSync(gzipOnly.gzip!).equals(gzipOnly.body)).toBe(true);
    expect(gzipOnly.br).toBeUndefined();
    // A browser comes too: from the next snapshot on, both forms are made as it is published.
    expect(await readAs('gzip, deflate, br')).toBe('br');
    const both = await nextSnapshot();
    expect(gunzipSync(both.gzip!).equals(both.body)).toBe(true);
    expect(brotliDecompressSync(both.br!).equals(both.body)).toBe(true);
  });
});

describe('GET /tools/arbs.json of an unchanging board', () => {
  let fixed: FastifyInstance;
  beforeAll(async () => {
    fixed = await buildTestApp({ source: fixedBoard });
    await fixed.ready();
  });
  afterAll(async () => {
    await fixed.close();
  });

  it('ignores t: any value gives the same bytes and ETag', async () => {
    const snapshot = fixed.engine.latest!.encoded;
    const urls = ['/tools/arbs.json?t=1', `/tools/arbs.json?t=${'9'.repeat(40)}&x=y`, '/tools/arbs.json'];
    for (const url of urls) {
      const response = await fixed.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers.etag).toBe(snapshot.etag);
      expect(response.rawPayload.equals(snapshot.body)).toBe(true);
    }
  });

  it('answers 304 with no body when If-None-Match carries the current ETag, 200 otherwise', async () => {
    const first = await fixed.inject({ method: 'GET', url: '/tools/arbs.json' });
    const etag = String(first.headers.etag);
    const again = await fixed.inject({
      method: 'GET',
      url: '/tools/arbs.json',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.body).toBe('');
    const stale = await fixed.inject({
      method: 'GET',
      url: '/tools/arbs.json',
      headers: { 'if-none-match': '"nope"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers.etag).toBe(etag);
  });

  it('negotiates brotli, gzip and identity, each the same snapshot bytes', async () => {
    const entry = fixed.engine.latest!.encoded;
    const decoded: Buffer[] = [];
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await fixed.inject({
        method: 'GET',
        url: '/tools/arbs.json',
        headers: { 'accept-encoding': encoding },
      });
      expect(response.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      expect(String(response.headers.vary)).toContain('Accept-Encoding');
      expect(response.headers.etag).toBe(entry.etag);
      decoded.push(
        encoding === 'br'
          ? brotliDecompressSync(response.rawPayload)
          : encoding === 'gzip'
            ? gunzipSync(response.rawPayload)
            : response.rawPayload,
      );
    }
    for (const body of decoded) expect(body.equals(entry.body)).toBe(true);
    expect(ArbFeedSchema.parse(JSON.parse(entry.body.toString('utf8'))).arbs).toHaveLength(1);
  });
});

describe('GET /tools/arbs.json before the first snapshot', () => {
  it('answers 503 problem+json with Retry-After', async () => {
    const silent: OddsSource = { name: 'replay', start() {}, stop() {} };
    const app = await buildTestApp({ source: silent });
    await app.ready();
    try {
      const response = await app.inject({ method: 'GET', url: '/tools/arbs.json' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 503, type: expect.stringContaining('feed-not-ready') });
      const ready = await app.readiness.run();
      expect(ready.checks.engine!.ok).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe('engine plugin', () => {
  it('starts the source when the app is ready and stops it and the engine on close', async () => {
    const calls: string[] = [];
    const source: OddsSource = {
      name: 'replay',
      start(context) {
        calls.push('start');
        context.ready();
      },
      stop() {
        calls.push('stop');
      },
    };
    const app = await buildTestApp({ source });
    expect(calls).toEqual([]);
    await app.ready();
    expect(calls).toEqual(['start']);
    expect(app.engine.running).toBe(true);
    expect(app.engine.latest?.encoded.etag).toMatch(/^"/);
    await app.close();
    expect(calls).toEqual(['start', 'stop']);
    expect(app.engine.running).toBe(false);
  });
});

describe('engine plugin configuration', () => {
  async function feedWith(env: Record<string, string>) {
    const app = await buildTestApp({ config: trialTestConfig(env), source: fixedBoard });
    await app.ready();
    try {
      const response = await app.inject({ method: 'GET', url: '/tools/arbs.json' });
      return ArbFeedSchema.parse(response.json());
    } finally {
      await app.close();
    }
  }

  it('publishes near-arbs down to ARB_FLOOR_PCT (default −1 %) and not below it', async () => {
    expect((await feedWith({})).arbs.map((arb) => arb.edge_pct)).toEqual([-0.972]);
    expect((await feedWith({ ARB_FLOOR_PCT: '-0.5' })).arbs).toEqual([]);
  });
});
