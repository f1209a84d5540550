import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

// Stripe at the boundary (decision 142): webhook deliveries signed with the official library's test helper, objects
// shaped as Stripe documents them (https://docs.stripe.com/api: Event, Checkout Session, Subscription, Customer), and
// a local HTTP server standing in for Stripe's API (GET /v1/subscriptions/:id, GET /v1/customers/:id) in its format.

export const STRIPE_TEST_SECRET_KEY = 'sk_test_sharplineTestKey000';
export const STRIPE_TEST_WEBHOOK_SECRET = 'whsec_sharplineTestSigningSecret';

const signer = new Stripe(STRIPE_TEST_SECRET_KEY);
let sequence = 0;

/** A fresh Stripe-shaped id with the given prefix (`evt`, `sub`, `cus`, `cs`). */
export function stripeId(prefix: string): string {
  sequence += 1;
  return `${prefix}_T${process.pid.toString(36)}${Date.now().toString(36)}${sequence.toString(36)}`;
}

export interface StripeDelivery {
  payload: string;
  headers: Record<string, string>;
  eventId: string;
}

/** A webhook delivery as Stripe sends it: the event JSON and its `Stripe-Signature` (signed at `timestamp`, seconds). */
export function signedEvent(
  type: string,
  object: Record<string, unknown>,
  options: {
    id?: string;
    created?: number;
    timestamp?: number;
    secret?: string;
    /** `data.previous_attributes` of an `*.updated` event: the fields that changed, with their old values. */
    previous?: Record<string, unknown>;
  } = {},
): StripeDelivery {
  const created = options.created ?? Math.floor(Date.now() / 1000);
  const eventId = options.id ?? stripeId('evt');
  const payload = JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2026-10-28.endive',
    created,
    data: { object, ...(options.previous ? { previous_attributes: options.previous } : {}) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
  const header = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? STRIPE_TEST_WEBHOOK_SECRET,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return {
    payload,
    eventId,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
  };
}

/** A completed Checkout Session of a subscription bought through a Payment Link. */
export function checkoutSession(fields: {
  subscription: string;
  customer: string;
  email?: string | null;
  plan?: string | null;
  paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required';
  mode?: string;
}): Record<string, unknown> {
  return {
    id: stripeId('cs_test'),
    object: 'checkout.session',
    mode: fields.mode ?? 'subscription',
    status: 'complete',
    payment_status: fields.paymentStatus ?? 'paid',
    payment_link: 'plink_1SharplinePro',
    subscription: fields.subscription,
    customer: fields.customer,
    customer_email: null,
    customer_details:
      fields.email === null ? null : { email: fields.email ?? 'buyer@example.com', name: 'Buyer' },
    metadata: fields.plan === null || fields.plan === undefined ? {} : { plan: fields.plan },
    amount_total: 9900,
    currency: 'usd',
  };
}

/** A Subscription with one item of `price` (its metadata may name the plan). */
export function subscription(fields: {
  id: string;
  customer: string;
  status?: string;
  price?: string;
  priceMetadata?: Record<string, string>;
  metadata?: Record<string, string>;
}): Record<string, unknown> {
  const price = fields.price ?? 'price_1Unmapped';
  return {
    id: fields.id,
    object: 'subscription',
    customer: fields.customer,
    status: fields.status ?? 'active',
    cancel_at_period_end: false,
    metadata: fields.metadata ?? {},
    items: {
      object: 'list',
      data: [
        {
          id: stripeId('si'),
          object: 'subscription_item',
          price: {
            id: price,
            object: 'price',
            active: true,
            currency: 'usd',
            unit_amount: 9900,
            recurring: { interval: 'month', interval_count: 1 },
            metadata: fields.priceMetadata ?? {},
          },
          quantity: 1,
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${fields.id}`,
    },
  };
}

/** Stripe's API on loopback: the subscriptions and customers put in its maps, 404 `resource_missing` otherwise. */
export class StripeApiStandIn {
  readonly subscriptions = new Map<string, Record<string, unknown>>();
  readonly customers = new Map<string, Record<string, unknown>>();
  /** Every request, as `METHOD path`, with the bearer key it carried. */
  readonly requests: { path: string; key: string | undefined }[] = [];
  /** While set, every request answers 500 (Stripe having a bad day). */
  failing = false;
  private server: Server | undefined;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((request: IncomingMessage, response) => {
      const path = (request.url ?? '').split('?')[0]!;
      this.requests.push({
        path: `${request.method} ${path}`,
        key: /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1],
      });
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': stripeId('req') });
        response.end(JSON.stringify(body));
      };
      if (this.failing) {
        send(500, { error: { type: 'api_error', message: 'Something went wrong on Stripe’s end.' } });
        return;
      }
      const match = /^\/v1\/(subscriptions|customers)\/([^/]+)$/.exec(path);
      const found =
        match && request.method === 'GET' ? this[match[1] as 'subscriptions'].get(match[2]!) : undefined;
      if (found) send(200, found);
      else
        send(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such ${match?.[1]?.slice(0, -1) ?? 'resource'}: '${match?.[2] ?? path}'`,
          },
        });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** The billing variables of a test app whose Stripe API is `standIn` (or nowhere, when no call is expected). */
export function stripeEnv(
  standIn?: StripeApiStandIn,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: STRIPE_TEST_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
    STRIPE_API_URL: standIn ? standIn.url : 'http://127.0.0.1:9',
    ...extra,
  };
}
