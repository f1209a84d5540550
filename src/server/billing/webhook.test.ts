import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, billingSubscriptions, emailOutbox, stripeEvents, trialRequests } from '../db/schema.ts';
import { emailHash } from '../http/log-safe.ts';
import { KEY_IN_TEXT, verifyKey } from '../keys/key-format.ts';
import { buildTestApp, virtualClock, logSink } from '#tests/support/server/app.ts';
import { openRawStream } from '#tests/support/server/odds-api.ts';
import {
  checkoutSession,
  signedEvent,
  StripeApiStandIn,
  stripeEnv,
  stripeId,
  subscription,
  STRIPE_TEST_WEBHOOK_SECRET,
  type StripeDelivery,
} from '#tests/support/server/stripe.ts';
import {
  freePort,
  keyInEmail,
  SmtpPeer,
  trialBody,
  trialTestConfig,
  waitFor,
} from '#tests/support/server/trials.ts';

// The Stripe webhook (issue 18, decision 142) on the app users run: signed deliveries built with the official
// library's test helper, Stripe's API stood in for on loopback, emails through a real SMTP peer.

const HOUR = 3_600_000;
const peer = new SmtpPeer(await freePort());
const standIn = new StripeApiStandIn();
const clock = virtualClock(Date.now());
const logLines: string[] = [];
let app: FastifyInstance;
let port: number;

const deliver = (delivery: StripeDelivery) =>
  app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: delivery.headers,
    payload: delivery.payload,
  });

/** A delivery signed now on the app's clock, created at `created` (seconds; default now). */
const event = (
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; created?: number; previous?: Record<string, unknown> } = {},
) =>
  signedEvent(type, object, {
    ...options,
    timestamp: Math.floor(clock.now() / 1000),
    created: options.created ?? Math.floor(clock.now() / 1000),
  });

const me = (key: string) => app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': key } });

