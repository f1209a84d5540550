import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPortalLinks, emailOutbox } from '../db/schema.ts';
import { buildTestApp, virtualClock, logSink } from '#tests/support/server/app.ts';
import {
  checkoutSession,
  signedEvent,
  StripeApiStandIn,
  stripeEnv,
  stripeId,
  subscription,
} from '#tests/support/server/stripe.ts';
import { freePort, keyInEmail, SmtpPeer, trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// "Manage subscription" without a login (issue 33, decision 151): the pricing page's form emails a subscriber a
// one-time link (15 minutes, once, stored hashed) whose page opens a Stripe Billing Portal session of their customer;
// the form answers every address the same, before it looks anything up. Subscribers are made by the Stripe webhook.

const SITE = 'https://example.test';
const MINUTE = 60_000;
const SENT = `/sports-betting-api?portal=sent#portal-link-sent`;
const peer = new SmtpPeer(await freePort());
const standIn = new StripeApiStandIn();
const clock = virtualClock(Date.now());
const logLines: string[] = [];
let app: FastifyInstance;
let people = 0;

function newAddress(label: string) {
  people += 1;
  return `${label}${people}.${process.pid}@example.com`;
}

/** A subscriber: a paid checkout delivered to the webhook, the key's email received. */
async function subscriber() {
  const who = { subscription: stripeId('sub'), customer: stripeId('cus'), email: newAddress('subscriber') };
  const now = Math.floor(clock.now() / 1000);
  const delivery = signedEvent('checkout.session.completed', checkoutSession({ ...who, plan: 'pro' }), {
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
  await waitFor(() => peer.to(who.email)[0], 'the paid key email');
  return who;
}

let networks = 0;
/** From a network of its own unless one is given (TRIAL_LIMIT_PER_IP: 30 an hour per network). */
const askForLink = (
  email: string,
  address = `198.51.100.${(networks += 1)}`,
  extra: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url: '/api/billing-portal/link',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    payload: new URLSearchParams({ email, ...extra }).toString(),
  });

/** The one-time link of the latest portal email to `email`. */
async function linkIn(email: string, count = 1): Promise<string> {
  const mails = await waitFor(() => {
    const portal = peer
      .to(email)
      .filter((mail) => /Subject: Manage your Sharpline subscription/.test(mail.raw));
    return portal.length >= count && portal;
  }, 'the portal link email');
  const text = mails
    .at(-1)!
    .raw.replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  return /https:\/\/example\.test\/manage-subscription\?token=[A-Za-z0-9_-]{43}/.exec(text)![0];
}

const open = (link: string) => app.inject({ method: 'GET', url: link.replace(SITE, '') });
const usePortal = (token: string) =>
  app.inject({
    method: 'POST',
    url: '/manage-subscription',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token }).toString(),
  });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

