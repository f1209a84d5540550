import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { coverage } from '#domain/coverage.ts';
import { devigImplied, type DevigMethod } from '#domain/devig.ts';
import { GRADING_RULES } from '#domain/grading.ts';
import { DOCS_ANCHORS, PLANS } from '#domain/plans.ts';
import { FOOTER_NAV, HEADER_NAV } from '#domain/site-nav.ts';
import { SPORTSBOOK_KEYS, SPORTSBOOKS } from '#domain/sportsbooks.ts';
import {
  MeResponseSchema,
  RotationResponseSchema,
  UsageResponseSchema,
} from '#domain/schemas/api/account.ts';
import { LeaguesResponseSchema, ProblemSchema, SportsResponseSchema } from '#domain/schemas/api/common.ts';
import {
  ARBS_EXAMPLE,
  CLV_REQUEST_EXAMPLE,
  CLV_RESPONSE_EXAMPLE,
  EVENT_EXAMPLE,
  EVENTS_EXAMPLE,
  LEAGUES_EXAMPLE,
  LINES_EXAMPLE,
  ME_EXAMPLE,
  ROTATION_EXAMPLE,
  USAGE_EXAMPLE,
  ODDS_EXAMPLE,
  SGP_RESPONSE_EXAMPLE,
  SPORTS_EXAMPLE,
} from '#domain/schemas/api/examples.ts';
import {
  ArbsResponseSchema,
  EventResponseSchema,
  EventsResponseSchema,
  OddsResponseSchema,
} from '#domain/schemas/api/odds.ts';
import { ClvRequestSchema, ClvResponseSchema, LinesResponseSchema } from '#domain/schemas/api/history.ts';
import { API_PROBLEMS, problemExample } from '#domain/schemas/api/problems.ts';
import { SgpResponseSchema } from '#domain/schemas/api/sgp.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import { KEY_PLACEHOLDER, QUICKSTART_PATHS, renderDocs } from './docs.ts';
import { COMPONENT_ORDER } from './plugin.ts';

let app: FastifyInstance;
/** A near-arb floor and a suspect ceiling other than the defaults: /docs states this server's. */
const config = trialTestConfig({ ARB_FLOOR_PCT: '-0.75', ARB_MAX_EDGE_PCT: '12.5' });
/** Every /v1 route the app registered, as OpenAPI writes it: `GET /v1/events/{eventId}`. */
const v1Routes = new Set<string>();

