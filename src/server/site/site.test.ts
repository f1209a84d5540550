import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MANAGE_SUBSCRIPTION_META, ROUTES, WHEN_SUBSCRIPTIONS_MANAGED } from '#domain/site.ts';
import { inlineStyleHashes, PAGE_PATHS, pageCsp, pageForServer } from './plugin.ts';
import { fixedBoard } from '#tests/support/server/app.ts';
import { testConfig } from '#tests/support/server/config.ts';

let app: FastifyInstance;

beforeAll(async () => {
  // A fixed board, not the default simulator: these tests read pages and probes, and a live market would keep a core
  // of this process busy beside them for the whole file (decision 183).
  app = await buildApp({ config: testConfig(), log: false, source: fixedBoard });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const PAGES = [
  { path: '/', jsonLd: ['Organization', 'WebSite'] },
  { path: '/betting-tools/arbitrage', jsonLd: ['WebApplication'] },
  { path: '/sports-betting-api', jsonLd: ['Product'] },
] as const;

function jsonLdTypes(html: string): string[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => (JSON.parse(match[1]!) as { '@type': string })['@type'],
  );
}

describe('GET the three pages', () => {
  it.each(PAGES)('serves $path as prerendered HTML with its own head tags', async ({ path, jsonLd }) => {
    const response = await app.inject({ method: 'GET', url: path });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toMatch(/<title>[^<]{10,}<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
    expect(html).toMatch(/<meta name="keywords" content="[^"]+"/);
    expect(html).toContain(`<link rel="canonical" href="https://example.test${path}"`);
    expect(html).toContain(`<meta property="og:url" content="https://example.test${path}"`);
    expect(html).toContain('<meta property="og:image" content="https://example.test/og-image.png"');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
    expect(jsonLdTypes(html)).toEqual(jsonLd);
    expect(html).not.toContain('https://sharpline.io/');
  });

  it('gives each page a different title and description', async () => {
    const heads = await Promise.all(PAGES.map(({ path }) => app.inject({ url: path })));
    const titles = heads.map((response) => /<title>([^<]*)<\/title>/.exec(response.body)?.[1]);
    expect(new Set(titles).size).toBe(3);
  });

  it('asks browsers to revalidate HTML and answers 304 to a matching ETag', async () => {
    const first = await app.inject({ url: '/sports-betting-api' });
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const second = await app.inject({ url: '/sports-betting-api', headers: { 'if-none-match': etag } });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
  });

  it('compresses with brotli or gzip as the client asks', async () => {
    const plain = await app.inject({ url: '/' });
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(gzip.headers.vary).toContain('Accept-Encoding');
  });

  it('sends the security headers, with a CSP that allows exactly the page inline scripts', async () => {
    const response = await app.inject({ url: '/' });
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("'unsafe-inline' 'sha256"); // scripts are allowed by hash, never unsafe-inline
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+/);
    expect(response.headers['strict-transport-security']).toContain('max-age=');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('inlines the site stylesheet in every page and allows that style element by its hash, never unsafe-inline', async () => {
    for (const path of [
      ...PAGES.map((page) => page.path),
      '/betting-tools/positive-ev',
      '/betting-tools/middles',
      '/betting-tools/bet-tracker',
      '/account',
      '/404',
    ]) {
      const response = await app.inject({ url: path });
      const html = response.body;
      const styles = [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
      expect(styles).toHaveLength(1);
      expect(styles[0]!.length).toBeGreaterThan(10_000); // the whole stylesheet, not a stub
      expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
      const csp = response.headers['content-security-policy'] as string;
      const hash = createHash('sha256').update(styles[0]!).digest('base64');
      expect(/(?:^|; )style-src ([^;]+)/.exec(csp)?.[1]).toBe(`'self' 'sha256-${hash}'`);
      expect(csp).toContain("style-src-attr 'unsafe-inline'"); // React style attributes, not elements
    }
  });

  it('starts every page’s scripts after its first paint: no module preload, no static import (decision 186)', async () => {
    for (const path of [
      ...PAGES.map((page) => page.path),
      '/betting-tools/positive-ev',
      '/betting-tools/middles',
      '/betting-tools/bet-tracker',
      '/account',
      '/404',
    ]) {
      const html = (await app.inject({ url: path })).body;
      expect(html).not.toContain('rel="modulepreload"');
      const scripts = [...html.matchAll(/<script type="module"[^>]*>([\s\S]*?)<\/script>/g)].map(
        (m) => m[1]!,
      );
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).not.toMatch(/^\s*import\s*["*{]/m);
      expect(scripts[0]).toContain('requestAnimationFrame(() => setTimeout(start, 0))');
      // The chunks are still asked for at once (as preloads made then), the entry among them.
      expect(scripts[0]).toMatch(/for \(const href of \[[^\]]*"\/assets\/entry\.client-[^"]+\.js"/);
    }
  });

  it('hashes each inline style element of a page into its CSP, so a changed or added one is refused', () => {
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(inlineStyleHashes('<style>a{}</style><style data-x="">b{}</style><style>a{}</style>')).toEqual([
      sha('a{}'),
      sha('b{}'),
    ]);
    expect(pageCsp('<p style="color:red">x</p>')).toContain("style-src 'self';");
    expect(pageCsp('<style>a{}</style>')).toContain(`style-src 'self' ${sha('a{}')};`);
    expect(pageCsp('<style>a{ }</style>')).not.toContain(sha('a{}'));
  });

  it('lets only the pricing and account pages’ forms lead to other https origins (plan forms end at Stripe’s checkout)', async () => {
    const formAction = async (path: string) =>
      /form-action ([^;]+)/.exec(
        (await app.inject({ url: path })).headers['content-security-policy'] as string,
      )?.[1];
    expect(await formAction('/sports-betting-api')).toBe("'self' https:");
    expect(await formAction('/account')).toBe("'self' https:");
    for (const path of ['/', '/betting-tools/arbitrage', '/welcome'])
      expect(await formAction(path)).toBe("'self'");
  });

  it('serves /welcome (where checkout returns a buyer) not indexed, and leaves it out of the sitemap', async () => {
    const response = await app.inject({ url: '/welcome?session_id=cs_test_abc' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<meta name="robots" content="noindex"');
    expect(response.body).not.toContain('rel="canonical"');
    expect((await app.inject({ url: '/sitemap.xml' })).body).not.toContain('/welcome');
  });

  it('serves /account (self-service with a key) not indexed, with the key form, and leaves it out of the sitemap', async () => {
    const response = await app.inject({ url: '/account' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<meta name="robots" content="noindex"');
    expect(response.body).not.toContain('rel="canonical"');
    expect(response.body).toContain('Paste your API key');
    expect(response.body).toContain('<meta property="og:url" content="https://example.test/account"');
    expect((await app.inject({ url: '/sitemap.xml' })).body).not.toContain('/account');
  });

  it('redirects a trailing slash to the canonical path', async () => {
    const response = await app.inject({ url: '/sports-betting-api/' });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/sports-betting-api');
  });
});

// Decision 298: a server that manages no subscriptions (the test config: no Stripe key, no portal URL) never shows
// "Manage Subscription", not even in the HTML the browser paints before the page's script has read the site config.
describe('"Manage Subscription" decided by the server, before any script', () => {
  const SUBSCRIPTION_WORDS = ['Manage Subscription', 'Manage your subscription', 'subscription portal'];

  it.each([...PAGE_PATHS, '/no-such-page'])(
    'serves %s without it, saying so in a meta element',
    async (url) => {
      const html = (await app.inject({ url })).body;
      for (const words of SUBSCRIPTION_WORDS) expect(html).not.toContain(words);
      expect(html).not.toContain(WHEN_SUBSCRIPTIONS_MANAGED);
      expect(html).not.toContain(`href="${ROUTES.manageSubscription}"`);
      expect(html).toContain(`<meta name="${MANAGE_SUBSCRIPTION_META}" content="none"/></head>`);
      // The rest of the footer and the pricing page's sentence are still there.
      expect(html).toContain('Your Account');
      if (url === ROUTES.pricing) expect(html).toMatch(/<span>Billed monthly<\/span>\.<\/p>/);
    },
  );

  it('keeps the footer link and the pricing section where the server manages subscriptions (the build as it is)', () => {
    for (const page of [ROUTES.home, ROUTES.pricing]) {
      const file = path.resolve('build/client', page === '/' ? '' : page.slice(1), 'index.html');
      const built = readFileSync(file, 'utf8');
      for (const mode of ['portal', 'email'] as const) {
        const served = pageForServer(built, mode);
        expect(served).toBe(
          built.replace('</head>', `<meta name="${MANAGE_SUBSCRIPTION_META}" content="${mode}"/></head>`),
        );
        expect(served).toContain(`href="${ROUTES.manageSubscription}">Manage Subscription</a>`);
      }
      // Every marked element goes whole: the page still ends, and no marker or its words are left.
      const none = pageForServer(built, 'none');
      expect(none.match(/<\/(html|body|footer|nav|ul|main)>/g)).toEqual(
        built.match(/<\/(html|body|footer|nav|ul|main)>/g),
      );
      expect(none).not.toContain('Manage Subscription');
    }
    const pricing = readFileSync(path.resolve('build/client/sports-betting-api/index.html'), 'utf8');
    expect(pricing).toContain('cancel any time from the subscription portal');
    expect(pageForServer(pricing, 'none')).not.toContain('subscription portal');
    expect(pageForServer(pricing, 'none')).not.toContain('Email me a portal link');
  });
});

describe('GET hashed assets', () => {
  it('serves every script the home page references, immutable and compressed', async () => {
    const html = (await app.inject({ url: '/' })).body;
    // The module script's loader names every chunk as a string (decision 186).
    const scripts = [...html.matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(3);
    for (const script of new Set(scripts)) {
      const response = await app.inject({ url: script, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode, script).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    }
  });
});

describe('unknown paths', () => {
  it.each([
    '/nope',
    '/betting-tools',
    '/sports-betting-api/extra',
    '/404',
    '/index.html',
    '/__spa-fallback.html',
  ])('answers %s with the site 404 page and status 404', async (url) => {
    const response = await app.inject({ url, headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('Page not found');
    expect(response.body).toContain('<meta name="robots" content="noindex"');
  });

  it.each([
    '/..%2f..%2fetc/passwd',
    '/../../etc/passwd',
    '/assets/..%2f..%2f..%2fpackage.json',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/assets/%00',
    '/.env',
  ])('never reads outside the build for %s', async (url) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('root:');
    expect(response.body).not.toContain('"name": "sharpline"');
  });

  it('answers unknown API paths with problem+json', async () => {
    const response = await app.inject({ url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 404, title: 'Not found' });
  });
});

describe('bad requests', () => {
  it('answers a malformed JSON body with a 400 problem, never a crash', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/trial-requests',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 400 });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers an oversized body with a 413 problem', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/trial-requests',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'A', email: 'a@example.com', message: 'x'.repeat(200 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 413 });
  });

  it('answers a method the route does not have with 404 and keeps serving', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/' });
    expect(response.statusCode).toBe(404);
    expect((await app.inject({ url: '/' })).statusCode).toBe(200);
  });
});

describe('GET /robots.txt and /sitemap.xml', () => {
  it('lists the seven pages and the API reference (/docs) on SITE_URL', async () => {
    const sitemap = await app.inject({ url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    for (const path of [
      '/',
      '/betting-tools/arbitrage',
      '/betting-tools/positive-ev',
      '/betting-tools/middles',
      '/betting-tools/bet-tracker',
      '/sports-betting-api',
      '/docs',
    ]) {
      expect(sitemap.body).toContain(`<loc>https://example.test${path}</loc>`);
    }
    const robots = await app.inject({ url: '/robots.txt' });
    expect(robots.body).toContain('Sitemap: https://example.test/sitemap.xml');
    expect(robots.body).toMatch(/^User-agent: \*$/m);
  });
});

describe('GET /healthz and /readyz', () => {
  it('reports liveness', async () => {
    const live = await app.inject({ url: '/healthz' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
  });

  it('reports ready (200) once the database answers and the engine has published', async () => {
    await vi.waitFor(async () => expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200), {
      timeout: 10_000,
      interval: 50,
    });
    const ready = (await app.inject({ url: '/readyz' })).json();
    expect(ready.checks).toMatchObject({ database: { ok: true }, engine: { ok: true } });
  });
});
