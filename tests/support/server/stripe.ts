import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

// Stripe at the boundary (decision 142): webhook deliveries signed with the official library's test helper, objects
// shaped as Stripe documents them (https://docs.stripe.com/api: Event, Checkout Session, Subscription, Customer), and
// a local HTTP server standing in for Stripe's API in its format: GET /v1/subscriptions/:id, GET /v1/customers/:id,
// and for checkout and the portal (decision 151) POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id and POST
// /v1/billing_portal/sessions, whose form-encoded parameters (`line_items[0][price]=…`) it records as objects.

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
  /** Unix seconds; on the item, where Stripe's API puts it since version 2025-03-31. */
  currentPeriodEnd?: number;
  cancelAtPeriodEnd?: boolean;
}): Record<string, unknown> {
  const price = fields.price ?? 'price_1Unmapped';
  return {
    id: fields.id,
    object: 'subscription',
    customer: fields.customer,
    status: fields.status ?? 'active',
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
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
          ...(fields.currentPeriodEnd ? { current_period_end: fields.currentPeriodEnd } : {}),
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${fields.id}`,
    },
  };
}

/** Stripe's form encoding (`a[b][0][c]=v`) read back into objects; list indexes become arrays. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const path = name.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[index + 1]!) ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

/** Stripe's API on loopback: the subscriptions and customers put in its maps, 404 `resource_missing` otherwise. */
export class StripeApiStandIn {
  readonly subscriptions = new Map<string, Record<string, unknown>>();
  readonly customers = new Map<string, Record<string, unknown>>();
  /** Checkout Sessions it created (or a test put in), by id. */
  readonly checkoutSessions = new Map<string, Record<string, unknown>>();
  /** The parameters of every Checkout Session and Billing Portal session asked for, in order. */
  readonly checkoutRequests: Record<string, unknown>[] = [];
  readonly portalRequests: Record<string, unknown>[] = [];
  /** Where a created session's `url` points (Stripe's hosted pages; a browser test may route them to a page). */
  checkoutOrigin = 'https://checkout.stripe.com';
  portalOrigin = 'https://billing.stripe.com';
  /** Every request, as `METHOD path`, with the bearer key it carried. */
  readonly requests: { path: string; key: string | undefined }[] = [];
  /** While set, every request answers 500 (Stripe having a bad day). */
  failing = false;
  private server: Server | undefined;

  /** `control`: also answer the test's requests under /__stand-in/ (a stand-in in its own process). */
  constructor(private readonly control = false) {}

  /** A created session paid (or still waiting, `unpaid`), as Stripe has it once the buyer completed the checkout. */
  completeCheckout(
    id: string,
    fields: { paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required'; email?: string } = {},
  ): void {
    const session = this.checkoutSessions.get(id);
    if (!session) throw new Error(`no checkout session ${id}`);
    const email = fields.email ?? (session.customer_email as string | null) ?? 'buyer@example.com';
    Object.assign(session, {
      status: 'complete',
      payment_status: fields.paymentStatus ?? 'paid',
      customer: stripeId('cus'),
      subscription: stripeId('sub'),
      customer_details: { email, name: 'Buyer' },
    });
  }

  private createCheckoutSession(params: Record<string, unknown>): Record<string, unknown> {
    const id = stripeId('cs_test');
    const session = {
      id,
      object: 'checkout.session',
      mode: params.mode ?? 'payment',
      status: 'open',
      payment_status: 'unpaid',
      url: `${this.checkoutOrigin}/c/pay/${id}`,
      success_url: params.success_url ?? null,
      cancel_url: params.cancel_url ?? null,
      allow_promotion_codes: params.allow_promotion_codes === 'true',
      customer: null,
      customer_email: params.customer_email ?? null,
      customer_details: null,
      subscription: null,
      metadata: params.metadata ?? {},
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
    this.checkoutSessions.set(id, session);
    return session;
  }

  private createPortalSession(params: Record<string, unknown>): Record<string, unknown> {
    const id = stripeId('bps');
    return {
      id,
      object: 'billing_portal.session',
      customer: params.customer,
      return_url: params.return_url ?? null,
      url: `${this.portalOrigin}/p/session/test_${id}`,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** Listens on loopback (`port` 0: a free one). */
  async start(port = 0): Promise<void> {
    this.server = createServer((request: IncomingMessage, response) => {
      const path = (request.url ?? '').split('?')[0]!;
      if (this.control && path.startsWith(CONTROL_PREFIX)) {
        this.answerControl(request, response, path.slice(CONTROL_PREFIX.length));
        return;
      }
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
      if (request.method === 'POST') {
        let body = '';
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => (body += chunk));
        request.on('end', () => {
          const params = parseStripeForm(body);
          if (path === '/v1/checkout/sessions') {
            this.checkoutRequests.push(params);
            send(200, this.createCheckoutSession(params));
          } else if (path === '/v1/billing_portal/sessions') {
            this.portalRequests.push(params);
            send(200, this.createPortalSession(params));
          } else {
            send(404, {
              error: { type: 'invalid_request_error', message: `Unrecognized request URL (POST: ${path})` },
            });
          }
        });
        return;
      }
      const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (session) {
        const found = this.checkoutSessions.get(session[1]!);
        if (found) send(200, found);
        else
          send(404, {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              param: 'session',
              message: `No such checkout.session: '${session[1]}'`,
            },
          });
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
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', () => resolve()));
  }

  /** The test's side of a stand-in in its own process (tests/support/stripe-stand-in.ts): read what it was asked, make
   * it fail, complete a session. Not Stripe's API: only answered when the stand-in was made with `control`. */
  private answerControl(request: IncomingMessage, response: ServerResponse, path: string): void {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const complete = /^\/checkout-sessions\/([^/]+)\/complete$/.exec(path);
    if (request.method === 'GET' && path === '/checkout-requests') send(200, this.checkoutRequests);
    else if (request.method === 'POST' && (path === '/failing' || path === '/working')) {
      this.failing = path === '/failing';
      send(200, { failing: this.failing });
    } else if (request.method === 'POST' && complete && this.checkoutSessions.has(complete[1]!)) {
      this.completeCheckout(complete[1]!);
      send(200, this.checkoutSessions.get(complete[1]!));
    } else send(404, { error: `no control ${request.method} ${path}` });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

const CONTROL_PREFIX = '/__stand-in';

/** A `StripeApiStandIn` made with `control` in another process (a Playwright `webServer`), driven over HTTP. */
export class StripeStandInClient {
  constructor(readonly url: string) {}

  private async call(method: 'GET' | 'POST', path: string): Promise<unknown> {
    const response = await fetch(`${this.url}${CONTROL_PREFIX}${path}`, { method });
    if (!response.ok)
      throw new Error(`stand-in ${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  }

  /** The parameters of every Checkout Session asked for, in order. */
  async checkoutRequests(): Promise<Record<string, unknown>[]> {
    return (await this.call('GET', '/checkout-requests')) as Record<string, unknown>[];
  }

  /** A session it created, as Stripe's API returns it. */
  async checkoutSession(id: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${this.url}/v1/checkout/sessions/${id}`, {
      headers: { authorization: `Bearer ${STRIPE_TEST_SECRET_KEY}` },
    });
    if (!response.ok) throw new Error(`no checkout session ${id}: ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  }

  /** While failing, every Stripe request answers 500. */
  async setFailing(failing: boolean): Promise<void> {
    await this.call('POST', failing ? '/failing' : '/working');
  }

  /** The session paid, as Stripe has it once the buyer completed the checkout. */
  async completeCheckout(id: string): Promise<void> {
    await this.call('POST', `/checkout-sessions/${id}/complete`);
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