async function counts() {
  const count = async (
    table: typeof apiKeys | typeof emailOutbox | typeof stripeEvents | typeof billingSubscriptions,
  ) => (await app.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
  return {
    keys: await count(apiKeys),
    emails: await count(emailOutbox),
    events: await count(stripeEvents),
    subscriptions: await count(billingSubscriptions),
  };
}

let buyers = 0;
/** A new customer with a subscription id and an address of their own. */
function buyer() {
  buyers += 1;
  return {
    subscription: stripeId('sub'),
    customer: stripeId('cus'),
    email: `buyer${buyers}.${process.pid}@example.com`,
  };
}

/** Checks out `who` on `plan` and returns the key from the email. */
async function subscribe(who: ReturnType<typeof buyer>, plan = 'elite'): Promise<string> {
  const response = await deliver(event('checkout.session.completed', checkoutSession({ ...who, plan })));
  expect(response.statusCode).toBe(200);
  const email = await waitFor(
    () => peer.to(who.email).find((received) => /sl_live_/.test(received.raw)),
    `the key email to ${who.email}`,
  );
  return keyInEmail(email.raw)!;
}

let trialAsks = 0;
/** The person behind `email` asks for a trial on the home page's form; returns what the trial service did. */
async function askForTrial(email: string): Promise<string> {
  trialAsks += 1;
  const response = await app.inject({
    method: 'POST',
    url: '/api/trial-requests',
    payload: trialBody({ email, message: `ask ${trialAsks}` }),
  });
  expect(response.statusCode, response.body).toBe(200);
  const [row] = await app.db
    .select({ status: trialRequests.status })
    .from(trialRequests)
    .where(eq(trialRequests.email, email))
    .orderBy(desc(trialRequests.id))
    .limit(1);
  return row!.status;
}

/** The trial key emailed to `email` (waits for it). */
async function trialKeyOf(email: string): Promise<string> {
  const sent = await waitFor(
    () => peer.to(email).find((received) => /sl_trial_/.test(received.raw)),
    `the trial email to ${email}`,
  );
  return keyInEmail(sent.raw)!;
}

/** Cancels `who`'s subscription as Stripe tells of it. */
async function cancel(who: ReturnType<typeof buyer>): Promise<void> {
  const response = await deliver(
    event(
      'customer.subscription.deleted',
      subscription({ id: who.subscription, customer: who.customer, status: 'canceled' }),
    ),
  );
  expect(response.statusCode).toBe(200);
}

beforeAll(async () => {
  await peer.start();
  await standIn.start();
  const log = logSink(logLines);
  app = await buildTestApp({
    config: trialTestConfig({
      ...stripeEnv(standIn, { STRIPE_PRICE_PLANS: 'price_1ProMonthly:pro,price_1EliteMonthly:elite' }),
      SMTP_URL: peer.url,
      // The trial form is used by a few tests here, all from one address.
      TRIAL_LIMIT_PER_IP: '50',
    }),
    now: clock.now,
    log,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await app?.close();
  await peer.stop();
  await standIn.stop();
});

describe('checkout.session.completed', () => {
  it("issues one paid key of the Payment Link's plan, stored as a hash and tied to the customer and subscription, and emails it once", async () => {
    const who = buyer();
    const key = await subscribe(who, 'elite');
    expect(key).toMatch(/^sl_live_[0-9A-Za-z]{32}$/);
    const rows = await app.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.stripeSubscriptionId, who.subscription));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'paid',
      plan: 'elite',
      ownerEmail: who.email,
      stripeCustomerId: who.customer,
      revokedAt: null,
      billingHold: null,
    });
    expect(verifyKey(key, rows[0]!.hash)).toBe(true);
    expect(JSON.stringify(rows[0])).not.toContain(key);
    const [outbox] = await app.db.select().from(emailOutbox).where(eq(emailOutbox.apiKeyId, rows[0]!.id));
    await waitFor(async () => {
      const [row] = await app.db.select().from(emailOutbox).where(eq(emailOutbox.id, outbox!.id));
      return row!.status === 'sent' && row!.sealedSecret === null;
    }, 'the email marked sent and its sealed key wiped');
    expect(peer.to(who.email)).toHaveLength(1);
    expect(peer.to(who.email)[0]!.raw).toMatch(/Subject: Your Sharpline API key \(Elite plan\)/);
    const response = await me(key);
    expect(response.statusCode).toBe(200);
    expect(response.json().plan.id).toBe('elite');
    expect(response.headers['x-ratelimit-limit']).toBe('250');
    // The key left only through the email.
    expect(logLines.join('').match(KEY_IN_TEXT)).toBeNull();
    expect(logLines.join('')).not.toContain(who.email);
  });

  it('changes nothing on a replay, and two deliveries of one event at once issue one key and one email', async () => {
    const who = buyer();
    const delivery = event('checkout.session.completed', checkoutSession({ ...who, plan: 'pro' }));
    const before = await counts();
    const [first, second] = await Promise.all([deliver(delivery), deliver(delivery)]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect([first.json().duplicate, second.json().duplicate].filter(Boolean)).toHaveLength(1);
    await waitFor(() => peer.to(who.email).length === 1, 'the key email');
    const replay = await deliver(delivery);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    // The same checkout announced again under another event id (async payment) finds the key already issued.
    expect(
      (
        await deliver(
          event('checkout.session.async_payment_succeeded', checkoutSession({ ...who, plan: 'pro' })),
        )
      ).statusCode,
    ).toBe(200);
    const after = await counts();
    expect(after.keys - before.keys).toBe(1);
    expect(after.emails - before.emails).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(peer.to(who.email)).toHaveLength(1);
  });

  it("reads the plan from the subscription's price (STRIPE_PRICE_PLANS) through Stripe's API when the session names none", async () => {
    const who = buyer();
    standIn.subscriptions.set(
      who.subscription,
      subscription({ id: who.subscription, customer: who.customer, price: 'price_1ProMonthly' }),
    );
    const calls = standIn.requests.length;
    const key = await subscribe(who, null as unknown as string);
    expect((await me(key)).json().plan.id).toBe('pro');
    expect(standIn.requests.slice(calls)).toEqual([
      { path: `GET /v1/subscriptions/${who.subscription}`, key: 'sk_test_sharplineTestKey000' },
    ]);
  });

  it("reads the customer's email from Stripe's API when the session carries none", async () => {
    const who = buyer();
    standIn.customers.set(who.customer, { id: who.customer, object: 'customer', email: who.email });
    const response = await deliver(
      event('checkout.session.completed', checkoutSession({ ...who, email: null, plan: 'starter' })),
    );
    expect(response.statusCode).toBe(200);
    const email = await waitFor(() => peer.to(who.email)[0], 'the key email');
    expect((await me(keyInEmail(email.raw)!)).json().plan.id).toBe('starter');
  });

  it('issues nothing for a one-time payment checkout, and answers 200', async () => {
    const before = await counts();
    const response = await deliver(
      event('checkout.session.completed', checkoutSession({ ...buyer(), plan: 'pro', mode: 'payment' })),
    );
    expect(response.statusCode).toBe(200);
    const after = await counts();
    expect({ ...after, events: after.events - 1 }).toEqual(before);
  });
});

