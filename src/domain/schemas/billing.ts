import { z } from 'zod/mini';
import { PLAN_IDS, type PlanId } from '../plans.ts';

// What the pages read from the server about buying (decision 151), written with zod/mini like feed.ts so that the
// site's shell (every page reads the site configuration) loads only the checks it uses. The server answers with
// these schemas; the pages parse with them.

const PlanIdSchema = z.enum(PLAN_IDS as readonly [PlanId, ...PlanId[]]);
const PurchaseSchema = z.enum(['open', 'closed']);

/**
 * GET /api/site-config: how each plan is bought here (`open`: its button posts to /api/checkout, which goes to the
 * plan's Payment Link or a Checkout Session; `closed`: purchases are not open on this server) and what "Manage
 * Subscription" does (`portal`: Stripe's portal login; `email`: the pricing page's one-time link form; `none`: hidden).
 */
export const SiteConfigSchema = z.object({
  checkout: z.object({
    starter: PurchaseSchema,
    pro: PurchaseSchema,
    elite: PurchaseSchema,
    enterprise: PurchaseSchema,
  }),
  manageSubscription: z.enum(['portal', 'email', 'none']),
});
export type SiteConfigResponse = z.infer<typeof SiteConfigSchema>;

/**
 * GET /api/checkout/session?session_id=cs_…: what the welcome page says. `paid`: the key is on its way to `email`
 * (masked); `processing`: complete, the payment not yet through (a bank debit); `not-paid`: the checkout was left
 * open or expired, nothing was charged. An unknown session is a 404 problem, an id that is not one a 400.
 */
export const CheckoutStatusSchema = z.object({
  status: z.enum(['paid', 'processing', 'not-paid']),
  plan: z.nullable(PlanIdSchema),
  email: z.nullable(z.string().check(z.maxLength(320))),
});
export type CheckoutStatus = z.infer<typeof CheckoutStatusSchema>;
