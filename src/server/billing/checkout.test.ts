import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '#tests/support/server/app.ts';
import { StripeApiStandIn, stripeEnv, stripeId } from '#tests/support/server/stripe.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';

// Buying a plan without a login (issue 33, decision 151) on the app users run, in its three configurations: a
// Payment Link for the plan, Stripe with the plan's price (a Checkout Session asked of the stand-in for Stripe's API),
// and neither. Then the welcome page's read of a session.

const SITE = 'https://example.test';
const PRICES = 'price_1StarterMonthly:starter,price_1ProMonthly:pro,price_1EliteMonthly:elite';
const PRO_LINK = 'https://buy.stripe.com/test_proMonthly';
const standIn = new StripeApiStandIn();
let stripeApp: FastifyInstance;
let linkApp: FastifyInstance;
let closedApp: FastifyInstance;
let unreachableApp: FastifyInstance;
let clients = 0;

/** A distinct client address per call unless one is given (the route counts attempts per address). */
function checkout(
  app: FastifyInstance,
  fields: Record<string, string>,
  { json = false, address }: { json?: boolean; address?: string } = {},
) {
  clients += 1;
  return app.inject({
    method: 'POST',
    url: '/api/checkout',
    headers: {
      'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      'x-forwarded-for': address ?? `198.51.100.${(clients % 250) + 1}`,
    },
    payload: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  });
}

const session = (app: FastifyInstance, id: string) =>
  app.inject({ method: 'GET', url: `/api/checkout/session?session_id=${encodeURIComponent(id)}` });

async function app(env: Record<string, string>) {
  const built = await buildTestApp({ config: trialTestConfig({ TRUST_PROXY: 'true', ...env }) });
  await built.ready();
  return built;
}

beforeAll(async () => {
  await standIn.start();
  // One after the other: building apps at once on a busy machine outlasts the plugins' start timeout.
  stripeApp = await app(
    stripeEnv(standIn, {
      STRIPE_PRICE_PLANS: PRICES,
      CHECKOUT_URL_ELITE: 'https://buy.stripe.com/test_elite',
    }),
  );
  linkApp = await app({ CHECKOUT_URL_PRO: PRO_LINK });
  closedApp = await app({});
  // Nothing listens on port 9: Stripe unreachable.
  unreachableApp = await app(stripeEnv(undefined, { STRIPE_PRICE_PLANS: PRICES }));
});

afterAll(async () => {
  await Promise.all([stripeApp, linkApp, closedApp, unreachableApp].map((built) => built?.close()));
  await standIn.stop();
});

describe('POST /api/checkout', () => {
  it('with Stripe and a price for the plan: asks Stripe for a subscription Checkout Session of that price and answers 303 to its url', async () => {
    const response = await checkout(stripeApp, { plan: 'pro', email: 'ada@example.com' });
    expect(response.statusCode).toBe(303);
    const asked = standIn.checkoutRequests.at(-1)!;
    expect(asked).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'price_1ProMonthly', quantity: '1' }],
      metadata: { plan: 'pro' },
      subscription_data: { metadata: { plan: 'pro' } },
      success_url: `${SITE}/welcome?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${SITE}/sports-betting-api`,
      allow_promotion_codes: 'true',
      customer_email: 'ada@example.com',
    });
    const created = [...standIn.checkoutSessions.values()].at(-1)!;
    expect(response.headers.location).toBe(created.url);
    expect(response.headers.location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
  });

  it('takes JSON too, a plan in any case, and leaves out an address that is not one (Stripe then asks for it)', async () => {
    const before = standIn.checkoutRequests.length;
    const response = await checkout(stripeApp, { plan: 'Starter', email: 'not an address' }, { json: true });
    expect(response.statusCode).toBe(303);
    expect(standIn.checkoutRequests).toHaveLength(before + 1);
    const asked = standIn.checkoutRequests.at(-1)!;
    expect(asked).toMatchObject({
      line_items: [{ price: 'price_1StarterMonthly', quantity: '1' }],
      metadata: { plan: 'starter' },
    });
    expect(asked).not.toHaveProperty('customer_email');
  });

  it('with a Payment Link for the plan: answers 303 to it with the address as prefilled_email, and asks Stripe nothing, even when Stripe is set', async () => {
    const response = await checkout(linkApp, { plan: 'pro', email: 'ada+x@example.com' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${PRO_LINK}?prefilled_email=ada%2Bx%40example.com`);
    const before = standIn.requests.length;
    const elite = await checkout(stripeApp, { plan: 'elite' });
    expect(elite.headers.location).toBe('https://buy.stripe.com/test_elite');
    expect(standIn.requests).toHaveLength(before);
  });

  it('with neither for the plan: answers 303 to the pricing page saying purchases are not open', async () => {
    for (const [server, plan] of [
      [closedApp, 'pro'],
      [linkApp, 'starter'],
      // Stripe is set, but STRIPE_PRICE_PLANS names no Enterprise price.
      [stripeApp, 'enterprise'],
    ] as const) {
      const response = await checkout(server, { plan });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/sports-betting-api?checkout=closed#purchases-closed`);
    }
  });

  it('when Stripe answers an error or cannot be reached: 303 back to the pricing page saying checkout is unavailable', async () => {
    standIn.failing = true;
    try {
      const response = await checkout(stripeApp, { plan: 'pro' });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/sports-betting-api?checkout=unavailable#checkout-unavailable`);
    } finally {
      standIn.failing = false;
    }
    const unreachable = await checkout(unreachableApp, { plan: 'pro' });
    expect(unreachable.statusCode).toBe(303);
    expect(unreachable.headers.location).toBe(
      `/sports-betting-api?checkout=unavailable#checkout-unavailable`,
    );
  });

  it('answers 400 to a plan that is not one, and asks Stripe nothing', async () => {
    const before = standIn.requests.length;
    for (const fields of [{ plan: 'platinum' }, {}, { plan: 'pro'.repeat(20) }] as Record<string, string>[]) {
      const response = await checkout(stripeApp, fields);
      expect(response.statusCode).toBe(400);
      expect(response.json().type).toBe('https://sharpline.io/problems/unknown-plan');
    }
    expect(standIn.requests).toHaveLength(before);
  });

  it('sends a client back to the pricing page after its 20th attempt in an hour, without asking Stripe', async () => {
    const address = '203.0.113.77';
    const before = standIn.checkoutRequests.length;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await checkout(stripeApp, { plan: 'pro' }, { address })).headers.location).toMatch(
        /^https:\/\/checkout\.stripe\.com\//,
      );
    }
    const refused = await checkout(stripeApp, { plan: 'pro' }, { address });
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe(`/sports-betting-api?checkout=busy#checkout-busy`);
    expect(standIn.checkoutRequests).toHaveLength(before + 20);
    // Another client is not held back.
    expect((await checkout(stripeApp, { plan: 'pro' })).headers.location).toMatch(/^https:\/\/checkout\./);
  });
});