// Stripe does not verify the address typed at checkout (issue 55): whoever pays may type anyone's. Their purchase
// must take nothing away from the mailbox's owner, neither while it lasts nor after it is cancelled.
describe("someone else's checkout with a person's address", () => {
  it('leaves the trial key of that mailbox working, while the subscription lasts and after it is cancelled, and the person asking again gets a new key for it, not a refusal', async () => {
    const who = buyer();
    expect(await askForTrial(who.email)).toBe('issued');
    const trial = await trialKeyOf(who.email);
    expect((await me(trial)).statusCode).toBe(200);

    const paid = await subscribe(who, 'pro');
    expect((await me(paid)).statusCode).toBe(200);
    expect((await me(trial)).statusCode).toBe(200);
    const [trialRow] = await app.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, trial.slice(0, 15)));
    expect(trialRow!.revokedAt).toBeNull();
    // The paid key's email does not tell the person that their trial stopped.
    const paidEmail = peer.to(who.email).find((received) => received.raw.includes(paid))!;
    expect(paidEmail.raw).not.toContain(trial.slice(0, 15));
    // Asking again emails a successor of the trial key (decision 217), stored as `rotated`; the key keeps working.
    expect(await askForTrial(who.email)).toBe('rotated');

    await cancel(who);
    expect((await me(paid)).statusCode).toBe(401);
    expect((await me(trial)).statusCode).toBe(200);
    expect(await askForTrial(who.email)).toBe('rotated');
    expect((await me(trial)).statusCode).toBe(200);
  });

  it('leaves a mailbox that never had a trial free to ask for one, during the subscription and after it is cancelled', async () => {
    const during = buyer();
    await subscribe(during, 'pro');
    expect(await askForTrial(during.email)).toBe('issued');
    const trial = await trialKeyOf(during.email);
    await cancel(during);
    expect((await me(trial)).statusCode).toBe(200);

    const after = buyer();
    await subscribe(after, 'elite');
    await cancel(after);
    expect(await askForTrial(after.email)).toBe('issued');
    expect((await me(await trialKeyOf(after.email))).statusCode).toBe(200);
  });
});

