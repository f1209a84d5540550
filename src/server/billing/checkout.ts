import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BILLING_PATHS,
  CHECKOUT_SESSION_ID,
  maskEmail,
  pricingNoticePath,
  type PricingNotice,
} from '#domain/checkout.ts';
import { isPlanId, PLAN_IDS, type PlanId } from '#domain/plans.ts';
import {
  CheckoutStatusSchema,
  SiteConfigSchema,
  type CheckoutStatus,
  type SiteConfigResponse,
} from '#domain/schemas/billing.ts';
import { EmailFieldSchema } from '#domain/schemas/trial-request.ts';
import { absoluteUrl, ROUTES } from '#domain/site.ts';
import type { Config } from '../config.ts';
import { describeError } from '../http/log-safe.ts';
import { HttpProblem } from '../http/problem.ts';
import { acceptUrlEncodedForms, field, formAnswerUrl, withinHourlyLimit } from '../http/site-forms.ts';
import type { StripeSessions } from './stripe-sessions.ts';

// Buying a plan without a login (issue 33, decision 151). Every "Choose <plan>" button of the prerendered pricing
// page is a form posting here, so the server's configuration decides at run time:
//   1. the plan's Payment Link (CHECKOUT_URL_<PLAN>): 303 there (with the address as `prefilled_email`);
//   2. else STRIPE_SECRET_KEY and a price for the plan in STRIPE_PRICE_PLANS: a Checkout Session, 303 to its url;
//      Stripe unreachable or refusing: 303 back to the pricing page saying so (nothing was charged);
//   3. else: 303 back to the pricing page saying purchases are not open here, with the free trial.
// GET /api/site-config tells the page the same, so that it labels the buttons before anyone clicks; GET
// /api/checkout/session is what the welcome page (Stripe's success_url) reads.

/** Checkout attempts per client address per hour (each may cost a call to Stripe). */
export const CHECKOUT_PER_HOUR = 20;
/** Welcome page reads per client address per hour (each costs a call to Stripe). */
export const SESSION_READS_PER_HOUR = 60;

export type PlanPurchase =
  { kind: 'payment-link'; url: string } | { kind: 'session'; price: string } | { kind: 'closed' };

const PAYMENT_LINKS = {
  starter: 'CHECKOUT_URL_STARTER',
  pro: 'CHECKOUT_URL_PRO',
  elite: 'CHECKOUT_URL_ELITE',
  enterprise: 'CHECKOUT_URL_ENTERPRISE',
} as const satisfies Record<PlanId, keyof Config>;

/** How each plan is bought on this server. With several prices for a plan, the first listed is sold. */
export function planPurchases(config: Config): Record<PlanId, PlanPurchase> {
  const prices = new Map<PlanId, string>();
  for (const [price, plan] of Object.entries(config.STRIPE_PRICE_PLANS)) {
    if (!prices.has(plan)) prices.set(plan, price);
  }
  return Object.fromEntries(
    PLAN_IDS.map((plan): [PlanId, PlanPurchase] => {
      const link = config[PAYMENT_LINKS[plan]];
      const price = prices.get(plan);
      if (link) return [plan, { kind: 'payment-link', url: link }];
      if (config.STRIPE_SECRET_KEY && price) return [plan, { kind: 'session', price }];
      return [plan, { kind: 'closed' }];
    }),
  ) as Record<PlanId, PlanPurchase>;
}

/** What "Manage Subscription" does here: Stripe's portal login, the one-time link by email, or nothing. */
export function manageSubscriptionMode(config: Config): SiteConfigResponse['manageSubscription'] {
  if (config.SUBSCRIPTION_PORTAL_URL) return 'portal';
  return config.STRIPE_SECRET_KEY ? 'email' : 'none';
}

export function siteConfig(config: Config): SiteConfigResponse {
  const purchases = planPurchases(config);
  return {
    checkout: {
      starter: purchases.starter.kind === 'closed' ? 'closed' : 'open',
      pro: purchases.pro.kind === 'closed' ? 'closed' : 'open',
      elite: purchases.elite.kind === 'closed' ? 'closed' : 'open',
      enterprise: purchases.enterprise.kind === 'closed' ? 'closed' : 'open',
    },
    manageSubscription: manageSubscriptionMode(config),
  };
}

/** A Payment Link with the buyer's address filled in (Stripe's documented `prefilled_email` parameter). */
function withPrefilledEmail(link: string, email: string | undefined): string {
  if (!email) return link;
  const url = new URL(link);
  url.searchParams.set('prefilled_email', email);
  return url.href;
}