beforeAll(async () => {
  await Promise.all([peer.start(), standIn.start()]);
  app = await buildTestApp({
    config: trialTestConfig({ ...stripeEnv(standIn), SMTP_URL: peer.url, TRUST_PROXY: 'true' }),
    now: clock.now,
    log: logSink(logLines),
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await Promise.all([peer.stop(), standIn.stop()]);
});

describe('POST /api/billing-portal/link and /manage-subscription', () => {
  it('emails a subscriber a link whose page opens a Billing Portal session of their customer, once', async () => {
    const who = await subscriber();
    const answer = await askForLink(who.email);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(SENT);
    const link = await linkIn(who.email);

    // Opening the link spends nothing (a mail scanner may fetch it): a page with a button, the address masked.
    const page = await open(link);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain(`for the subscription of s***@example.com`);
    expect(page.body).toContain('<meta name="robots" content="noindex">');
    expect((await open(link)).statusCode).toBe(200);

    const opened = await usePortal(tokenOf(link));
    expect(opened.statusCode).toBe(303);
    expect(standIn.portalRequests.at(-1)).toEqual({
      customer: who.customer,
      return_url: `${SITE}/sports-betting-api`,
    });
    expect(opened.headers.location).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_bps_/);

    // Once: a second use, and the page, say the link no longer works.
    const again = await usePortal(tokenOf(link));
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('This link no longer works');
    expect((await open(link)).statusCode).toBe(410);
    expect(standIn.portalRequests.filter((request) => request.customer === who.customer)).toHaveLength(1);
  });

  it('stores only the hash of the token, and no log line holds it', async () => {
    const who = await subscriber();
    await askForLink(who.email);
    const token = tokenOf(await linkIn(who.email));
    const rows = await app.db.select({ hash: billingPortalLinks.tokenHash }).from(billingPortalLinks);
    expect(rows.map((row) => row.hash)).not.toContain(token);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.hash))).toBe(true);
    await open(`${SITE}/manage-subscription?token=${token}`);
    expect(logLines.join('')).not.toContain(token);
  });

  it('a link no longer works 15 minutes after it was sent', async () => {
    const who = await subscriber();
    await askForLink(who.email);
    const link = await linkIn(who.email);
    clock.advance(15 * MINUTE - 1_000);
    expect((await open(link)).statusCode).toBe(200);
    clock.advance(1_000);
    expect((await open(link)).statusCode).toBe(410);
    const late = await usePortal(tokenOf(link));
    expect(late.statusCode).toBe(410);
    expect(standIn.portalRequests.some((request) => request.customer === who.customer)).toBe(false);
  });

  it('answers an address without a subscription exactly as a subscriber’s, and emails it nothing', async () => {
    const stranger = newAddress('stranger');
    const who = await subscriber();
    const [strangerAnswer, subscriberAnswer] = [await askForLink(stranger), await askForLink(who.email)];
    for (const answer of [strangerAnswer, subscriberAnswer]) {
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe(SENT);
    }
    expect(strangerAnswer.body).toBe(subscriberAnswer.body);
    // Looked up in order: once the subscriber's link is sent, the stranger's request has been handled.
    await linkIn(who.email);
    expect(peer.to(stranger)).toEqual([]);
    const queued = await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, stranger));
    expect(queued[0]!.n).toBe(0);
  });

  it('Stripe failing: a page saying so, and the link still works afterwards', async () => {
    const who = await subscriber();
    await askForLink(who.email);
    const token = tokenOf(await linkIn(who.email));
    standIn.failing = true;
    try {
      const failed = await usePortal(token);
      expect(failed.statusCode).toBe(503);
      expect(failed.body).toContain('The billing portal is unavailable right now');
      expect(failed.body).toContain(`name="token" value="${token}"`);
    } finally {
      standIn.failing = false;
    }
    expect((await usePortal(token)).statusCode).toBe(303);
  });

  it('an address that is not one, too many requests, and a filled honeypot are answered with their notices', async () => {
    const invalid = await askForLink('ada@localhost');
    expect(invalid.headers.location).toBe(`/sports-betting-api?portal=invalid#portal-link-invalid`);
    const who = await subscriber();
    // TRIAL_LIMIT_PER_EMAIL (3 a day) per mailbox, from different networks.
    for (let request = 0; request < 3; request += 1) {
      expect((await askForLink(who.email, `192.0.2.${request + 1}`)).headers.location).toBe(SENT);
    }
    const busy = await askForLink(who.email, '192.0.2.9');
    expect(busy.headers.location).toBe(`/sports-betting-api?portal=busy#portal-link-busy`);
    await linkIn(who.email, 3);

    // A bot filling the hidden field gets the same answer, and the subscriber nothing.
    const [trappedOwner, next] = [await subscriber(), await subscriber()];
    const trapped = await askForLink(trappedOwner.email, '192.0.2.50', { website: 'https://spam.example' });
    expect(trapped.headers.location).toBe(SENT);
    await askForLink(next.email, '192.0.2.51');
    await linkIn(next.email);
    expect(peer.to(trappedOwner.email).filter((mail) => /Manage your Sharpline/.test(mail.raw))).toEqual([]);
  });
});

describe('a suspended key', () => {
  it('points at /manage-subscription on SITE_URL to update the payment method', async () => {
    const who = await subscriber();
    const key = keyInEmail(peer.to(who.email)[0]!.raw)!;
    const now = Math.floor(clock.now() / 1000);
    const paused = signedEvent(
      'customer.subscription.updated',
      subscription({ id: who.subscription, customer: who.customer, status: 'paused' }),
      { timestamp: now, created: now + 1, previous: { status: 'active' } },
    );
    const delivered = await app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: paused.headers,
      payload: paused.payload,
    });
    expect(delivered.statusCode).toBe(200);
    // The hold counts from the event's `created`.
    clock.advance(2_000);
    const refused = await app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': key } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({
      type: 'https://sharpline.io/problems/api-key-suspended',
      portal_url: `${SITE}/manage-subscription`,
    });
    expect(refused.json().detail).toContain(`(${SITE}/manage-subscription)`);
  });
});

describe('GET /manage-subscription', () => {
  it('goes to the pricing page’s form with Stripe, to the portal login when SUBSCRIPTION_PORTAL_URL is set, and to the "not open" notice with neither, staying on the origin the visitor used', async () => {
    const direct = await app.inject({ method: 'GET', url: '/manage-subscription' });
    expect(direct.statusCode).toBe(303);
    // Relative: a server reached at another origin than SITE_URL (a local one: SITE_URL's default is the product's
    // public address) keeps its visitor.
    expect(direct.headers.location).toBe(`/sports-betting-api#manage-subscription`);
    const portalLogin = 'https://billing.stripe.com/p/login/test_sharpline';
    for (const [env, location] of [
      [{ SUBSCRIPTION_PORTAL_URL: portalLogin }, portalLogin],
      [{}, `/sports-betting-api?checkout=closed#purchases-closed`],
    ] as const) {
      const other = await buildTestApp({ config: trialTestConfig(env) });
      try {
        const response = await other.inject({ method: 'GET', url: '/manage-subscription' });
        expect(response.statusCode).toBe(303);
        expect(response.headers.location).toBe(location);
        // Without Stripe there is no one-time link to send: the form (posted without JavaScript) goes there too.
        const posted = await other.inject({
          method: 'POST',
          url: '/api/billing-portal/link',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'email=ada%40example.com',
        });
        expect(posted.statusCode).toBe(303);
        expect(posted.headers.location).toBe(location);
      } finally {
        await other.close();
      }
    }
  });
});
