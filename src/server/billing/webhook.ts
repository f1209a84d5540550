import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import { describeError, emailHash } from '../http/log-safe.ts';
import { HttpProblem } from '../http/problem.ts';
import { SameSecondUpdates, type BillingEffects, type StripeEventRef } from './paid-keys.ts';
import type { StripeReads } from './stripe-api.ts';
import {
  BadEventError,
  checkoutEmail,
  CheckoutSessionSchema,
  namedPlan,
  parseObject,
  StripeEventSchema,
  SubscriptionSchema,
  subscriptionPeriod,
  subscriptionPlan,
  type StripeEvent,
} from './stripe-events.ts';

// POST /api/stripe/webhook (decision 142): the raw body verified against STRIPE_WEBHOOK_SECRET with the official
// library (its default tolerance, 300 s, in the past; the same 300 s ahead of our clock, decision 149), then applied
// once per event id. 400 for a bad or missing signature, a timestamp outside the tolerance, a malformed event, an
// event created more than the tolerance ahead of our clock, a plan that is not ours, or a buyer's address the site's
// forms would refuse (decision 201) (nothing changed; Stripe retries, so a fixed configuration heals it); 503 when
// Stripe's API or the database failed (Stripe retries); 200 otherwise, unknown event types included.

export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';
/** Stripe's events are small; a subscription with many items stays far below this. */
const BODY_LIMIT = 1024 * 1024;
/**
 * How far a signature's timestamp may lie in the past (the library's default) or ahead of our clock (clock skew), and
 * an event's `created` ahead of it, in seconds.
 */
export const SIGNATURE_TOLERANCE_S = 300;

/** The `t=` of a Stripe-Signature header (the last one, as the library reads it); NaN without one. */
function signatureTimestamp(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(',')) {
    const [name, value = ''] = item.split('=');
    if (name === 't') timestamp = /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  }
  return timestamp;
}

export interface WebhookOptions {
  stripe: Stripe;
  reads: StripeReads;
  secret: string;
  now: () => number;
}

function badRequest(detail: string): HttpProblem {
  return new HttpProblem(400, 'stripe-webhook', 'Webhook refused', detail);
}

