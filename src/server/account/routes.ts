import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MeResponseSchema,
  PortalResponseSchema,
  RotationResponseSchema,
  SUBSCRIPTION_STATUSES,
  UsageQuerySchema,
  UsageResponseSchema,
} from '#domain/schemas/api/account.ts';
import { ProblemSchema } from '#domain/schemas/api/common.ts';
import { delayMs } from '#domain/plans.ts';
import { USAGE_RETENTION_DAYS } from '#domain/usage.ts';
import { HttpProblem } from '../http/problem.ts';
import { ACCOUNT_CALLS_PER_MINUTE } from '../odds-api/auth.ts';
import type { ApiKeyRecord } from '../keys/service.ts';
import { COMMON_ERRORS, security, tags } from '../odds-api/routes/common.ts';

// GET /v1/me: the key's plan, limits and usage, its same-game-parlay credits this month (decision 128), its Stripe
// subscription and open streams; GET /v1/me/usage: its daily counts; POST /v1/me/rotate: a new key for it, the old one
// revoked on every instance at once (decision 155). These calls are free (decision 218): not charged to the plan's
// per-minute quota, not counted in the usage.

/** Self-service rotations per key line per hour (the line: a rotation does not reset the count). */
export const ROTATIONS_PER_HOUR = 5;
/** Billing portal openings per key line per hour (each emails its owner a notice; decision 220). */
export const PORTAL_OPENINGS_PER_HOUR = 10;
const HOUR_MS = 3_600_000;

type Status = (typeof SUBSCRIPTION_STATUSES)[number];
const isStatus = (status: string): status is Status =>
  (SUBSCRIPTION_STATUSES as readonly string[]).includes(status);

