import type { FastifyBaseLogger } from 'fastify';
import type { PlanId } from '#domain/plans.ts';
import { emailHash } from '../http/log-safe.ts';
import type { ApiKeyService } from '../keys/service.ts';
import {
  SameSecondUpdates,
  type BillingEffects,
  type PaidKeyService,
  type StripeEventRef,
} from './paid-keys.ts';
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

// What a verified Stripe event does (decision 142): the rules POST /api/stripe/webhook (webhook.ts) applies once its
// signature is checked. The event is parsed, refused when created too far ahead of our clock, recognised when seen
// before, and applied by the paid-key service in one transaction; after the commit the key service and the outbox
// are told. A BadEventError means a signed event we refuse as it is (400, nothing changed); any other error, that
// Stripe's API or the database failed (503, Stripe delivers again).

export interface StripeWebhookDeps {
  paidKeys: PaidKeyService;
  reads: StripeReads;
  /** Stripe prices mapped to plans (STRIPE_PRICE_PLANS). */
  pricePlans: Readonly<Record<string, PlanId>>;
  /** Told after the commit: caches, streams and the other instances learn of revoked and changed keys. */
  keys: Pick<ApiKeyService, 'changed'>;
  /** Wakes the outbox after the commit when emails were queued. */
  kickOutbox: () => void;
  /** How far an event's `created` may lie ahead of our clock, in seconds. */
  toleranceS: number;
}

export type AppliedEvent = BillingEffects & { duplicate: boolean; event: StripeEvent };

export class StripeWebhookService {
  constructor(private readonly deps: StripeWebhookDeps) {}

  /** Applies a verified event's payload (`now`: our clock, ms); see the module's note for what it throws. */
  async handle(verified: unknown, now: number, log: FastifyBaseLogger): Promise<AppliedEvent> {
    const event = parseObject(StripeEventSchema, verified, 'event');
    // `created` orders a subscription's changes and is stored: one from the future would freeze the subscription
    // (every later event "older"), one beyond any date fails the insert on every retry.
    const tolerance = this.deps.toleranceS;
    if (event.created * 1000 > now + tolerance * 1000) {
      throw new BadEventError(
        `event ${event.id}: created ${event.created} lies more than ${tolerance} s ahead of our clock`,
      );
    }
    const result = await this.apply(event, log);
    // After the commit: caches, streams and the other instances learn of it; the outbox sends the key.
    const { keys } = this.deps;
    keys.changed(result.revoked, 'local', 'revoked');
    keys.changed(result.planChanged, 'local', 'plan-changed');
    keys.changed(result.billing, 'local', 'billing');
    if (result.emails > 0) this.deps.kickOutbox();
    return { ...result, event };
  }

  private async apply(
    event: StripeEvent,
    log: FastifyBaseLogger,
  ): Promise<BillingEffects & { duplicate: boolean }> {
    const { paidKeys: paid, reads, pricePlans } = this.deps;
    const ref: StripeEventRef = { id: event.id, type: event.type, created: new Date(event.created * 1000) };
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
        if (!plan) plan = subscriptionPlan(await reads.subscription(session.subscription), pricePlans);
        if (!plan) {
          throw new BadEventError(
            `checkout session ${session.id} names no plan: set metadata.plan on the Payment Link, or map its price in STRIPE_PRICE_PLANS`,
          );
        }
        const typed =
          session.customer_details?.email ??
          session.customer_email ??
          (await reads.customerEmail(session.customer));
        if (!typed)
          throw new BadEventError(`checkout session ${session.id}: the customer has no email address`);
        const email = checkoutEmail(typed, session.id);
        log.info({ to: emailHash(email), subscription: session.subscription }, 'stripe checkout');
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
          plan: subscriptionPlan(subscription, pricePlans),
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
          const current = await reads.subscription(subscription.id);
          log.info(
            { subscription: subscription.id },
            'stripe webhook: same-second updates, read from Stripe',
          );
          return paid.update(
            ref,
            {
              subscriptionId: current.id,
              customerId: current.customer,
              status: current.status,
              plan: subscriptionPlan(current, pricePlans),
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
}