describe('GET /api/site-config', () => {
  it('tells the pages which plans can be bought and what "Manage Subscription" does', async () => {
    const read = async (server: FastifyInstance) => {
      const response = await server.inject({ method: 'GET', url: '/api/site-config' });
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    expect(await read(stripeApp)).toEqual({
      checkout: { starter: 'open', pro: 'open', elite: 'open', enterprise: 'closed' },
      manageSubscription: 'email',
    });
    expect(await read(linkApp)).toEqual({
      checkout: { starter: 'closed', pro: 'open', elite: 'closed', enterprise: 'closed' },
      manageSubscription: 'none',
    });
    expect(await read(closedApp)).toEqual({
      checkout: { starter: 'closed', pro: 'closed', elite: 'closed', enterprise: 'closed' },
      manageSubscription: 'none',
    });
    const portal = await app({ SUBSCRIPTION_PORTAL_URL: 'https://billing.stripe.com/p/login/test_abc' });
    try {
      expect((await read(portal)).manageSubscription).toBe('portal');
    } finally {
      await portal.close();
    }
  });
});

describe('GET /api/checkout/session (the welcome page)', () => {
  async function createdSession(email = 'jane.doe@example.com') {
    const response = await checkout(stripeApp, { plan: 'pro', email });
    return /\/c\/pay\/(cs_test_\w+)$/.exec(response.headers.location as string)![1]!;
  }

  it('a paid session: paid, its plan, and the address masked', async () => {
    const id = await createdSession();
    standIn.completeCheckout(id);
    const response = await session(stripeApp, id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ status: 'paid', plan: 'pro', email: 'j***@example.com' });
  });

  it('a completed session whose payment is not through yet: processing; an open one: not-paid', async () => {
    const waiting = await createdSession();
    standIn.completeCheckout(waiting, { paymentStatus: 'unpaid' });
    expect((await session(stripeApp, waiting)).json()).toMatchObject({ status: 'processing', plan: 'pro' });
    const open = await createdSession('ann@example.org');
    expect((await session(stripeApp, open)).json()).toEqual({
      status: 'not-paid',
      plan: 'pro',
      email: 'a***@example.org',
    });
  });

  it('a session Stripe does not know: 404', async () => {
    const unknown = stripeId('cs_test');
    const response = await session(stripeApp, unknown);
    expect(response.statusCode).toBe(404);
    expect(response.json().type).toBe('https://sharpline.io/problems/checkout-session-not-found');
    expect(standIn.requests.at(-1)!.path).toBe(`GET /v1/checkout/sessions/${unknown}`);
  });

  it('an id that is not a Checkout Session id is refused with 400 and never sent to Stripe', async () => {
    const before = standIn.requests.length;
    for (const id of [
      '',
      'sub_123',
      'cs_test_../../v1/customers/cus_1',
      `cs_test_${'a'.repeat(247)}`,
      'cs_prod_abc',
    ]) {
      const response = await session(stripeApp, id);
      expect(response.statusCode, id).toBe(400);
    }
    expect((await stripeApp.inject({ method: 'GET', url: '/api/checkout/session' })).statusCode).toBe(400);
    expect(standIn.requests).toHaveLength(before);
  });

  it('Stripe failing: 503; no Stripe on this server: 404', async () => {
    const id = await createdSession();
    standIn.failing = true;
    try {
      expect((await session(stripeApp, id)).statusCode).toBe(503);
    } finally {
      standIn.failing = false;
    }
    expect((await session(closedApp, id)).statusCode).toBe(404);
  });
});
