import { z } from 'zod';
import { USAGE_FAMILIES, USAGE_FAMILY_ROUTES, USAGE_RETENTION_DAYS } from '../../usage.ts';
import { PlanIdSchema } from './common.ts';
import { ME_EXAMPLE, PORTAL_EXAMPLE, ROTATION_EXAMPLE, USAGE_EXAMPLE } from './examples.ts';

// GET /v1/me: the calling key, its plan, limits, usage, same-game-parlay credits, subscription and open streams;
// GET /v1/me/usage: its daily counts; POST /v1/me/rotate: a new key for it (docs/decisions/155).

/** Stripe's subscription statuses (https://docs.stripe.com/api/subscriptions/object#subscription_object-status). */
export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'canceled',
  'unpaid',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;

export const MeResponseSchema = z
  .object({
    key: z.object({
      prefix: z.string().describe('Public start of the key, safe to share with support.'),
      kind: z.enum(['trial', 'paid']),
      created_at: z.iso.datetime(),
      expires_at: z.iso.datetime().nullable(),
    }),
    plan: z.object({
      id: PlanIdSchema,
      name: z.string(),
      real_time: z.boolean(),
      delay_seconds: z.number().int(),
    }),
    limits: z.object({
      requests_per_minute: z.number().int().positive(),
      stream_connections: z.number().int().positive(),
    }),
    usage: z.object({
      used: z
        .number()
        .int()
        .nonnegative()
        .describe('Requests counted in the current window, this one included.'),
      remaining: z.number().int().nonnegative(),
      resets_in_seconds: z
        .number()
        .int()
        .nonnegative()
        .describe('Seconds until this one-minute window ends and the full quota is back.'),
    }),
    features: z.array(z.string()),
    sgp_credits: z
      .object({
        limit: z
          .number()
          .int()
          .nonnegative()
          .describe(
            "Same-game-parlay credits of this UTC calendar month: the plan's allowance (Elite 10,000, Enterprise 100,000) plus any credits granted for the month; 0 on plans without SGP pricing.",
          ),
        used: z
          .number()
          .int()
          .nonnegative()
          .describe('Credits spent this month: one per priced POST /v1/sgp request.'),
        remaining: z
          .number()
          .int()
          .nonnegative()
          .describe('Credits left this month (`limit` − `used`, never below 0).'),
        resets_at: z.iso
          .datetime()
          .describe(
            'Start of the next UTC month, when the allowance starts again from 0 used (unused credits do not carry over).',
          ),
      })
      .describe('Same-game-parlay credits (POST /v1/sgp) of the current month.'),
    subscription: z
      .object({
        status: z
          .enum(SUBSCRIPTION_STATUSES)
          .describe(
            "The Stripe subscription's status as its last event told it: `active`, `trialing`, `past_due`, `canceled`, `unpaid`, `incomplete` (also `incomplete_expired`, `paused`).",
          ),
        renews_at: z.iso
          .datetime()
          .nullable()
          .describe(
            'End of the current billing period: the subscription renews then, or ends then when `cancel_at_period_end` is true. Null when canceled, or not yet told by Stripe.',
          ),
        cancel_at_period_end: z
          .boolean()
          .describe('The subscription was cancelled and stops at `renews_at` instead of renewing.'),
      })
      .nullable()
      .describe(
        'The Stripe subscription of a paid key bought by checkout; null for trial keys and keys made by operators without one. Change it in the subscription portal.',
      ),
    streams: z
      .object({
        open: z
          .number()
          .int()
          .nonnegative()
          .describe(
            'Streams (GET /v1/stream) of this key open on the server answering: the concurrent-stream limit applies per server.',
          ),
        limit: z.number().int().positive().describe("The plan's concurrent streams per key."),
      })
      .describe('Open streams of this key and the limit.'),
  })
  .meta({ id: 'Me', examples: [ME_EXAMPLE] });

export type MeResponse = z.infer<typeof MeResponseSchema>;

export const UsageQuerySchema = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(USAGE_RETENTION_DAYS)
    .default(30)
    .describe(`How many UTC days, today included (1 to ${USAGE_RETENTION_DAYS}; default 30).`),
});

const familyCounts = z
  .object(
    Object.fromEntries(
      USAGE_FAMILIES.map((family) => [
        family,
        z.number().int().nonnegative().describe(USAGE_FAMILY_ROUTES[family]),
      ]),
    ) as Record<(typeof USAGE_FAMILIES)[number], z.ZodNumber>,
  )
  .describe('Requests by route family; every family is present, 0 when unused.');

export const UsageDaySchema = z.object({
  date: z.iso.date().describe('The UTC day, `YYYY-MM-DD`.'),
  requests: z
    .number()
    .int()
    .nonnegative()
    .describe("Requests admitted against the key's per-minute quota that day, whatever their answer."),
  by_family: familyCounts,
  stream_minutes: z
    .number()
    .int()
    .nonnegative()
    .describe('Minutes of open streams, each started minute counted (a 10-second stream is 1 minute).'),
  sgp_credits: z
    .number()
    .int()
    .nonnegative()
    .describe('Same-game-parlay credits spent (priced POST /v1/sgp requests).'),
});

export const UsageResponseSchema = z
  .object({
    from: z.iso.date().describe('First day shown (UTC).'),
    to: z.iso.date().describe('Last day shown: today (UTC).'),
    retention_days: z.number().int().positive().describe('Days of usage kept; older days are deleted.'),
    days: z.array(UsageDaySchema).describe('Every day from `from` to `to`, oldest first.'),
  })
  .meta({ id: 'Usage', examples: [USAGE_EXAMPLE] });

export const RotationResponseSchema = z
  .object({
    key: z
      .string()
      .describe(
        'The new key. Shown this once: only its fingerprint is stored. Store it before closing the answer.',
      ),
    prefix: z.string().describe('Public start of the new key.'),
    old_prefix: z.string().describe('Public start of the key that was rotated; it no longer works.'),
    rotated_at: z.iso.datetime(),
  })
  .meta({ id: 'KeyRotation', examples: [ROTATION_EXAMPLE] });

/** POST /v1/me/portal (issue 56, decision 220): a Stripe Billing Portal session of the key's subscription. */
export const PortalResponseSchema = z
  .object({
    url: z
      .url()
      .describe(
        "Stripe's billing portal for the key's subscription (plan, card, invoices, cancellation), for a few minutes; it returns to /account.",
      ),
    opened_at: z.iso.datetime(),
  })
  .meta({ id: 'BillingPortal', examples: [PORTAL_EXAMPLE] });

export type UsageResponse = z.infer<typeof UsageResponseSchema>;
export type PortalResponse = z.infer<typeof PortalResponseSchema>;
export type RotationResponse = z.infer<typeof RotationResponseSchema>;
