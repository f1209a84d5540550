import Stripe from 'stripe';
import type { Config } from '../config.ts';
import { parseObject, SubscriptionSchema, type Subscription } from './stripe-events.ts';

// The two reads of Stripe's API the webhook may need (decision 142): a subscription, when the checkout session does
// not name the plan (its price says), and a customer's email, when the session carries none. STRIPE_API_URL points
// the official library at another host (stripe-mock, a proxy, a test's stand-in speaking Stripe's format).

export interface StripeReads {
  subscription(id: string): Promise<Subscription>;
  customerEmail(id: string): Promise<string | null>;
}

/**
 * The official client with STRIPE_SECRET_KEY (and STRIPE_API_URL's host when set). One retry and 5 s per call keep
 * the webhook's answer well inside Stripe's own timeout; a failed read answers 503 and Stripe delivers again.
 */
export function stripeClient(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_API_URL'>): Stripe {
  const base = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  return new Stripe(config.STRIPE_SECRET_KEY ?? 'sk_test_unconfigured', {
    maxNetworkRetries: 1,
    timeout: 5_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname.replace(/^\[|\]$/g, ''),
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

export function stripeReads(stripe: Stripe): StripeReads {
  return {
    async subscription(id) {
      const subscription = await stripe.subscriptions.retrieve(id);
      return parseObject(SubscriptionSchema, subscription, `subscription ${id}`);
    },
    async customerEmail(id) {
      const customer = await stripe.customers.retrieve(id);
      if ('deleted' in customer && customer.deleted) return null;
      return (customer as { email?: string | null }).email ?? null;
    },
  };
}
