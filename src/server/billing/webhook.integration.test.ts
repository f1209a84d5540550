import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, emailOutbox } from '../db/schema.ts';
import { openRawStream } from '#tests/support/server/odds-api.ts';
import {
  checkoutSession,
  signedEvent,
  stripeEnv,
  stripeId,
  subscription,
  type StripeDelivery,
} from '#tests/support/server/stripe.ts';
import { twoInstances } from '#tests/support/server/two-instances.ts';
import { waitFor } from '#tests/support/server/trials.ts';

// The Stripe webhook on CI's PostgreSQL and Redis, two instances behind one load balancer (decision 142): B trusts a
// key lookup for a whole minute and re-checks its streams' keys only every minute, so only the Redis bus can make B
// act on what a webhook delivered to A did; one event delivered to both at once issues one key.

const MINUTE = 60_000;
const instances = twoInstances(
  'i18b',
  4443,
  { keyCacheMs: MINUTE, stream: { recheckMs: MINUTE } },
  stripeEnv(),
);

const deliver = (app: FastifyInstance, delivery: StripeDelivery) =>
  app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: delivery.headers,
    payload: delivery.payload,
  });

const me = (app: FastifyInstance, key: string) =>
  app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': key } });

/** Subscribes through A; returns the plain key, read back from its email's sealed outbox row. */
async function subscribe(plan: string) {
  const who = {
    subscription: stripeId('sub'),
    customer: stripeId('cus'),
    email: `${stripeId('b')}@example.com`,
  };
  const response = await deliver(
    instances.a,
    signedEvent('checkout.session.completed', checkoutSession({ ...who, plan })),
  );
  expect(response.statusCode).toBe(200);
  const [row] = await instances.a.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.stripeSubscriptionId, who.subscription));
  const [email] = await instances.a.db.select().from(emailOutbox).where(eq(emailOutbox.apiKeyId, row!.id));
  const key = email!.sealedSecret
    ? instances.a.secrets.unseal(email!.sealedSecret, email!.messageId)
    : undefined;
  return { who, key };
}

describe('Stripe webhook across instances (PostgreSQL, Redis)', () => {
  // The keys are read from their sealed outbox copies: no instance sends (and wipes) them meanwhile.
  beforeAll(async () => {
    await instances.a.outbox.stop();
    await instances.b.outbox.stop();
  });

  it('one event delivered to both instances at once issues one key and one email', async () => {
    const who = {
      subscription: stripeId('sub'),
      customer: stripeId('cus'),
      email: `${stripeId('c')}@example.com`,
    };
    const delivery = signedEvent('checkout.session.completed', checkoutSession({ ...who, plan: 'pro' }));
    const answers = await Promise.all([
      deliver(instances.a, delivery),
      deliver(instances.b, delivery),
      deliver(instances.a, delivery),
      deliver(instances.b, delivery),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.json().duplicate !== true)).toHaveLength(1);
    const keys = await instances.a.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.stripeSubscriptionId, who.subscription));
    expect(keys).toHaveLength(1);
    const [emails] = await instances.a.db
      .select({ n: sql<number>`count(*)::int` })
      .from(emailOutbox)
      .where(eq(emailOutbox.apiKeyId, keys[0]!.id));
    expect(emails!.n).toBe(1);
  });

  it("a subscription deleted through one instance closes the key's streams on the other at once", async () => {
    const { who, key } = await subscribe('elite');
    if (!key) throw new Error('no sealed key in the outbox');
    expect((await me(instances.b, key)).statusCode).toBe(200);
    const stream = await openRawStream(`http://127.0.0.1:${instances.portB}/v1/stream?initial=false`, {
      'x-api-key': key,
    });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    const deleted = signedEvent(
      'customer.subscription.deleted',
      subscription({ id: who.subscription, customer: who.customer, status: 'canceled' }),
    );
    expect((await deliver(instances.a, deleted)).statusCode).toBe(200);
    await waitFor(() => ended, "B's stream to close", 5_000);
    expect(stream.text()).toContain('"reason":"revoked"');
    expect((await me(instances.b, key)).statusCode).toBe(401);
    stream.abort();
  });

  it("a plan change through one instance applies on the other from the next request, and reopens B's streams", async () => {
    const { who, key } = await subscribe('elite');
    if (!key) throw new Error('no sealed key in the outbox');
    expect((await me(instances.b, key)).json().plan.id).toBe('elite');
    const stream = await openRawStream(`http://127.0.0.1:${instances.portB}/v1/stream?initial=false`, {
      'x-api-key': key,
    });
    let ended = false;
    void stream.ended.then(() => (ended = true));
    const updated = signedEvent(
      'customer.subscription.updated',
      subscription({ id: who.subscription, customer: who.customer, priceMetadata: { plan: 'pro' } }),
    );
    expect((await deliver(instances.a, updated)).statusCode).toBe(200);
    await waitFor(
      async () => (await me(instances.b, key)).json().plan?.id === 'pro',
      'B to serve the new plan',
      5_000,
    );
    await waitFor(() => ended, "B's stream to end for the plan change", 5_000);
    expect(stream.text()).toContain('"reason":"plan-changed"');
    stream.abort();
  });
});
