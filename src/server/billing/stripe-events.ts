import { z } from 'zod';
import { isPlanId, PLANS, type PlanId } from '#domain/plans.ts';
import { EmailFieldSchema } from '#domain/schemas/trial-request.ts';
import { emailHash } from '../http/log-safe.ts';

// The parts of Stripe's objects the webhook reads (https://docs.stripe.com/api/events/object, checkout session,
// subscription, price), checked with zod after the signature: a signed event without them is malformed (400,
// nothing changed). Everything else in them is let through untouched (`loose`).

const Metadata = z.record(z.string(), z.string()).nullish();
/** An id, or the expanded object carrying it. */
const Ref = z
  .union([z.string().min(1), z.looseObject({ id: z.string().min(1) })])
  .transform((value) => (typeof value === 'string' ? value : value.id));

export const StripeEventSchema = z.looseObject({
  id: z.string().regex(/^evt_[0-9A-Za-z_]+$/),
  type: z.string().min(1),
  created: z.number().int().positive(),
  data: z.looseObject({ object: z.looseObject({}), previous_attributes: z.looseObject({}).optional() }),
});

export const CheckoutSessionSchema = z.looseObject({
  id: z.string().min(1),
  object: z.literal('checkout.session'),
  mode: z.string(),
  subscription: Ref.nullish(),
  customer: Ref.nullish(),
  customer_email: z.string().nullish(),
  customer_details: z.looseObject({ email: z.string().nullish() }).nullish(),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  metadata: Metadata,
});

export const SubscriptionSchema = z.looseObject({
  id: z.string().regex(/^sub_[0-9A-Za-z_]+$/),
  object: z.literal('subscription'),
  customer: Ref,
  status: z.string().min(1),
  metadata: Metadata,
  /** Before Stripe's API version 2025-03-31 the period is the subscription's; since then each item's. */
  current_period_end: z.number().int().positive().nullish(),
  cancel_at_period_end: z.boolean().nullish(),
  items: z.looseObject({
    data: z.array(
      z.looseObject({
        price: z.looseObject({ id: z.string().min(1), metadata: Metadata }),
        current_period_end: z.number().int().positive().nullish(),
      }),
    ),
  }),
});

export type StripeEvent = z.infer<typeof StripeEventSchema>;
export type CheckoutSession = z.infer<typeof CheckoutSessionSchema>;
export type Subscription = z.infer<typeof SubscriptionSchema>;

/** A signed event whose plan is not one of ours, or whose object lacks what its type needs: 400, nothing changed. */
export class BadEventError extends Error {}

/** The plan `value` names (`Pro`, ` pro ` and `pro` alike), undefined when it names none. */
export function namedPlan(value: string | null | undefined, where: string): PlanId | undefined {
  if (value === undefined || value === null || value.trim() === '') return undefined;
  const id = value.trim().toLowerCase();
  if (isPlanId(id)) return id;
  throw new BadEventError(
    `${where} is ${JSON.stringify(value)}, not a plan (${PLANS.map((plan) => plan.id).join(', ')})`,
  );
}

/**
 * A subscription's plan: its price's `metadata.plan`, else STRIPE_PRICE_PLANS for its price, else the
 * subscription's own `metadata.plan` (which a Payment Link's `subscription_data.metadata` sets once, so it comes
 * last: a plan switch in the portal changes the price, not that). Undefined when none says.
 */
export function subscriptionPlan(
  subscription: Subscription,
  pricePlans: Readonly<Record<string, PlanId>>,
): PlanId | undefined {
  for (const { price } of subscription.items.data) {
    const plan =
      namedPlan(price.metadata?.plan, `metadata.plan of price ${price.id}`) ?? pricePlans[price.id];
    if (plan) return plan;
  }
  return namedPlan(subscription.metadata?.plan, `metadata.plan of subscription ${subscription.id}`);
}

/** When the subscription's current period ends (it renews then, or ends with `cancel_at_period_end`), if it says. */
export function subscriptionPeriod(subscription: Subscription): {
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
} {
  const ends = [
    subscription.current_period_end,
    ...subscription.items.data.map((item) => item.current_period_end),
  ].filter((end): end is number => typeof end === 'number');
  return {
    currentPeriodEnd: ends.length > 0 ? new Date(Math.max(...ends) * 1000) : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
  };
}

/**
 * The buyer's address as the site's forms take it (`EmailFieldSchema`, trimmed), or a BadEventError (400, nothing
 * stored or sent): Stripe does not check what is typed at checkout (issue 55), and an address holding NUL (which the
 * database refuses, so every retry failed) or a line break (a header injected into the key's email) is no address.
 * The error names the address by its hash only: its message is logged and answered.
 */
export function checkoutEmail(value: string, sessionId: string): string {
  const parsed = EmailFieldSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new BadEventError(
    `checkout session ${sessionId}: the customer's email address (${emailHash(value)}) is not one the site's forms accept: ${parsed.error.issues[0]!.message}`,
  );
}

/** Parses `object` with `schema`, or throws BadEventError naming the first problem. */
export function parseObject<T extends z.ZodType>(schema: T, object: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(object);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new BadEventError(`${what}: ${issue.path.join('.') || '(object)'} ${issue.message}`);
}