describe('refused deliveries change nothing', () => {
  const refused = async (delivery: StripeDelivery, detail: RegExp) => {
    const before = await counts();
    const response = await deliver(delivery);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(response.json().detail).toMatch(detail);
    expect(await counts()).toEqual(before);
    return response;
  };

  it('a bad signature, a missing one, a tampered body and a stale timestamp get 400', async () => {
    const object = checkoutSession({ ...buyer(), plan: 'pro' });
    const now = Math.floor(clock.now() / 1000);
    await refused(
      signedEvent('checkout.session.completed', object, { timestamp: now, secret: 'whsec_notOurSecret000' }),
      /signature/,
    );
    const good = signedEvent('checkout.session.completed', object, { timestamp: now });
    await refused(
      { ...good, headers: { 'content-type': 'application/json' } },
      /Stripe-Signature header is missing/,
    );
    await refused({ ...good, payload: good.payload.replace('"pro"', '"enterprise"') }, /signature/);
    // Stripe's default tolerance is 300 s.
    await refused(signedEvent('checkout.session.completed', object, { timestamp: now - 301 }), /timestamp/);
    expect((await deliver(signedEvent('invoice.paid', {}, { timestamp: now - 290 }))).statusCode).toBe(200);
    expect(STRIPE_TEST_WEBHOOK_SECRET).toMatch(/^whsec_/);
  });

  it('a signature dated more than 5 minutes ahead of our clock gets 400 (a year ahead too); a little skew passes', async () => {
    const object = checkoutSession({ ...buyer(), plan: 'pro' });
    const now = Math.floor(clock.now() / 1000);
    await refused(
      signedEvent('checkout.session.completed', object, { timestamp: now + 365 * 86_400 }),
      /timestamp/,
    );
    await refused(signedEvent('checkout.session.completed', object, { timestamp: now + 301 }), /timestamp/);
    expect((await deliver(signedEvent('invoice.paid', {}, { timestamp: now + 290 }))).statusCode).toBe(200);
  });

  it('a signed event created in the far future (or beyond any date) gets 400 on every delivery and changes nothing', async () => {
    const who = buyer();
    const delivery = event('checkout.session.completed', checkoutSession({ ...who, plan: 'pro' }), {
      created: 9e15,
    });
    // Stripe retries a 5xx for days; a 400 says the event itself is wrong.
    await refused(delivery, /created/);
    await refused(delivery, /created/);
    const nextYear = Math.floor(clock.now() / 1000) + 365 * 86_400;
    await refused(
      event('customer.subscription.updated', subscription({ id: who.subscription, customer: who.customer }), {
        created: nextYear,
      }),
      /created/,
    );
    expect(peer.to(who.email)).toHaveLength(0);
  });

  it('a plan name that is not ours, or no plan anywhere, gets 400 and creates nothing', async () => {
    await refused(
      event('checkout.session.completed', checkoutSession({ ...buyer(), plan: 'platinum' })),
      /"platinum", not a plan/,
    );
    const who = buyer();
    standIn.subscriptions.set(
      who.subscription,
      subscription({ id: who.subscription, customer: who.customer, price: 'price_1Unmapped' }),
    );
    await refused(
      event('checkout.session.completed', checkoutSession({ ...who, plan: null })),
      /names no plan.*STRIPE_PRICE_PLANS/,
    );
    await refused(
      event(
        'customer.subscription.updated',
        subscription({ ...who, id: who.subscription, priceMetadata: { plan: 'gold' } }),
      ),
      /"gold", not a plan/,
    );
  });

  // Stripe does not check the address typed at checkout (issue 55): NUL made the database refuse every delivery (503
  // for three days of retries), a line break put a Bcc header into the key's email.
  it('a customer email holding NUL, or CRLF and a Bcc header, gets 400 naming no address, logged hashed, and stores and sends nothing', async () => {
    const victim = `victim.${process.pid}@example.net`;
    const who = buyer();
    const bad = [`${who.email}\u0000`, `${who.email}\r\nBcc: ${victim}`, `${who.email}\nBcc: ${victim}`];
    const lines = logLines.length;
    for (const email of bad) {
      const response = await refused(
        event('checkout.session.completed', checkoutSession({ ...who, email, plan: 'pro' })),
        /email address \([0-9a-f]{16}\) is not one the site's forms accept/,
      );
      expect(response.body).not.toContain(who.email);
      expect(response.body).not.toContain(victim);
    }
    // The same from customer_email, and from the customer read from Stripe's API.
    await refused(
      event('checkout.session.completed', {
        ...checkoutSession({ ...who, email: null, plan: 'pro' }),
        customer_email: bad[1],
      }),
      /email address/,
    );
    standIn.customers.set(who.customer, { id: who.customer, object: 'customer', email: bad[0] });
    await refused(
      event('checkout.session.completed', checkoutSession({ ...who, email: null, plan: 'pro' })),
      /email address/,
    );
    const logged = logLines.slice(lines).join('');
    expect(logged).toMatch(/event refused, nothing changed/);
    expect(logged).toContain(emailHash(bad[1]!));
    expect(logged).not.toContain(who.email);
    expect(logged).not.toContain(victim);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(peer.to(victim)).toHaveLength(0);
    expect(peer.to(who.email)).toHaveLength(0);
  });

  it('a signed but malformed event gets 400, is logged, and changes nothing', async () => {
    const lines = logLines.length;
    const { payment_status: _dropped, ...withoutStatus } = checkoutSession({ ...buyer(), plan: 'pro' });
    await refused(event('checkout.session.completed', withoutStatus), /payment_status/);
    await refused(
      event('customer.subscription.deleted', { id: stripeId('sub'), object: 'subscription' }),
      /customer/,
    );
    expect(logLines.slice(lines).join('')).toMatch(/event refused, nothing changed/);
  });

  it("answers 503 when Stripe's API fails, changing nothing, and the redelivery succeeds", async () => {
    const who = buyer();
    standIn.subscriptions.set(
      who.subscription,
      subscription({ id: who.subscription, customer: who.customer, price: 'price_1EliteMonthly' }),
    );
    const delivery = event('checkout.session.completed', checkoutSession({ ...who, plan: null }));
    standIn.failing = true;
    const before = await counts();
    try {
      const response = await deliver(delivery);
      expect(response.statusCode).toBe(503);
      expect(await counts()).toEqual(before);
    } finally {
      standIn.failing = false;
    }
    expect((await deliver(delivery)).statusCode).toBe(200);
    await waitFor(() => peer.to(who.email).length === 1, 'the key email');
  });

  it('forgets handled event ids after 90 days, and only those', async () => {
    const old = stripeId('evt');
    await app.db.insert(stripeEvents).values({
      id: old,
      type: 'invoice.paid',
      createdAt: new Date(Date.now() - 91 * 86_400_000),
      receivedAt: new Date(Date.now() - 91 * 86_400_000),
      outcome: 'ignored: invoice.paid',
    });
    const before = await counts();
    expect(await app.paidKeys.pruneEvents()).toBe(1);
    expect((await counts()).events).toBe(before.events - 1);
    expect(await app.paidKeys.seen(old)).toBe(false);
  });

  it('unknown event types get 200 and change nothing but the record of the event', async () => {
    const before = await counts();
    const response = await deliver(event('invoice.payment_succeeded', { id: 'in_1', object: 'invoice' }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true });
    expect(await counts()).toEqual({ ...before, events: before.events + 1 });
  });
});

