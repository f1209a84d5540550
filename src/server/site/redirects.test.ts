import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '#tests/support/server/app.ts';

// A page's path with a trailing slash redirects to the canonical path (src/server/site/plugin.ts) on the app users
// run, with a stand-in site build (the pages' content does not matter here). Issue 55: the redirect kept no query
// string, so Stripe's return to `/welcome/?session_id=…` lost the session; it must never lead off the site.

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp();
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('GET a page with a trailing slash', () => {
  it('redirects 301 to the canonical path and keeps the query string as it came', async () => {
    const cases: [string, string][] = [
      ['/welcome/?session_id=cs_test_a1B2c3', '/welcome?session_id=cs_test_a1B2c3'],
      [
        '/sports-betting-api/?email=ada%2Btrial%40example.com&plan=pro#plans',
        '/sports-betting-api?email=ada%2Btrial%40example.com&plan=pro',
      ],
      ['/account/?a=1&a=2&empty=&flag', '/account?a=1&a=2&empty=&flag'],
      ['/welcome/', '/welcome'],
      ['/welcome/?', '/welcome'],
    ];
    for (const [url, location] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(301);
      expect(response.headers.location, url).toBe(location);
    }
    // The target answers the page.
    expect((await get('/welcome?session_id=cs_test_a1B2c3')).statusCode).toBe(200);
  });

  it('never leads off the site: the target is always the page itself, whatever the path or the query holds', async () => {
    const onSite = /^\/(?![/\\])/;
    for (const url of [
      '/welcome/?next=//evil.example/',
      '/welcome/?//evil.example',
      '/welcome/?%0d%0aLocation:%20https://evil.example/',
      '/welcome/?q=caf%C3%A9',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(301);
      expect(response.headers.location, url).toMatch(/^\/welcome\?/);
      expect(response.headers.location, url).toMatch(onSite);
      expect(response.headers.location, url).not.toMatch(/[\r\n]/);
    }
    // Paths that are not a page's with a slash are not redirected at all.
    for (const url of ['//evil.example/', '//evil.example/?a=1', '/%2Fevil.example/', '//welcome/']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers.location, url).toBeUndefined();
    }
  });
});
