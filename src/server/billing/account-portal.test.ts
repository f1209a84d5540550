import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortalResponseSchema } from '#domain/schemas/api/account.ts';
import { apiKeys, emailOutbox } from '../db/schema.ts';
import { generateKey, KEY_IN_TEXT } from '../keys/key-format.ts';
import { buildTestApp, virtualClock, logSink } from '#tests/support/server/app.ts';
import { createTrialKey } from '#tests/support/server/odds-api.ts';
import {
  checkoutSession,
  signedEvent,
  StripeApiStandIn,
  stripeEnv,
  stripeId,
} from '#tests/support/server/stripe.ts';
import { freePort, keyInEmail, SmtpPeer, trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// "Change plan or cancel" from /account in one step (issue 56, decision 220): POST /v1/me/portal with the key in
// X-Api-Key answers a Stripe Billing Portal session of the key's own customer, returning to /account, and emails the
// key's owner that the portal was opened. Keys without a Stripe customer (trials, keys the operators made) get a 409
// saying what to do instead. Stripe is the local stand-in.

const SITE = 'https://example.test';
const HOUR = 3_600_000;
const peer = new SmtpPeer(await freePort());
const standIn = new StripeApiStandIn();
const clock = virtualClock(Date.now());
const logLines: string[] = [];
let app: FastifyInstance;
let people = 0;

/** A subscriber made by the webhook: their address, Stripe customer and the key their email carried. */
async function subscriber() {
  people += 1;
  const who = {
    subscription: stripeId('sub'),
    customer: stripeId('cus'),
    email: `portal${people}.${process.pid}@example.com`,
  };
  const now = Math.floor(clock.now() / 1000);
  const delivery = signedEvent('checkout.session.completed', checkoutSession({ ...who, plan: 'elite' }), {
    timestamp: now,
    created: now,
  });
  const response = await app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: delivery.headers,
    payload: delivery.payload,
  });
  expect(response.statusCode).toBe(200);
  const mail = await waitFor(() => peer.to(who.email)[0], 'the paid key email');
  return { ...who, key: keyInEmail(mail.raw)! };
}

const openPortal = (key: string, url = '/v1/me/portal') =>
  app.inject({ method: 'POST', url, headers: { 'x-api-key': key } });

const notices = (email: string) =>
  peer.to(email).filter((mail) => /Subject: Your Sharpline billing portal was opened/.test(mail.raw));