export interface CheckoutRoutesOptions {
  /** Null without STRIPE_SECRET_KEY. */
  sessions: StripeSessions | null;
}

export async function checkoutRoutes(app: FastifyInstance, { sessions }: CheckoutRoutesOptions) {
  const { config } = app;
  const purchases = planPurchases(config);
  const publicConfig = siteConfig(config);
  const site = (path: string) => absoluteUrl(config.SITE_URL, path);
  acceptUrlEncodedForms(app, 4 * 1024);

  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    BILLING_PATHS.siteConfig,
    { schema: { response: { 200: SiteConfigSchema } } },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=60');
      return publicConfig;
    },
  );

  app.post(BILLING_PATHS.checkout, { bodyLimit: 4 * 1024 }, async (request, reply) => {
    const notice = (name: PricingNotice) =>
      reply.redirect(formAnswerUrl(request, config.SITE_URL, pricingNoticePath(name)), 303);
    const planField = field(request.body, 'plan', 32)?.trim().toLowerCase();
    if (!planField || !isPlanId(planField)) {
      throw new HttpProblem(
        400,
        'unknown-plan',
        'Unknown plan',
        `plan must be one of ${PLAN_IDS.join(', ')}.`,
      );
    }
    const plan = planField;
    // The address is a convenience (the pricing page fills it from a trial email): one that is not an address is
    // dropped, and Stripe asks for it.
    const typed = EmailFieldSchema.safeParse(field(request.body, 'email', 1000) ?? '');
    const email = typed.success ? typed.data : undefined;
    if (!(await withinHourlyLimit(app, request, 'checkout', CHECKOUT_PER_HOUR))) {
      request.log.info({ plan }, 'checkout refused: too many attempts from this address');
      return notice('checkoutBusy');
    }
    const purchase = purchases[plan];
    if (purchase.kind === 'payment-link') {
      request.log.info({ plan, via: 'payment-link' }, 'checkout');
      return reply.redirect(withPrefilledEmail(purchase.url, email), 303);
    }
    if (purchase.kind === 'closed' || !sessions) {
      request.log.info({ plan }, 'checkout refused: purchases are not open on this server');
      return notice('purchasesClosed');
    }
    let url: string;
    try {
      url = await sessions.createCheckout({
        plan,
        price: purchase.price,
        email,
        // Stripe replaces {CHECKOUT_SESSION_ID} with the session's id.
        successUrl: `${site(ROUTES.welcome)}?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: site(ROUTES.pricing),
      });
    } catch (error) {
      request.log.warn({ plan, error: describeError(error) }, 'checkout session not created');
      return notice('checkoutUnavailable');
    }
    request.log.info({ plan, via: 'session' }, 'checkout');
    return reply.redirect(url, 303);
  });

  typed.get(
    BILLING_PATHS.checkoutSession,
    { schema: { response: { 200: CheckoutStatusSchema } } },
    async (request, reply): Promise<CheckoutStatus> => {
      void reply.header('cache-control', 'no-store');
      const id = (request.query as Record<string, unknown>).session_id;
      if (typeof id !== 'string' || !CHECKOUT_SESSION_ID.test(id)) {
        throw new HttpProblem(
          400,
          'bad-request',
          'Bad request',
          'session_id must be a Checkout Session id (cs_…).',
        );
      }
      const unknown = () =>
        new HttpProblem(404, 'checkout-session-not-found', 'Unknown checkout', 'No such checkout session.');
      if (!sessions) throw unknown();
      if (!(await withinHourlyLimit(app, request, 'checkout-session', SESSION_READS_PER_HOUR))) {
        throw new HttpProblem(
          429,
          'rate-limited',
          'Too many requests',
          'Try again later.',
          {},
          { 'retry-after': '60' },
        );
      }
      let session;
      try {
        session = await sessions.retrieveCheckout(id);
      } catch (error) {
        request.log.warn({ error: describeError(error) }, 'checkout session not read');
        throw new HttpProblem(
          503,
          'unavailable',
          'Service unavailable',
          'The payment could not be checked right now.',
          {},
          { 'retry-after': '10' },
        );
      }
      if (!session) throw unknown();
      const plan = session.plan?.toLowerCase() ?? null;
      return {
        status:
          session.status !== 'complete'
            ? 'not-paid'
            : session.paymentStatus === 'unpaid'
              ? 'processing'
              : 'paid',
        plan: plan && isPlanId(plan) ? plan : null,
        email: session.email ? maskEmail(session.email) : null,
      };
    },
  );
}
