import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lostKeyRequests } from '../db/schema.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// The site's plain form posts (decision 208, issue 55): every form posts to an endpoint that answers a form with a page
// saying what happened, and none is accepted from another site's page.

let app: FastifyInstance;
let addresses = 0;

const formPost = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': `192.0.2.${(addresses += 1)}`,
      ...headers,
    },
    payload: new URLSearchParams(fields).toString(),
  });

const CROSS_SITE: Record<string, string>[] = [
  { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  { origin: 'https://evil.example' },
  { origin: 'null' },
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
];
const SAME_SITE: Record<string, string>[] = [
  { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' },
  { origin: 'https://example.test', 'sec-fetch-site': 'same-site' },
  { 'sec-fetch-site': 'same-origin' },
  // A script or an old browser: no header says where it comes from, and no page can make a visitor send it.
  {},
];

beforeAll(async () => {
  // Five requests an hour per address (the default is 30): the "busy" notice after a few.
  app = await buildTestApp({ config: trialTestConfig({ TRUST_PROXY: 'true', TRIAL_LIMIT_PER_IP: '5' }) });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('cross-site form posts', () => {
  for (const [url, fields] of [
    ['/api/checkout', { plan: 'pro', email: 'buyer@example.com' }],
    ['/api/billing-portal/link', { email: 'subscriber@example.com' }],
    ['/api/lost-key', { email: 'owner@example.com' }],
    ['/api/trial-requests', { name: 'Visitor', email: 'visitor@example.com' }],
  ] as const) {
    it(`POST ${url} refuses a form posted from another site's page with 403 and does nothing`, async () => {
      for (const headers of CROSS_SITE) {
        const response = await formPost(url, fields, headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(403);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.json()).toMatchObject({
          status: 403,
          type: expect.stringMatching(/cross-site-form$/),
        });
      }
    });

    it(`POST ${url} takes the form from this site's own pages and answers it with a 303`, async () => {
      for (const headers of SAME_SITE) {
        const response = await formPost(url, fields, headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(303);
      }
    });
  }

  it('counts no checkout attempt for a refused cross-site post', async () => {
    const address = { 'x-forwarded-for': '198.18.5.5' };
    // 25 forged posts: the limit is 20 an hour, and none of them counts.
    for (let i = 0; i < 25; i += 1) {
      const forged = await formPost(
        '/api/checkout',
        { plan: 'pro' },
        { ...address, origin: 'https://evil.example' },
      );
      expect(forged.statusCode).toBe(403);
    }
    const own = await formPost(
      '/api/checkout',
      { plan: 'pro' },
      { ...address, 'sec-fetch-site': 'same-origin' },
    );
    expect(own.headers.location).toBe('/sports-betting-api?checkout=closed#purchases-closed');
  });
});

describe('POST /api/lost-key as a plain form post', () => {
  const pending = async () =>
    (await app.db.select({ n: sql<number>`count(*)::int` }).from(lostKeyRequests))[0]!.n;

  it('records the request and answers 303 to the pricing page notice, with the address nowhere in the URL', async () => {
    const response = await formPost(
      '/api/lost-key',
      { email: 'lost.form@example.com', website: '' },
      { origin: 'http://localhost:80' },
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/sports-betting-api?lost-key=sent#lost-key-sent');
    expect(response.headers.location).not.toMatch(/lost\.form|example\.com/);
    // Recorded, then processed after the answer.
    await waitFor(async () => (await pending()) === 0, 'the request to be processed');
  });

  it('answers 303 to the "invalid" notice for an address that is not one, recording nothing', async () => {
    const response = await formPost('/api/lost-key', { email: 'not an address' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/sports-betting-api?lost-key=invalid#lost-key-invalid');
  });

  it('answers 303 to the "busy" notice after the fifth request from one address in an hour', async () => {
    const address = { 'x-forwarded-for': '198.18.9.9' };
    for (let i = 0; i < 5; i += 1) {
      const ok = await formPost('/api/lost-key', { email: `owner${i}@example.com` }, address);
      expect(ok.headers.location).toBe('/sports-betting-api?lost-key=sent#lost-key-sent');
    }
    const sixth = await formPost('/api/lost-key', { email: 'owner5@example.com' }, address);
    expect(sixth.headers.location).toBe('/sports-betting-api?lost-key=busy#lost-key-busy');
  });

  it('still answers JSON to JSON, and 415 to another media type', async () => {
    const json = await app.inject({
      method: 'POST',
      url: '/api/lost-key',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.250' },
      payload: JSON.stringify({ email: 'json.owner@example.com' }),
    });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual({ success: true });
    const text = await app.inject({
      method: 'POST',
      url: '/api/lost-key',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=x@example.com',
    });
    expect(text.statusCode).toBe(415);
  });
});

describe('POST /account', () => {
  it('reads nothing of a key form posted without the page script and answers 303 to the notice saying so', async () => {
    const key = 'sl_live_0123456789abcdefABCDEF0123456789';
    const response = await formPost('/account', { 'api-key': key }, { origin: 'http://localhost:80' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/account?key=needs-script#key-needs-script');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).not.toContain(key);
  });
});
