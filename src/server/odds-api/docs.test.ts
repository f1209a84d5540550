import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_ANCHORS, PLANS } from '#domain/plans.ts';
import { buildTestApp } from '#tests/support/server/app.ts';

let app: FastifyInstance;
/** Every /v1 route the app registered, as OpenAPI writes it: `GET /v1/events/{eventId}`. */
const v1Routes = new Set<string>();

beforeAll(async () => {
  app = await buildTestApp({
    onRoute(route) {
      if (!route.url.startsWith('/v1') || route.method === 'HEAD') return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method !== 'HEAD') v1Routes.add(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
      }
    },
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document listing every /v1 route and nothing outside /v1', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(doc));
    const documented = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths as Record<string, object>)) {
      for (const method of Object.keys(methods)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    expect(v1Routes.size).toBeGreaterThanOrEqual(9);
    expect([...documented].sort()).toEqual([...v1Routes].sort());
  });

  it('documents the API key scheme, per-status problem responses and query filters', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
    });
    const odds = doc.paths['/v1/odds'].get;
    expect(odds.security).toEqual([{ ApiKey: [] }]);
    expect(Object.keys(odds.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '429']));
    expect(odds.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['league', 'event', 'markets', 'books', 'main']),
    );
    expect(Object.keys(doc.paths['/v1/events/{eventId}/movement'].get.responses)).toContain('403');
  });
});

describe('the odds-history operations', () => {
  it('are documented with parameters, plan refusals and examples', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const movement = doc.paths['/v1/events/{eventId}/movement'].get;
    const lines = doc.paths['/v1/events/{eventId}/lines'].get;
    const clv = doc.paths['/v1/clv'].post;
    const historical = doc.paths['/v1/historical/odds'].get;
    const names = (operation: { parameters: { name: string }[] }) =>
      operation.parameters.map((parameter) => parameter.name);
    expect(names(movement)).toEqual(
      expect.arrayContaining([
        'eventId',
        'market',
        'book',
        'outcome',
        'from',
        'to',
        'interval',
        'limit',
        'cursor',
      ]),
    );
    expect(names(historical)).toEqual(expect.arrayContaining(['league', 'at', 'markets', 'books']));
    for (const operation of [movement, lines, clv, historical]) {
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '403', '429']),
      );
      expect(operation.responses['200'].content['application/json'].example).toBeDefined();
    }
    expect(Object.keys(lines.responses)).toContain('404');
    expect(clv.requestBody.content['application/json'].example.bets[0]).toMatchObject({ price: '+150' });
    expect(movement.responses['200'].content['application/json'].example.series[0].points[0]).toMatchObject({
      state: 'open',
    });
    expect(historical.summary).toContain('10 requests');
  });

  it('are on /docs with their examples, at the anchors the pricing page links to', async () => {
    const html = (await app.inject({ method: 'GET', url: '/docs' })).body;
    for (const path of [
      '/v1/events/{eventId}/movement',
      '/v1/events/{eventId}/lines',
      '/v1/clv',
      '/v1/historical/odds',
    ])
      expect(html).toContain(`<code>${path}</code>`);
    expect(html).toContain('Example request body');
    expect(html).toContain('Example response');
    expect(html).toContain('&quot;clv_pct&quot;: 22.284');
    const hrefs = [
      ...Object.values(DOCS_ANCHORS),
      ...PLANS.flatMap((plan) =>
        plan.features.flatMap((feature) => (feature.docsHref ? [feature.docsHref] : [])),
      ),
    ];
    expect(hrefs.length).toBeGreaterThan(4);
    for (const href of hrefs) {
      const [page, anchor] = href.split('#');
      expect(page).toBe('/docs');
      expect(html).toContain(`id="${anchor}"`);
    }
  });
});

describe('GET /docs', () => {
  it('serves a self-contained reference page under its own CSP: no inline script, no external origin', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = response.body;
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(html).not.toMatch(/<(?:script|link)[^>]+(?:src|href)="https?:/);
    expect(html).not.toMatch(/\sstyle="/);
    for (const path of ['/v1/odds', '/v1/stream', '/v1/me', '/v1/arbs', '/v1/events/{eventId}'])
      expect(html).toContain(path);
    for (const text of [
      'X-Api-Key',
      'Retry-After',
      'RateLimit-Policy',
      'problem+json',
      'Last-Event-ID',
      'curl ',
      'EventSource',
    ]) {
      expect(html).toContain(text);
    }
    for (const asset of ['/docs/docs.css', '/docs/docs.js']) {
      expect(html).toContain(asset);
      expect((await app.inject({ method: 'GET', url: asset })).statusCode).toBe(200);
    }
  });
});