beforeAll(async () => {
  await Promise.all([peer.start(), standIn.start()]);
  app = await buildTestApp({
    config: trialTestConfig({ ...stripeEnv(standIn), SMTP_URL: peer.url, SITE_URL: SITE }),
    now: clock.now,
    log: logSink(logLines),
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await Promise.all([peer.stop(), standIn.stop()]);
});

describe('POST /v1/me/portal', () => {
  it("opens Stripe's billing portal of the key's own customer in one step, back to /account, and emails the owner a notice", async () => {
    const who = await subscriber();
    const before = standIn.portalRequests.length;
    const response = await openPortal(who.key);
    expect(response.statusCode).toBe(200);
    const body = PortalResponseSchema.parse(response.json());
    expect(body.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_bps_/);
    expect(body.opened_at).toBe(new Date(clock.now()).toISOString());
    expect(standIn.portalRequests.slice(before)).toEqual([
      { customer: who.customer, return_url: `${SITE}/account` },
    ]);

    // The notice: to the key's owner, naming the key's prefix, carrying neither the key nor the portal's URL.
    const [notice] = await waitFor(() => notices(who.email).length === 1 && notices(who.email), 'the notice');
    const text = notice!.raw.replace(/=\r?\n/g, '');
    expect(text).toContain(who.key.slice(0, 14));
    expect(text.match(KEY_IN_TEXT)).toBeNull();
    expect(text).not.toContain('billing.stripe.com');
    expect(text).toMatch(/If it was not, someone holds your key: rotate it/);
    // Nothing logs the key or the address.
    const logs = logLines.join('');
    expect(logs).toContain('billing portal opened with the key');
    expect(logs).not.toContain(who.key);
    expect(logs).not.toContain(who.email);
  });

  it('is free: neither counted in the usage nor charged to the per-minute quota', async () => {
    const who = await subscriber();
    expect((await openPortal(who.key)).statusCode).toBe(200);
    const usage = await app.inject({
      method: 'GET',
      url: '/v1/me/usage?days=1',
      headers: { 'x-api-key': who.key },
    });
    expect(usage.json().days[0].requests).toBe(0);
    const me = await app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': who.key } });
    expect(me.json().usage.used).toBe(0);
  });

  it('answers 409 no-subscription, saying what to do, for a trial key and for a key the operators made', async () => {
    const before = standIn.portalRequests.length;
    const trial = await createTrialKey(app, clock.now(), `trial${process.pid}@example.com`);
    const refused = await openPortal(trial.plain);
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({
      type: 'https://sharpline.io/problems/no-subscription',
      detail: expect.stringMatching(/free trial key.*Choose a plan on the pricing page/),
    });
    const operators = await app.apiKeys.create({ planId: 'pro', email: `ops${process.pid}@example.com` });
    const made = await openPortal(operators.plain);
    expect(made.statusCode).toBe(409);
    expect(made.json().detail).toMatch(/made by the operators/);
    expect(standIn.portalRequests.length).toBe(before);
    const queued = await app.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, 'billing-portal-opened'))
      .then((rows) =>
        rows.filter((row) => row.toAddress.startsWith('trial') || row.toAddress.startsWith('ops')),
      );
    expect(queued).toEqual([]);
  });

  it('never takes the key from the URL', async () => {
    const who = await subscriber();
    const before = standIn.portalRequests.length;
    const response = await app.inject({ method: 'POST', url: `/v1/me/portal?api_key=${who.key}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().type).toBe('https://sharpline.io/problems/api-key-in-query');
    expect(standIn.portalRequests.length).toBe(before);
  });

  it('answers 503 when Stripe fails, changing nothing and emailing nothing', async () => {
    const who = await subscriber();
    standIn.failing = true;
    try {
      const response = await openPortal(who.key);
      expect(response.statusCode).toBe(503);
      expect(response.json().type).toBe('https://sharpline.io/problems/stripe-unavailable');
    } finally {
      standIn.failing = false;
    }
    const queued = await app.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.kind, 'billing-portal-opened'), eq(emailOutbox.toAddress, who.email)));
    expect(queued).toEqual([]);
  });

  it('opens the portal 10 times an hour with a key line, then 429 portal-limit with Retry-After', async () => {
    const who = await subscriber();
    for (let i = 0; i < 10; i += 1) expect((await openPortal(who.key)).statusCode).toBe(200);
    const refused = await openPortal(who.key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().type).toBe('https://sharpline.io/problems/portal-limit');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(HOUR);
    expect((await openPortal(who.key)).statusCode).toBe(200);
  });
});

describe('POST /v1/me/portal without Stripe', () => {
  it('answers 404 portal-unavailable for a key with a Stripe customer', async () => {
    const bare = await buildTestApp({ config: trialTestConfig() });
    try {
      await bare.ready();
      const key = generateKey('live');
      await bare.db.insert(apiKeys).values({
        prefix: key.prefix,
        hash: key.hash,
        kind: 'paid',
        plan: 'pro',
        ownerEmail: 'old.customer@example.com',
        ownerIdentity: 'old.customer@example.com',
        stripeCustomerId: 'cus_Old',
        stripeSubscriptionId: 'sub_Old',
      });
      const response = await bare.inject({
        method: 'POST',
        url: '/v1/me/portal',
        headers: { 'x-api-key': key.plain },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().type).toBe('https://sharpline.io/problems/portal-unavailable');
    } finally {
      await bare.close();
    }
  });
});
