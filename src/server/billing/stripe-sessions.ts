import type Stripe from 'stripe';
import type { PlanId } from '#domain/plans.ts';

// The calls of Stripe's API that sell and manage subscriptions without a login (decision 151): a Checkout Session
// for a plan's price, reading one back for the welcome page, and a Billing Portal session for a customer. Through the
// official library (stripeClient in stripe-api.ts: STRIPE_API_URL, one retry, 5 s per call).

export interface CheckoutSessionRequest {
  plan: PlanId;
  price: string;
  email?: string | undefined;
  successUrl: string;
  cancelUrl: string;
}

/** What the welcome page needs of a session. */
export interface CheckoutSessionFacts {
  /** `open`, `complete` or `expired`. */
  status: string | null;
  /** `paid`, `unpaid` or `no_payment_required`. */
  paymentStatus: string;
  email: string | null;
  plan: string | null;
}

export interface StripeSessions {
  /** A subscription Checkout Session of the plan's price; its `url`. */
  createCheckout(request: CheckoutSessionRequest): Promise<string>;
  /** The session, or null when Stripe knows no such session. */
  retrieveCheckout(id: string): Promise<CheckoutSessionFacts | null>;
  /** A Billing Portal session of the customer, returning to `returnUrl`; its `url`. */
  createPortal(customer: string, returnUrl: string): Promise<string>;
}

export function stripeSessions(stripe: Stripe): StripeSessions {
  return {
    async createCheckout({ plan, price, email, successUrl, cancelUrl }) {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price, quantity: 1 }],
        // The webhook reads the plan from the session's metadata (decision 142); the subscription keeps it too.
        metadata: { plan },
        subscription_data: { metadata: { plan } },
        success_url: successUrl,
        cancel_url: cancelUrl,
        allow_promotion_codes: true,
        ...(email ? { customer_email: email } : {}),
      });
      if (!session.url) throw new Error(`checkout session ${session.id} has no url`);
      return session.url;
    },
    async retrieveCheckout(id) {
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(id);
      } catch (error) {
        if ((error as { code?: string }).code === 'resource_missing') return null;
        throw error;
      }
      return {
        status: session.status,
        paymentStatus: session.payment_status,
        email: session.customer_details?.email ?? session.customer_email ?? null,
        plan: session.metadata?.plan ?? null,
      };
    },
    async createPortal(customer, returnUrl) {
      const session = await stripe.billingPortal.sessions.create({ customer, return_url: returnUrl });
      return session.url;
    },
  };
}
