import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { manualSource } from '#tests/support/server/app.ts';
import { trialRequests } from '../db/schema.ts';
import { freePort, keyInEmail, SmtpPeer, trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// The home page's trial form posted as a plain HTML form: before its script has run (a slow phone) or without
// JavaScript (issue 55, decision 208). Nothing the visitor typed may end up in a URL.

const peer = new SmtpPeer(await freePort());
let app: FastifyInstance;

let ipCounter = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `203.0.113.${(ipCounter += 1)}` });

/** A browser's form post from the server's own page (`http://localhost:80`, inject's host). */
const formPost = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/trial-requests',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'http://localhost:80',
      'sec-fetch-site': 'same-origin',
      'user-agent': 'Mozilla/5.0 (slow phone)',
      ...fromNewAddress(),
      ...headers,
    },
    payload: new URLSearchParams(fields).toString(),
  });

const countRequests = async () =>
  (await app.db.select({ n: sql<number>`count(*)::int` }).from(trialRequests))[0]!.n;

beforeAll(async () => {
  await peer.start();
  const config = trialTestConfig({
    SMTP_URL: peer.url,
    TRUST_PROXY: 'true',
    CORS_ORIGINS: 'https://partner.example',
    // Five an hour per address (the default is 30): the "busy" notice after a few.
    TRIAL_LIMIT_PER_IP: '5',
  });
  app = await buildApp({ source: manualSource(), config });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await peer.stop();
});

describe('POST /api/trial-requests as a plain form post', () => {
  it('stores the request, emails the key and answers 303 to the home page notice, with nothing typed in the URL', async () => {
    const email = 'form.post@example.com';
    const response = await formPost(
      { name: 'Grace Hopper', email, company: 'Navy', website: '' },
      { cookie: 'theme=dark; promotekit_referral=ref%2042' },
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/?trial=sent#trial-sent');
    expect(response.headers.location).not.toMatch(/Grace|Hopper|form\.post|example\.com/);

    const [row] = await app.db.select().from(trialRequests).where(eq(trialRequests.email, email));
    expect(row).toMatchObject({
      name: 'Grace Hopper',
      company: 'Navy',
      userAgent: 'Mozilla/5.0 (slow phone)',
      referrer: 'Direct',
      promotekitReferral: 'ref 42',
      status: 'issued',
    });
    const sent = await waitFor(() => peer.to(email)[0], 'the trial email');
    expect(keyInEmail(sent.raw)).toMatch(/^sl_trial_/);
  });

  it('answers 303 to the "invalid" notice and stores nothing for a name of control characters', async () => {
    const before = await countRequests();
    const response = await formPost({ name: '\u0007\u0008', email: 'bad.name@example.com', company: '' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/?trial=invalid#trial-invalid');
    expect(await countRequests()).toBe(before);
  });

  it('answers 303 to the "busy" notice after the fifth form post from one address in an hour', async () => {
    const address = { 'x-forwarded-for': '198.18.0.77' };
    for (let i = 0; i < 5; i += 1) {
      const ok = await formPost({ name: 'Busy Office', email: `office${i}@example.com` }, address);
      expect(ok.headers.location).toBe('/?trial=sent#trial-sent');
    }
    const sixth = await formPost({ name: 'Busy Office', email: 'office5@example.com' }, address);
    expect(sixth.statusCode).toBe(303);
    expect(sixth.headers.location).toBe('/?trial=busy#trial-busy');
  });

  it('discards a filled honeypot like the JSON request does, with the same answer', async () => {
    const before = await countRequests();
    const response = await formPost({
      name: 'Bot',
      email: 'bot@example.com',
      website: 'http://spam.example',
    });
    expect(response.headers.location).toBe('/?trial=sent#trial-sent');
    expect(await countRequests()).toBe(before);
  });

  it('sends a post from a page of CORS_ORIGINS back to SITE_URL', async () => {
    const response = await formPost(
      { name: 'Partner Visitor', email: 'partner.visitor@example.com' },
      { origin: 'https://partner.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('https://example.test/?trial=sent#trial-sent');
  });

  it('refuses a form post from another site with 403 and stores nothing', async () => {
    const before = await countRequests();
    for (const headers of [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: '', 'sec-fetch-site': 'cross-site' },
    ]) {
      const response = await formPost({ name: 'Victim', email: 'victim@example.com' }, headers);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ type: expect.stringMatching(/cross-site-form$/) });
    }
    // A browser that sends Sec-Fetch-Site but no Origin.
    const noOrigin = await app.inject({
      method: 'POST',
      url: '/api/trial-requests',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: 'name=Victim&email=victim%40example.com',
    });
    expect(noOrigin.statusCode).toBe(403);
    expect(await countRequests()).toBe(before);
  });
});