beforeAll(async () => {
  app = await buildTestApp({
    config,
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
    // HEAD is documented where it is more than GET without a body: the stream's, which opens no stream.
    expect([...documented].sort()).toEqual([...v1Routes, 'HEAD /v1/stream'].sort());
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

  type Responses = Record<string, { description: string; content: Record<string, { example?: unknown }> }>;
  const operationsOf = (doc: { paths: Record<string, Record<string, { responses: Responses }>> }) =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ name: `${method} ${path}`, operation })),
    );

  it('describes every response in words and gives each an example', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThanOrEqual(13);
    for (const { name, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        // HEAD's success and a 304 have headers and no body.
        if ((name.startsWith('head ') && status === '200') || status === '304') {
          expect(response.content, name).toBeUndefined();
          continue;
        }
        expect(response.description, `${name} ${status}`).not.toMatch(
          /^(Default Response|text\/event-stream)$/,
        );
        expect(response.description.length, `${name} ${status}`).toBeGreaterThan(20);
        const media = Object.values(response.content);
        expect(media, `${name} ${status}`).toHaveLength(1);
        expect(media[0]!.example, `${name} ${status}`).toBeDefined();
      }
    }
    const stream = doc.paths['/v1/stream'].get.responses['200'];
    expect(Object.keys(stream.content)).toEqual(['text/event-stream']);
    expect(stream.content['text/event-stream'].example).toMatch(/^event: snapshot\ndata: \{/m);
    expect(doc.paths['/v1/odds'].get.responses['200'].content['application/json'].example).toEqual(
      ODDS_EXAMPLE,
    );
  });

  it('documents each error as problem+json with an example of a problem its description names', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const byCode = new Map(API_PROBLEMS.map((problem) => [problem.code, problem]));
    let errors = 0;
    for (const { name, operation } of operationsOf(doc)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        errors++;
        const media = response.content['application/problem+json'];
        expect(media, `${name} ${status}`).toBeDefined();
        const example = ProblemSchema.parse(media!.example);
        const code = example.type.replace('https://sharpline.io/problems/', '');
        expect(example.status, `${name} ${status}`).toBe(Number(status));
        expect(response.description, `${name} ${status}`).toContain(`\`${code}\``);
        expect(example).toEqual(problemExample(byCode.get(code)!));
      }
    }
    expect(errors).toBeGreaterThan(40);
    expect(
      doc.paths['/v1/stream'].get.responses['429'].content['application/problem+json'].example.type,
    ).toBe('https://sharpline.io/problems/stream-limit');
  });

  it('lists its named schemas in COMPONENT_ORDER, request sides first, whatever order their modules loaded in', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const names = Object.keys(doc.components.schemas);
    const ordered = [...COMPONENT_ORDER.map((name) => `${name}Input`), ...COMPONENT_ORDER];
    expect(names).toEqual(ordered.filter((name) => names.includes(name)));
    expect(names).toEqual(expect.arrayContaining(COMPONENT_ORDER));
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
    // An opening first recorded after the start is marked, and gives no OLV but a reason (docs/decisions/161).
    const schemas = doc.components.schemas;
    expect(schemas.OpeningLine.properties.in_play).toMatchObject({ type: 'boolean' });
    expect(schemas.OpeningLine.properties.in_play.description).toContain('in-play price');
    expect(schemas.OpeningLine.required).toContain('in_play');
    expect(schemas.ClvResult.properties.olv_reason.anyOf[0]).toMatchObject({
      enum: ['opening_in_play', 'no_opening_line', 'zero_fair_probability'],
    });
    // The de-vig method and the reference are parameters, each fair names them and carries its inputs (decision 164).
    expect(names(lines)).toEqual(expect.arrayContaining(['devig', 'reference']));
    const lineParameter = (name: string) =>
      lines.parameters.find((parameter: { name: string }) => parameter.name === name).schema;
    expect(lineParameter('devig').enum).toEqual(['multiplicative', 'additive', 'power', 'shin']);
    expect(lineParameter('reference').enum).toEqual(expect.arrayContaining(['consensus', 'sharp', 'circa']));
    expect(Object.keys(schemas.Fair.properties)).toEqual(
      expect.arrayContaining([
        'reference',
        'reference_fallback',
        'method',
        'books',
        'implied',
        'probabilities',
      ]),
    );
    expect(clv.responses['200'].content['application/json'].example.results[1]).toMatchObject({
      olv_pct: null,
      olv_reason: 'opening_in_play',
    });
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
    // The example bet: +150 (2.5) on the home side, whose fair closing probability is fanduel's close (home 1.9523,
    // away 1.8695) de-vigged by Shin's method, which on two outcomes takes half the overround from each.
    const overround = 1 / 1.9523 + 1 / 1.8695 - 1;
    const clv = Math.round((2.5 * (1 / 1.9523 - overround / 2) - 1) * 100 * 1000) / 1000;
    expect(html).toContain(`&quot;clv_pct&quot;: ${clv}`);
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

describe('the examples', () => {
  it('are valid answers of the schemas they document', () => {
    const pairs: [z.ZodType, unknown][] = [
      [SportsResponseSchema, SPORTS_EXAMPLE],
      [LeaguesResponseSchema, LEAGUES_EXAMPLE],
      [EventsResponseSchema, EVENTS_EXAMPLE],
      [EventResponseSchema, EVENT_EXAMPLE],
      [OddsResponseSchema, ODDS_EXAMPLE],
      [ArbsResponseSchema, ARBS_EXAMPLE],
      [MeResponseSchema, ME_EXAMPLE],
      [UsageResponseSchema, USAGE_EXAMPLE],
      [RotationResponseSchema, ROTATION_EXAMPLE],
      [SgpResponseSchema, SGP_RESPONSE_EXAMPLE],
      [LinesResponseSchema, LINES_EXAMPLE],
      [ClvRequestSchema, CLV_REQUEST_EXAMPLE],
      [ClvResponseSchema, CLV_RESPONSE_EXAMPLE],
    ];
    for (const [schema, example] of pairs) expect(schema.safeParse(example).error).toBeUndefined();
  });

  it('give fair probabilities that their inputs give by their method (decision 164)', () => {
    const fairs = [
      LINES_EXAMPLE.markets[0]!.fair.opening,
      LINES_EXAMPLE.markets[0]!.fair.closing,
      CLV_RESPONSE_EXAMPLE.results[0]!.fair_closing!,
      ...SGP_RESPONSE_EXAMPLE.legs.map((leg) => leg.fair),
    ];
    for (const fair of fairs) {
      const outcomes = Object.keys(fair.implied);
      const recomputed = devigImplied(
        outcomes.map((outcome) => fair.implied[outcome]!),
        fair.method as DevigMethod,
      );
      outcomes.forEach((outcome, index) =>
        expect(fair.probabilities[outcome]).toBeCloseTo(recomputed[index]!, 6),
      );
    }
    for (const leg of SGP_RESPONSE_EXAMPLE.legs) {
      expect(leg.fair.probabilities[leg.outcome]).toBe(leg.fair_probability);
      expect(leg.books).toBe(leg.fair.books.length);
    }
  });

  it("give the arbs' edge_pct as the feed computes it: (1/Σ(1/d) − 1) × 100, rounded down to 3 places", () => {
    for (const arb of ARBS_EXAMPLE.arbs) {
      const sum = arb.sides.reduce((total, side) => total + 1 / side.decimal_odds, 0);
      expect(arb.edge_pct).toBe(Math.floor((1 / sum - 1) * 100 * 1000) / 1000);
    }
    expect(ARBS_EXAMPLE.arbs.map((arb) => arb.edge_pct > 0)).toEqual([true, false]);
  });
});

describe('GET /docs', () => {
  it('opens with a quickstart, the key terms and the error table, before the reference', async () => {
    const html = (await app.inject({ method: 'GET', url: '/docs' })).body;
    const at = (text: string) => {
      const index = html.indexOf(text);
      expect(index, text).toBeGreaterThan(-1);
      return index;
    };
    expect(at('id="quickstart"')).toBeLessThan(at('id="glossary"'));
    expect(at('id="glossary"')).toBeLessThan(at('id="errors"'));
    expect(at('id="errors"')).toBeLessThan(at('id="GET--v1-sports"'));
    // Three languages for the first call and the first stream, on this server's address, with the key's slot.
    for (const group of ['call', 'stream'])
      for (const lang of ['curl', 'js', 'python']) expect(html).toContain(`data-snippet="${group}-${lang}"`);
    const site = config.SITE_URL;
    expect(html).toContain(
      `<span data-slot="origin">${site}</span>${QUICKSTART_PATHS.call.replaceAll('&', '&amp;')}`,
    );
    expect(html).toContain(`X-Api-Key: $SHARPLINE_KEY`);
    expect(html).toContain(`<span data-slot="key">${KEY_PLACEHOLDER}</span>`);
    expect(html).toContain('api_key=');
    expect(html).toContain('iter_lines(');
    expect(html).toContain(`data-snippet="props-curl"`);
    expect(html).not.toContain('lebron%20james');
    // The key terms, with this server's near-arb floor and suspect ceiling.
    expect(html).toContain('(1/S − 1) × 100');
    expect(html).toMatch(/id="term-near-arb"[\s\S]*down to -0\.75 %/);
    expect(html).toMatch(/id="term-suspect"[\s\S]*above 12\.5 %/);
    // Every problem type, with what to do.
    for (const problem of API_PROBLEMS) expect(html).toContain(`id="problem-${problem.code}"`);
    expect(html).not.toContain('Default Response');
  });

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

// Issue 56: the reference and the README count the books and leagues as the site does (src/domain/coverage.ts):
// Hard Rock and Hard Rock Indiana are one book in two markets.
describe('the coverage the reference and the README state', () => {
  const words = coverage();

  it('is coverage()’s words in the OpenAPI description and on /docs, and no other count of books', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      info: { description: string };
    };
    expect(doc.info.description).toContain(
      `${words.booksDetail} over ${words.leagues} (${words.leagueNames})`,
    );
    const html = (await app.inject({ method: 'GET', url: '/docs' })).body;
    expect(html).toContain(words.booksDetail);
    for (const text of [doc.info.description, html]) {
      const counts = [...text.matchAll(/(\d+) sportsbooks/g)].map((match) => Number(match[1]));
      expect(counts.length).toBeGreaterThan(0);
      expect(counts.every((count) => count === words.bookCount)).toBe(true);
    }
  });

  it('is coverage()’s words in the README', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`${words.booksDetail} and ${words.leagues}`);
    const counts = [...readme.matchAll(/(\d+) sportsbooks/g)].map((match) => Number(match[1]));
    expect(counts).toEqual([words.bookCount]);
  });
});