describe('a crash between creating the key and queuing its email', () => {
  it('leaves no key and no record of the event; the redelivery issues exactly one key and one email', async () => {
    const who = buyer();
    const delivery = event('checkout.session.completed', checkoutSession({ ...who, plan: 'pro' }));
    const before = await counts();
    // The outbox insert, the transaction's last write after the key's, fails.
    await app.db.execute(sql`ALTER TABLE email_outbox RENAME TO email_outbox_away`);
    try {
      const response = await deliver(delivery);
      expect(response.statusCode).toBe(503);
      expect(response.body).not.toMatch(/email_outbox|relation/);
    } finally {
      await app.db.execute(sql`ALTER TABLE email_outbox_away RENAME TO email_outbox`);
    }
    expect(await counts()).toEqual(before);
    expect((await deliver(delivery)).statusCode).toBe(200);
    await waitFor(() => peer.to(who.email).length === 1, 'the key email');
    const after = await counts();
    expect([after.keys - before.keys, after.emails - before.emails]).toEqual([1, 1]);
  });
});

describe('the subscription in GET /v1/me (decision 155)', () => {
  it('shows the status and the period from customer.subscription.created and .updated, an older event changing nothing', async () => {
    const who = buyer();
    const now = Math.floor(clock.now() / 1000);
    const renews = now + 30 * 86_400;
    const created = await deliver(
      event(
        'customer.subscription.created',
        subscription({ id: who.subscription, customer: who.customer, currentPeriodEnd: renews }),
        { created: now - 5 },
      ),
    );
    expect(created.statusCode).toBe(200);
    const key = await subscribe(who, 'elite');
    expect((await me(key)).json().subscription).toEqual({
      status: 'active',
      renews_at: new Date(renews * 1000).toISOString(),
      cancel_at_period_end: false,
    });
    // Cancelled at the period's end: still active, renews_at is when it ends.
    await deliver(
      event(
        'customer.subscription.updated',
        subscription({
          id: who.subscription,
          customer: who.customer,
          price: 'price_1EliteMonthly',
          currentPeriodEnd: renews,
          cancelAtPeriodEnd: true,
        }),
        { created: now + 2 },
      ),
    );
    expect((await me(key)).json().subscription).toEqual({
      status: 'active',
      renews_at: new Date(renews * 1000).toISOString(),
      cancel_at_period_end: true,
    });
    // A late delivery of an older event leaves the newer period as it is.
    await deliver(
      event(
        'customer.subscription.created',
        subscription({ id: who.subscription, customer: who.customer, currentPeriodEnd: renews - 99 }),
        { created: now - 10 },
      ),
    );
    expect((await me(key)).json().subscription.cancel_at_period_end).toBe(true);
    expect((await me(key)).json().subscription.renews_at).toBe(new Date(renews * 1000).toISOString());
  });
});

