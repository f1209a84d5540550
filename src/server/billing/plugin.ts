import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { describeError } from '../http/log-safe.ts';
import { AccountPortal } from './account-portal.ts';
import { checkoutRoutes } from './checkout.ts';
import { lostKeyRoutes } from './lost-key.ts';
import { LostKeyQueue } from './lost-key-queue.ts';
import { PaidKeyService } from './paid-keys.ts';
import { PortalLinks, portalRoutes } from './portal.ts';
import { stripeClient, stripeReads } from './stripe-api.ts';
import { stripeSessions } from './stripe-sessions.ts';
import { StripeWebhookService } from './stripe-webhook-service.ts';
import { SIGNATURE_TOLERANCE_S, stripeWebhookRoutes } from './webhook.ts';

declare module 'fastify' {
  interface FastifyInstance {
    paidKeys: PaidKeyService;
    /** "Lost your key?" requests, recorded before the answer and processed after it (issue 31). */
    lostKeys: LostKeyQueue;
    /** The billing portal opened with a key (POST /v1/me/portal; decision 220). */
    accountPortal: AccountPortal;
  }
}

export interface BillingPluginOptions {
  /** The clock of the webhook's signature timestamps and of the one-time portal links (tests pass a virtual clock). */
  now?: () => number;
}

/**
 * Paid keys (decision 142): the service that issues, changes and rotates them, the "Lost your key?" route, checkout and
 * "Manage subscription" (decision 151), and — only when STRIPE_SECRET_KEY is set — the Stripe webhook (unset, POST
 * /api/stripe/webhook is the site's 404).
 */
export const billingPlugin = fp(
  async (app: FastifyInstance, options: BillingPluginOptions) => {
    const { config } = app;
    const paidKeys = new PaidKeyService(app.db, app.secrets, config.SITE_URL);
    app.decorate('paidKeys', paidKeys);
    const lostKeys = new LostKeyQueue(
      app.db,
      paidKeys,
      () => app.outbox.kick(),
      { pollMs: config.OUTBOX_POLL_MS, backoffMs: config.OUTBOX_BACKOFF_MS },
      app.log.child({ component: 'lost-key' }),
    );
    app.decorate('lostKeys', lostKeys);
    // Old event ids are forgotten once a day (and at start); a failure waits for the next day.
    const prune = () => {
      paidKeys.pruneEvents().catch((error: unknown) => {
        app.log.warn({ error: describeError(error) }, 'stripe events not pruned');
      });
    };
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      prune();
      timer = setInterval(prune, 24 * 3_600_000);
      timer.unref();
      lostKeys.start();
    });
    // Before the db plugin's onClose (hooks run in reverse registration order): the request in hand commits or rolls
    // back; those not processed stay recorded for the next start.
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await lostKeys.stop();
    });
    await app.register(lostKeyRoutes);
    // Buying a plan and managing a subscription without a login (decision 151): /api/checkout, /api/site-config,
    // /api/checkout/session, /manage-subscription and, with Stripe, the one-time portal links.
    const sessions = config.STRIPE_SECRET_KEY ? stripeSessions(stripeClient(config)) : null;
    const portalLinks = sessions
      ? new PortalLinks(
          app.db,
          app.secrets,
          config.SITE_URL,
          options.now ?? Date.now,
          app.log.child({ component: 'portal-links' }),
          () => app.outbox.kick(),
        )
      : null;
    app.decorate(
      'accountPortal',
      new AccountPortal(
        app.db,
        app.secrets,
        config.SITE_URL,
        sessions,
        options.now ?? Date.now,
        app.log.child({ component: 'account-portal' }),
        () => app.outbox.kick(),
      ),
    );
    await app.register(checkoutRoutes, { sessions });
    await app.register(portalRoutes, { sessions, links: portalLinks });
    if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
      const stripe = stripeClient(config);
      const service = new StripeWebhookService({
        paidKeys,
        reads: stripeReads(stripe),
        pricePlans: config.STRIPE_PRICE_PLANS,
        keys: app.apiKeys,
        kickOutbox: () => app.outbox.kick(),
        toleranceS: SIGNATURE_TOLERANCE_S,
      });
      await app.register(stripeWebhookRoutes, {
        stripe,
        service,
        secret: config.STRIPE_WEBHOOK_SECRET,
        now: options.now ?? Date.now,
      });
    }
  },
  { name: 'billing', dependencies: ['db', 'secrets', 'api', 'email-outbox', 'rate-limit'] },
);