// Issue 56: /docs says how answers are compressed, lists the books' keys, and wears the site's header and footer.
describe('GET /docs (issue 56)', () => {
  const page = async () => (await app.inject({ method: 'GET', url: '/docs' })).body;
  /** The inner HTML of the first element `<tag …marker…>…</tag>`. */
  const part = (html: string, open: string, close: string) => {
    const start = html.indexOf(open);
    expect(start, open).toBeGreaterThan(-1);
    return html.slice(start, html.indexOf(close, start));
  };
  const hrefs = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((match) => match[1]!);
  const words = (html: string) => html.replace(/<[^>]+>/g, '');

  it('says that answers are gzip or brotli compressed and how to ask, and every curl call asks', async () => {
    const html = await page();
    const section = part(html, 'id="compression"', '<h2');
    for (const text of ['Accept-Encoding', 'gzip', 'brotli', '--compressed', 'Content-Encoding'])
      expect(section).toContain(text);
    const curls = [...html.matchAll(/curl -sS[^\n]*/g)].map((match) => match[0]);
    expect(curls.length).toBeGreaterThan(2);
    for (const call of curls) if (!call.startsWith('curl -sSN')) expect(call).toContain('--compressed');
  });

  it('compresses as it says: /v1 JSON in brotli or gzip, /v1/odds in gzip', async () => {
    const key = await createKey(app, 'enterprise');
    const openapi = (encoding: string) =>
      app.inject({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': encoding } });
    expect((await openapi('br, gzip')).headers['content-encoding']).toBe('br');
    expect((await openapi('gzip')).headers['content-encoding']).toBe('gzip');
    const v1 = (url: string) =>
      app.inject({ method: 'GET', url, headers: { 'x-api-key': key, 'accept-encoding': 'br, gzip' } });
    // Enough events for /v1/events to pass the 1 KiB under which nothing is compressed.
    for (let index = 0; index < 12; index += 1)
      app.engine.ingest({
        kind: 'event',
        sourceEventId: `compression-${index}`,
        league: 'nba',
        home: { name: `Home Team ${index}` },
        away: { name: `Away Team ${index}` },
        startsAt: Date.now() + 3_600_000,
        live: false,
      });
    const url = '/v1/events?league=nba';
    const plain = await app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThanOrEqual(1024);
    expect((await v1(url)).headers['content-encoding']).toBe('br');
    expect((await v1('/v1/odds?league=nba')).headers['content-encoding']).toBe('gzip');
  });

  it('lists every `books` key with its sportsbook, from the catalogue (Bovada is `bodog`)', async () => {
    const html = await page();
    const table = part(html, 'id="books"', '</table>');
    for (const key of SPORTSBOOK_KEYS)
      expect(table).toContain(
        `<tr id="book-${key}"><td><code>${key}</code></td><td>${SPORTSBOOKS[key].displayName}</td>`,
      );
    expect(table).toContain('<tr id="book-bodog"><td><code>bodog</code></td><td>Bovada</td>');
    expect(words(part(table, 'id="book-hardrock_in"', '</tr>'))).toContain('one sportsbook with hardrock');
  });

  it('has a Grading section in the contents with every rule of GRADING_RULES, and names docs/grading.md', async () => {
    const html = await page();
    expect(html).toContain('<li><a href="#grading">Grading</a></li>');
    const section = part(html, 'id="grading"', '</dl>');
    for (const { term } of GRADING_RULES) expect(section).toContain(`<dt>${term}</dt>`);
    expect(words(section)).toContain('A player who does not play voids the prop, both sides.');
    expect(section).toContain('<code>docs/grading.md</code>');
    expect(readFileSync(new URL('../../../docs/grading.md', import.meta.url), 'utf8')).toContain(
      '## Parlays',
    );
  });

  it('has the site header: the pages’ header links, from src/domain/site-nav.ts', async () => {
    const header = part(await page(), '<header class="site">', '</header>');
    expect(header).toContain('<nav aria-label="Main">');
    expect(hrefs(header)).toEqual([
      HEADER_NAV.home.href,
      ...HEADER_NAV.tools.links.map((link) => link.href),
      ...HEADER_NAV.links.map((link) => link.href),
    ]);
    const text = words(header);
    for (const link of [HEADER_NAV.tools, ...HEADER_NAV.tools.links, ...HEADER_NAV.links])
      expect(text).toContain(link.label);
  });

  it('has the site footer, with "Manage Subscription" only where the server manages subscriptions', async () => {
    const product = FOOTER_NAV.product;
    const footer = part(await page(), '<footer class="site">', '</footer>');
    const social = FOOTER_NAV.social.map((link) => link.href);
    // This server has no Stripe: it manages no subscriptions, and the pages' footer hides the link too.
    expect(hrefs(footer)).toEqual([
      ...product.filter((link) => !link.whenSubscriptionsManaged).map((link) => link.href),
      ...social,
    ]);
    for (const link of product.filter((link) => !link.whenSubscriptionsManaged))
      expect(footer).toContain(`>${link.label}</a>`);
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Parameters<
      typeof renderDocs
    >[0];
    const managed = part(
      renderDocs(doc, 'http://localhost', { manageSubscription: 'email' }),
      '<footer class="site">',
      '</footer>',
    );
    expect(hrefs(managed)).toEqual([...product.map((link) => link.href), ...social]);
  });
});

describe('the README', () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

  it('asks for compressed answers in every curl call (issue 56: the first one downloaded 2.1 MB uncompressed)', () => {
    const calls = readme.split('\n').filter((line) => /^curl -/.test(line));
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).toContain('--compressed');
  });
});