describe('customer.subscription.updated', () => {
  it('a plan change takes effect on the existing key from the next request', async () => {
    const who = buyer();
    const key = await subscribe(who, 'elite');
    expect((await me(key)).headers['x-ratelimit-limit']).toBe('250');
    const response = await deliver(
      event(
        'customer.subscription.updated',
        subscription({ id: who.subscription, customer: who.customer, priceMetadata: { plan: 'starter' } }),
      ),
    );
    expect(response.statusCode).toBe(200);
    const after = await me(key);
    expect(after.json().plan.id).toBe('starter');
    expect(after.headers['x-ratelimit-limit']).toBe('30');
    // Starter has none of Elite's features: they are gone too.
    expect(after.json().features).toEqual([]);
    // A mapped price moves it again (STRIPE_PRICE_PLANS), still the same key.
    await deliver(
      event(
        'customer.subscription.updated',
        subscription({ id: who.subscription, customer: who.customer, price: 'price_1EliteMonthly' }),
        { created: Math.floor(clock.now() / 1000) + 1 },
      ),
    );
    expect((await me(key)).json().plan.id).toBe('elite');
    expect(
      await app.db.select().from(apiKeys).where(eq(apiKeys.stripeSubscriptionId, who.subscription)),
    ).toHaveLength(1);
  });

  it('past_due holds the key for BILLING_GRACE_HOURS, then 401 naming the reason; active again restores it', async () => {
    const who = buyer();
    const key = await subscribe(who, 'pro');
    const update = (status: string) =>
      deliver(
        event(
          'customer.subscription.updated',
          subscription({
            id: who.subscription,
            customer: who.customer,
            status,
            priceMetadata: { plan: 'pro' },
          }),
        ),
      );
    expect((await update('past_due')).statusCode).toBe(200);
    const lateSince = new Date(Math.floor(clock.now() / 1000) * 1000).toISOString();
    expect((await me(key)).statusCode).toBe(200);
    clock.advance(60 * HOUR);
    // unpaid continues the hold: the grace period still counts from when the payment became late.
    expect((await update('unpaid')).statusCode).toBe(200);
    clock.advance(11 * HOUR);
    expect((await me(key)).statusCode).toBe(200);
    clock.advance(2 * HOUR);
    const suspended = await me(key);
    expect(suspended.statusCode).toBe(401);
    expect(suspended.json()).toMatchObject({
      type: expect.stringMatching(/api-key-suspended$/),
      reason: 'unpaid',
      since: lateSince,
      detail: expect.stringMatching(/is unpaid since .*72-hour grace period has ended/),
    });
    clock.advance(HOUR);
    expect((await update('active')).statusCode).toBe(200);
    expect((await me(key)).statusCode).toBe(200);
    clock.advance(1_000);
    expect((await update('paused')).statusCode).toBe(200);
    const paused = await me(key);
    expect(paused.statusCode).toBe(401);
    expect(paused.json().reason).toBe('paused');
    clock.advance(1_000);
    expect((await update('active')).statusCode).toBe(200);
    expect((await me(key)).statusCode).toBe(200);
  });

  it("two updates created in the same second that disagree are ordered by reading the subscription from Stripe's API", async () => {
    const who = buyer();
    const key = await subscribe(who, 'pro');
    clock.advance(1_000);
    const now = Math.floor(clock.now() / 1000);
    const object = (status: string) =>
      subscription({ id: who.subscription, customer: who.customer, status, priceMetadata: { plan: 'pro' } });
    // Stripe made active then past_due in one second; they arrive the other way round. Its API says past_due.
    standIn.subscriptions.set(who.subscription, object('past_due'));
    const calls = standIn.requests.length;
    expect(
      (await deliver(event('customer.subscription.updated', object('past_due'), { created: now })))
        .statusCode,
    ).toBe(200);
    expect(standIn.requests.length).toBe(calls);
    expect(
      (await deliver(event('customer.subscription.updated', object('active'), { created: now }))).statusCode,
    ).toBe(200);
    expect(standIn.requests.slice(calls).map((request) => request.path)).toEqual([
      `GET /v1/subscriptions/${who.subscription}`,
    ]);
    const [row] = await app.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.stripeSubscriptionId, who.subscription));
    expect(row!.billingHold).toBe('past_due');
    expect((await me(key)).statusCode).toBe(200);
  });

  it('an event older than the last applied one does not undo it', async () => {
    const who = buyer();
    const key = await subscribe(who, 'pro');
    clock.advance(60_000);
    const now = Math.floor(clock.now() / 1000);
    const object = (status: string) =>
      subscription({ id: who.subscription, customer: who.customer, status, priceMetadata: { plan: 'pro' } });
    expect(
      (await deliver(event('customer.subscription.updated', object('paused'), { created: now - 10 })))
        .statusCode,
    ).toBe(200);
    expect(
      (await deliver(event('customer.subscription.updated', object('active'), { created: now - 20 })))
        .statusCode,
    ).toBe(200);
    expect((await me(key)).json().reason).toBe('paused');
  });

  it('an update seen before its checkout is kept: the checkout then issues the key on the newer plan', async () => {
    const who = buyer();
    const now = Math.floor(clock.now() / 1000);
    await deliver(
      event(
        'customer.subscription.updated',
        subscription({ id: who.subscription, customer: who.customer, priceMetadata: { plan: 'enterprise' } }),
        { created: now + 5 },
      ),
    );
    const response = await deliver(
      event('checkout.session.completed', checkoutSession({ ...who, plan: 'pro' }), { created: now }),
    );
    expect(response.statusCode).toBe(200);
    const email = await waitFor(() => peer.to(who.email)[0], 'the key email');
    expect((await me(keyInEmail(email.raw)!)).json().plan.id).toBe('enterprise');
  });
});

