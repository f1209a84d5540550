import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { describeError } from '../http/log-safe.ts';
import { lostKeyRoutes } from './lost-key.ts';
import { PaidKeyService } from './paid-keys.ts';
import { stripeClient, stripeReads } from './stripe-api.ts';
import { stripeWebhookRoutes } from './webhook.ts';

declare module 'fastify' {
  interface FastifyInstance {
    paidKeys: PaidKeyService;
  }
}

export interface BillingPluginOptions {
  /** The clock the webhook checks signature timestamps against (tests pass a virtual clock). */
  now?: () => number;
}

/**
 * Paid keys (decision 142): the service that issues, changes and rotates them, the "Lost your key?" route, and — only
 * when STRIPE_SECRET_KEY is set — the Stripe webhook (unset, POST /api/stripe/webhook is the site's 404).
 */
export const billingPlugin = fp(
  async (app: FastifyInstance, options: BillingPluginOptions) => {
    const { config } = app;
    const paidKeys = new PaidKeyService(app.db, app.secrets, config.SITE_URL);
    app.decorate('paidKeys', paidKeys);
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
    });
    app.addHook('onClose', async () => clearInterval(timer));
    await app.register(lostKeyRoutes);
    if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
      const stripe = stripeClient(config);
      await app.register(stripeWebhookRoutes, {
        stripe,
        reads: stripeReads(stripe),
        secret: config.STRIPE_WEBHOOK_SECRET,
        now: options.now ?? Date.now,
      });
    }
  },
  { name: 'billing', dependencies: ['db', 'secrets', 'api', 'email-outbox', 'rate-limit'] },
);