export async function meRoutes(app: FastifyInstance, { now }: { now?: () => number } = {}) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const clock = now ?? Date.now;

  async function subscriptionOf(key: ApiKeyRecord) {
    if (!key.stripeSubscriptionId) return null;
    const view = await app.paidKeys.subscriptionView(key.stripeSubscriptionId);
    if (!view || !isStatus(view.status)) return null;
    const ended = view.status === 'canceled' || view.status === 'incomplete_expired';
    return {
      status: view.status,
      renews_at: !ended && view.currentPeriodEnd ? view.currentPeriodEnd.toISOString() : null,
      cancel_at_period_end: view.cancelAtPeriodEnd,
    };
  }

  // The account's own calls are free (decision 218): not charged to the plan's quota, not counted in the usage.
  const config = { accountCall: true };

  routes.get(
    '/me',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Your key's plan, limits, usage, subscription and open streams",
        response: {
          200: MeResponseSchema.describe(
            "The calling key's prefix and expiry, its plan, limits, this minute's usage, this month's same-game-parlay credits, its Stripe subscription and its open streams.",
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request) => {
      const key = request.apiKey!;
      const quota = request.quota!;
      const [credits, subscription] = await Promise.all([app.sgpCredits.usage(key), subscriptionOf(key)]);
      return {
        key: {
          prefix: key.prefix,
          kind: key.kind,
          created_at: key.createdAt.toISOString(),
          expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
        },
        plan: {
          id: key.plan.id,
          name: key.plan.name,
          real_time: key.plan.realTime,
          delay_seconds: delayMs(key.plan) / 1000,
        },
        limits: { requests_per_minute: quota.limit, stream_connections: key.plan.streamConnections },
        usage: {
          used: quota.limit - quota.remaining,
          remaining: quota.remaining,
          resets_in_seconds: quota.resetSeconds,
        },
        features: [...key.plan.apiFeatures],
        sgp_credits: {
          limit: credits.limit,
          used: credits.used,
          remaining: credits.remaining,
          resets_at: credits.resetsAt.toISOString(),
        },
        subscription,
        streams: { open: app.streamHub.connectionsOf(key.id), limit: key.plan.streamConnections },
      };
    },
  );

  routes.get(
    '/me/usage',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Your daily usage: requests by route family, stream minutes, SGP credits',
        description: `Counts of the last \`days\` UTC days, today included, oldest first; every day and every family is present (0 when unused). Kept ${USAGE_RETENTION_DAYS} days. Counts belong to the key and the keys it was rotated from. The account's own calls (/v1/me and its routes, this one included) are free: not counted here nor against the plan's requests per minute (at most ${ACCOUNT_CALLS_PER_MINUTE} a minute). Requests answered by other servers of the API reach the counts within seconds.`,
        querystring: UsageQuerySchema,
        response: {
          200: UsageResponseSchema.describe(
            "The key line's counts per UTC day: requests by route family, stream minutes, SGP credits spent.",
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request) => app.usage.report(request.apiKey!.ledgerId, request.query.days),
  );

  routes.post(
    '/me/rotate',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Rotate your key: a new key, the old one revoked at once',
        description: `Answers a new key, shown once, with the same plan, expiry, subscription, same-game-parlay credits and usage history. The key that made the request stops working at once on every server, its open streams end with \`event: close\` and reason \`revoked\`, and the key's owner gets an email naming the new prefix (never the key). At most ${ROTATIONS_PER_HOUR} rotations per hour for a key and the keys rotated from it. No body.`,
        response: {
          200: RotationResponseSchema.describe(
            'The new key (shown once) and its prefix; the old key is revoked on every server.',
          ),
          ...COMMON_ERRORS,
          409: ProblemSchema.describe(
            'The key was already replaced by a newer one ("Lost your key?" emailed it), or was just rotated (`key-replaced`).',
          ),
          429: ProblemSchema.describe(
            `Over ${ACCOUNT_CALLS_PER_MINUTE} account calls per minute (\`rate-limited\`) or ${ROTATIONS_PER_HOUR} rotations per hour (\`rotation-limit\`); see Retry-After.`,
          ),
        },
      },
    },
    async (request) => {
      const key = request.apiKey!;
      const limited = await app.rateLimiter.hit(`rotate:${key.ledgerId}`, ROTATIONS_PER_HOUR, HOUR_MS);
      if (!limited.allowed) {
        const retryAfter = Math.max(1, Math.ceil(limited.retryAfterMs / 1000));
        throw new HttpProblem(
          429,
          'rotation-limit',
          'Too many key rotations',
          `A key may be rotated ${ROTATIONS_PER_HOUR} times per hour. Retry in ${retryAfter} s.`,
          { limit: ROTATIONS_PER_HOUR, retry_after_seconds: retryAfter },
          { 'retry-after': String(retryAfter) },
        );
      }
      const at = new Date(clock());
      const rotated = await app.paidKeys.rotateOwn(key.id, at);
      if (!rotated.ok) {
        throw new HttpProblem(
          409,
          'key-replaced',
          'Key already replaced',
          rotated.reason === 'replaced'
            ? 'A newer key replaced this one ("Lost your key?" emailed it): use that key, or rotate it.'
            : 'This key was rotated or revoked meanwhile: it no longer works.',
        );
      }
      const { result } = rotated;
      // After the commit: every instance forgets the old key and closes its streams (`revoked`); the notice goes out.
      app.apiKeys.changed([result.fromId], 'local', 'revoked');
      app.outbox.kick();
      request.log.info({ from: result.fromPrefix, to: result.toPrefix }, 'api key rotated by its owner');
      return {
        key: result.plain,
        prefix: result.toPrefix,
        old_prefix: result.fromPrefix,
        rotated_at: at.toISOString(),
      };
    },
  );

  routes.post(
    '/me/portal',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Open Stripe's billing portal of your key's subscription",
        description: `For a key a Stripe subscription issued: answers the URL of a Billing Portal session of its Stripe customer (change the plan, update the card, see the invoices, cancel), which returns to /account. The key's owner is emailed that the portal was opened. No body. At most ${PORTAL_OPENINGS_PER_HOUR} openings per hour for a key and the keys rotated from it; free, like every account call.`,
        response: {
          200: PortalResponseSchema.describe("The billing portal's URL: send the customer there."),
          ...COMMON_ERRORS,
          404: ProblemSchema.describe(
            'This server does not sell subscriptions through Stripe (`portal-unavailable`).',
          ),
          409: ProblemSchema.describe(
            'The key has no subscription to manage: a free trial key, or one the operators made (`no-subscription`).',
          ),
          429: ProblemSchema.describe(
            `Over ${PORTAL_OPENINGS_PER_HOUR} openings per hour (\`portal-limit\`) or ${ACCOUNT_CALLS_PER_MINUTE} account calls per minute (\`rate-limited\`); see Retry-After.`,
          ),
          503: ProblemSchema.describe(
            'Stripe did not open the portal; nothing changed (`stripe-unavailable`).',
          ),
        },
      },
    },
    async (request) => {
      const key = request.apiKey!;
      if (!key.stripeCustomerId) {
        throw new HttpProblem(
          409,
          'no-subscription',
          'No subscription to manage',
          key.kind === 'trial'
            ? 'This is a free trial key: it has no subscription to manage. Choose a plan on the pricing page to subscribe.'
            : 'This key was made by the operators, not bought through Stripe: ask them to change its plan.',
        );
      }
      const limited = await app.rateLimiter.hit(`portal:${key.ledgerId}`, PORTAL_OPENINGS_PER_HOUR, HOUR_MS);
      if (!limited.allowed) {
        const retryAfter = Math.max(1, Math.ceil(limited.retryAfterMs / 1000));
        throw new HttpProblem(
          429,
          'portal-limit',
          'Too many billing portal openings',
          `The billing portal may be opened ${PORTAL_OPENINGS_PER_HOUR} times an hour with a key. Retry in ${retryAfter} s.`,
          { limit: PORTAL_OPENINGS_PER_HOUR, retry_after_seconds: retryAfter },
          { 'retry-after': String(retryAfter) },
        );
      }
      const opened = await app.accountPortal.open(key);
      if (!opened.ok) {
        if (opened.reason === 'stripe') {
          throw new HttpProblem(
            503,
            'stripe-unavailable',
            'Billing portal unavailable',
            'Stripe did not open the billing portal. Nothing was changed: try again in a minute.',
            {},
            { 'retry-after': '30' },
          );
        }
        throw new HttpProblem(
          404,
          'portal-unavailable',
          'No billing portal here',
          'This server does not manage subscriptions through Stripe.',
        );
      }
      request.log.info({ key: key.prefix }, 'billing portal opened with the key');
      return { url: opened.url, opened_at: opened.openedAt.toISOString() };
    },
  );
}