describe('customer.subscription.deleted', () => {
  it('revokes the key at once and closes its streams; a late checkout of the subscription issues nothing', async () => {
    const who = buyer();
    const key = await subscribe(who, 'elite');
    const stream = await openRawStream(`http://127.0.0.1:${port}/v1/stream?initial=false`, {
      'x-api-key': key,
    });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    const response = await deliver(
      event(
        'customer.subscription.deleted',
        subscription({ id: who.subscription, customer: who.customer, status: 'canceled' }),
      ),
    );
    expect(response.statusCode).toBe(200);
    await waitFor(() => ended, 'the stream to close');
    expect(stream.text()).toContain('"reason":"revoked"');
    const refused = await me(key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().type).toMatch(/api-key-revoked$/);
    const before = await counts();
    await deliver(
      event('checkout.session.async_payment_succeeded', checkoutSession({ ...who, plan: 'elite' })),
    );
    const after = await counts();
    expect([after.keys, after.emails]).toEqual([before.keys, before.emails]);
  });
});

describe('what Stripe does not order or says late', () => {
  it('a checkout still waiting for its payment issues nothing; async_payment_succeeded then issues one key', async () => {
    const who = buyer();
    const before = await counts();
    await deliver(
      event('checkout.session.completed', checkoutSession({ ...who, plan: 'pro', paymentStatus: 'unpaid' })),
    );
    expect((await counts()).keys).toBe(before.keys);
    await deliver(
      event('checkout.session.async_payment_succeeded', checkoutSession({ ...who, plan: 'pro' })),
    );
    const email = await waitFor(() => peer.to(who.email)[0], 'the key email');
    expect((await me(keyInEmail(email.raw)!)).json().plan.id).toBe('pro');
    expect((await counts()).keys).toBe(before.keys + 1);
  });

  it('a deletion seen before its checkout is final: the checkout issues nothing', async () => {
    const who = buyer();
    const now = Math.floor(clock.now() / 1000);
    const deleted = subscription({ id: who.subscription, customer: who.customer, status: 'canceled' });
    expect(
      (await deliver(event('customer.subscription.deleted', deleted, { created: now }))).statusCode,
    ).toBe(200);
    const before = await counts();
    const late = event('checkout.session.completed', checkoutSession({ ...who, plan: 'pro' }), {
      created: now - 5,
    });
    expect((await deliver(late)).statusCode).toBe(200);
    const after = await counts();
    expect([after.keys, after.emails]).toEqual([before.keys, before.emails]);
  });

  it('an update to canceled or incomplete_expired revokes the key like a deletion', async () => {
    for (const status of ['canceled', 'incomplete_expired']) {
      const who = buyer();
      const key = await subscribe(who, 'pro');
      const object = subscription({
        id: who.subscription,
        customer: who.customer,
        status,
        priceMetadata: { plan: 'pro' },
      });
      expect((await deliver(event('customer.subscription.updated', object))).statusCode).toBe(200);
      expect((await me(key)).json().type).toMatch(/api-key-revoked$/);
    }
  });

  it('a past_due update that names no plan, seen before its checkout, holds the key the checkout issues', async () => {
    const who = buyer();
    const now = Math.floor(clock.now() / 1000);
    const pastDue = subscription({ id: who.subscription, customer: who.customer, status: 'past_due' });
    await deliver(event('customer.subscription.updated', pastDue, { created: now }));
    await deliver(
      event('checkout.session.completed', checkoutSession({ ...who, plan: 'elite' }), { created: now - 2 }),
    );
    const email = await waitFor(() => peer.to(who.email)[0], 'the key email');
    const [row] = await app.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.stripeSubscriptionId, who.subscription));
    expect(row).toMatchObject({ plan: 'elite', billingHold: 'past_due' });
    expect((await me(keyInEmail(email.raw)!)).statusCode).toBe(200);
  });

  it('the session’s customer_email is used when customer_details has none', async () => {
    const who = buyer();
    const session = {
      ...checkoutSession({ ...who, email: null, plan: 'starter' }),
      customer_email: who.email,
    };
    expect((await deliver(event('checkout.session.completed', session))).statusCode).toBe(200);
    await waitFor(() => peer.to(who.email)[0], 'the key email');
  });

  it('a switch in the portal to a price that names no plan gets 400 (Stripe retries), and the key keeps its plan', async () => {
    const who = buyer();
    const key = await subscribe(who, 'elite');
    const lines = logLines.length;
    const switched = event(
      'customer.subscription.updated',
      subscription({ id: who.subscription, customer: who.customer, price: 'price_1NewUnmapped' }),
      { previous: { items: { data: [{ price: { id: 'price_1EliteOld' } }] } } },
    );
    const response = await deliver(switched);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/price_1NewUnmapped, which names no plan/);
    expect(logLines.slice(lines).join('')).toMatch(/event refused/);
    expect((await me(key)).json().plan.id).toBe('elite');
    // A status-only update naming no plan keeps the plan and is applied.
    const statusOnly = event(
      'customer.subscription.updated',
      subscription({ id: who.subscription, customer: who.customer }),
      { previous: { status: 'past_due' } },
    );
    expect((await deliver(statusOnly)).statusCode).toBe(200);
    expect((await me(key)).json().plan.id).toBe('elite');
  });
});