export async function stripeWebhookRoutes(app: FastifyInstance, options: WebhookOptions) {
  const { config } = app;
  // The signature covers the exact bytes: this context keeps every body as a Buffer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

  async function apply(
    request: FastifyRequest,
    event: StripeEvent,
  ): Promise<BillingEffects & { duplicate: boolean }> {
    const ref: StripeEventRef = { id: event.id, type: event.type, created: new Date(event.created * 1000) };
    const paid = app.paidKeys;
    // A replay is recognised before any call to Stripe's API (the transaction below decides for races).
    if (await paid.seen(event.id))
      return { outcome: 'duplicate', revoked: [], planChanged: [], billing: [], emails: 0, duplicate: true };
    const object = event.data.object;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = parseObject(CheckoutSessionSchema, object, event.type);
        if (session.mode !== 'subscription' || !session.subscription) {
          return paid.ignore(ref, `ignored: ${session.mode} checkout`);
        }
        if (!session.customer)
          throw new BadEventError(`${event.type}: a subscription checkout without a customer`);
        // The Payment Link's metadata is copied to its sessions; else the subscription's price says.
        let plan = namedPlan(session.metadata?.plan, `metadata.plan of checkout session ${session.id}`);
        if (!plan)
          plan = subscriptionPlan(
            await options.reads.subscription(session.subscription),
            config.STRIPE_PRICE_PLANS,
          );
        if (!plan) {
          throw new BadEventError(
            `checkout session ${session.id} names no plan: set metadata.plan on the Payment Link, or map its price in STRIPE_PRICE_PLANS`,
          );
        }
        const typed =
          session.customer_details?.email ??
          session.customer_email ??
          (await options.reads.customerEmail(session.customer));
        if (!typed)
          throw new BadEventError(`checkout session ${session.id}: the customer has no email address`);
        const email = checkoutEmail(typed, session.id);
        request.log.info({ to: emailHash(email), subscription: session.subscription }, 'stripe checkout');
        return paid.checkout(ref, {
          subscriptionId: session.subscription,
          customerId: session.customer,
          email,
          plan,
          paid:
            event.type === 'checkout.session.async_payment_succeeded' || session.payment_status !== 'unpaid',
        });
      }
      case 'customer.subscription.created': {
        // Only its period (decision 155): the checkout event issues the key.
        const subscription = parseObject(SubscriptionSchema, object, event.type);
        return paid.created(ref, {
          subscriptionId: subscription.id,
          period: subscriptionPeriod(subscription),
        });
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = parseObject(SubscriptionSchema, object, event.type);
        const facts = {
          subscriptionId: subscription.id,
          customerId: subscription.customer,
          status: subscription.status,
          plan: subscriptionPlan(subscription, config.STRIPE_PRICE_PLANS),
          period: subscriptionPeriod(subscription),
        };
        // A switch in the portal changes the price (`previous_attributes.items`). A Payment Link's metadata.plan is
        // copied to its checkout sessions only, so a price that names no plan would leave the key on the old plan.
        const previous = event.data.previous_attributes as Record<string, unknown> | undefined;
        if (
          event.type === 'customer.subscription.updated' &&
          !facts.plan &&
          previous &&
          'items' in previous
        ) {
          const prices = subscription.items.data.map((item) => item.price.id).join(', ');
          throw new BadEventError(
            `subscription ${subscription.id} moved to price ${prices}, which names no plan: set the price's metadata.plan or map it in STRIPE_PRICE_PLANS`,
          );
        }
        if (event.type === 'customer.subscription.deleted') return paid.delete(ref, facts);
        try {
          return await paid.update(ref, facts);
        } catch (error) {
          if (!(error instanceof SameSecondUpdates)) throw error;
          // Stripe's API knows which came last: apply the subscription as it is now.
          const current = await options.reads.subscription(subscription.id);
          request.log.info(
            { subscription: subscription.id },
            'stripe webhook: same-second updates, read from Stripe',
          );
          return paid.update(
            ref,
            {
              subscriptionId: current.id,
              customerId: current.customer,
              status: current.status,
              plan: subscriptionPlan(current, config.STRIPE_PRICE_PLANS),
              period: subscriptionPeriod(current),
            },
            { authoritative: true },
          );
        }
      }
      default:
        return paid.ignore(ref, `ignored: ${event.type}`);
    }
  }

  app.post(STRIPE_WEBHOOK_PATH, { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const body = request.body;
    const header = request.headers['stripe-signature'];
    if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('The event body is empty.');
    if (typeof header !== 'string' || header === '')
      throw badRequest('The Stripe-Signature header is missing.');
    let verified: unknown;
    const now = options.now();
    try {
      verified = options.stripe.webhooks.constructEvent(
        body,
        header,
        options.secret,
        SIGNATURE_TOLERANCE_S,
        undefined,
        now,
      );
      // The library only bounds the age: a timestamp ahead of our clock (a year, say) would pass, and a captured
      // delivery would stay replayable until then.
      const timestamp = signatureTimestamp(header);
      if (!(timestamp * 1000 <= now + SIGNATURE_TOLERANCE_S * 1000)) {
        throw new Error(`Timestamp ahead of our clock by more than ${SIGNATURE_TOLERANCE_S} s`);
      }
    } catch (error) {
      request.log.warn(
        { error: (error as Error).message.slice(0, 200) },
        'stripe webhook: signature refused',
      );
      throw badRequest(
        'The signature does not match this endpoint’s signing secret, or its timestamp is outside the tolerance.',
      );
    }
    let result: BillingEffects & { duplicate: boolean };
    let event: StripeEvent;
    try {
      event = parseObject(StripeEventSchema, verified, 'event');
      // `created` orders a subscription's changes and is stored: one from the future would freeze the subscription
      // (every later event "older"), one beyond any date fails the insert on every retry.
      if (event.created * 1000 > now + SIGNATURE_TOLERANCE_S * 1000) {
        throw new BadEventError(
          `event ${event.id}: created ${event.created} lies more than ${SIGNATURE_TOLERANCE_S} s ahead of our clock`,
        );
      }
      result = await apply(request, event);
    } catch (error) {
      if (error instanceof BadEventError) {
        request.log.error({ error: error.message }, 'stripe webhook: event refused, nothing changed');
        throw badRequest(error.message);
      }
      const stripeSide = (error as { type?: string }).type?.startsWith('Stripe') === true;
      request.log.error(
        { error: describeError(error) },
        stripeSide ? 'stripe webhook: Stripe API call failed' : 'stripe webhook: not applied',
      );
      throw new HttpProblem(
        503,
        'unavailable',
        'Service unavailable',
        'The event could not be applied now; Stripe will deliver it again.',
        {},
        { 'retry-after': '5' },
      );
    }
    // After the commit: caches, streams and the other instances learn of it; the outbox sends the key.
    app.apiKeys.changed(result.revoked, 'local', 'revoked');
    app.apiKeys.changed(result.planChanged, 'local', 'plan-changed');
    app.apiKeys.changed(result.billing, 'local', 'billing');
    if (result.emails > 0) app.outbox.kick();
    request.log.info(
      {
        stripeEvent: event.id,
        type: event.type,
        outcome: result.outcome,
        duplicate: result.duplicate,
        keyPrefix: result.keyPrefix,
      },
      'stripe webhook applied',
    );
    return reply.send({ received: true, ...(result.duplicate ? { duplicate: true } : {}) });
  });
}
