import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { describeError } from '../http/log-safe.ts';
import { HttpProblem } from '../http/problem.ts';
import { BadEventError } from './stripe-events.ts';
import type { AppliedEvent, StripeWebhookService } from './stripe-webhook-service.ts';

// POST /api/stripe/webhook (decision 142): the raw body verified against STRIPE_WEBHOOK_SECRET with the official
// library (its default tolerance, 300 s, in the past; the same 300 s ahead of our clock, decision 149), then applied
// once per event id by the billing service (stripe-webhook-service.ts: what each event does; decision 269). 400 for a
// bad or missing signature, a timestamp outside the tolerance, a malformed event, an event created more than the
// tolerance ahead of our clock, a plan that is not ours, or a buyer's address the site's forms would refuse (decision
// 201) (nothing changed; Stripe retries, so a fixed configuration heals it); 503 when Stripe's API or the database
// failed (Stripe retries); 200 otherwise, unknown event types included.

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
  /** What a verified event does (stripe-webhook-service.ts). */
  service: StripeWebhookService;
  secret: string;
  now: () => number;
}

function badRequest(detail: string): HttpProblem {
  return new HttpProblem(400, 'stripe-webhook', 'Webhook refused', detail);
}

export async function stripeWebhookRoutes(app: FastifyInstance, options: WebhookOptions) {
  // The signature covers the exact bytes: this context keeps every body as a Buffer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

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
    let result: AppliedEvent;
    try {
      result = await options.service.handle(verified, now, request.log);
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
    request.log.info(
      {
        stripeEvent: result.event.id,
        type: result.event.type,
        outcome: result.outcome,
        duplicate: result.duplicate,
        keyPrefix: result.keyPrefix,
      },
      'stripe webhook applied',
    );
    return reply.send({ received: true, ...(result.duplicate ? { duplicate: true } : {}) });
  });
}