describe('open streams follow billing', () => {
  it('a stream closes with suspended once the grace period ends on the app clock', async () => {
    const who = buyer();
    const key = await subscribe(who, 'elite');
    const pastDue = subscription({
      id: who.subscription,
      customer: who.customer,
      status: 'past_due',
      priceMetadata: { plan: 'elite' },
    });
    await deliver(event('customer.subscription.updated', pastDue));
    const stream = await openRawStream(`http://127.0.0.1:${port}/v1/stream?initial=false`, {
      'x-api-key': key,
    });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    clock.advance(73 * HOUR);
    await waitFor(() => ended, 'the stream to close at its next re-check', 10_000);
    expect(stream.text()).toContain('"reason":"suspended"');
  });

  it('a plan changed without any message (a lost one) still ends the stream at the next re-check', async () => {
    const who = buyer();
    const key = await subscribe(who, 'elite');
    const stream = await openRawStream(`http://127.0.0.1:${port}/v1/stream?initial=false`, {
      'x-api-key': key,
    });
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await app.db
      .update(apiKeys)
      .set({ plan: 'starter' })
      .where(eq(apiKeys.stripeSubscriptionId, who.subscription));
    await waitFor(() => ended, 'the stream to close at its next re-check', 10_000);
    expect(stream.text()).toContain('"reason":"plan-changed"');
  });
});

describe('without STRIPE_SECRET_KEY', () => {
  it('the webhook route answers 404 and the rest of the app is unchanged', async () => {
    const plain = await buildTestApp({ config: trialTestConfig() });
    try {
      const delivery = signedEvent(
        'checkout.session.completed',
        checkoutSession({ ...buyer(), plan: 'pro' }),
      );
      const response = await plain.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: delivery.headers,
        payload: delivery.payload,
      });
      expect(response.statusCode).toBe(404);
      const [keys] = await plain.db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
      expect(keys!.n).toBe(0);
    } finally {
      await plain.close();
    }
  });
});
