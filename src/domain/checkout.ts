import { noticeOf, noticePath } from './site-notices.ts';
import { ROUTES } from './site.ts';

// Buying a plan and managing a subscription without a login (decision 151): what the server's answers and the pages
// agree on. The server answers the pricing page's forms with a 303 to the page, a query flag and a fragment; the page
// shows the notice of that fragment (CSS `:target`, so without JavaScript too) and of that flag (after hydration).

/** The server's routes the pages use for buying, shared by both sides. */
export const BILLING_PATHS = {
  /** POST (form or JSON: `plan`, optional `email`): a 303 to the checkout, or back to the pricing page. */
  checkout: '/api/checkout',
  /** GET `?session_id=cs_…`: what the welcome page says (schemas/billing.ts CheckoutStatusSchema). */
  checkoutSession: '/api/checkout/session',
  /** GET: how buying is done on this server (schemas/billing.ts SiteConfigSchema). */
  siteConfig: '/api/site-config',
  /** POST (form: `email`): emails a one-time "Manage subscription" link; a 303 back to the pricing page. */
  portalLink: '/api/billing-portal/link',
} as const;

export const PRICING_NOTICES = {
  /** Stripe did not create the Checkout Session (unreachable, an error): nothing was charged. */
  checkoutUnavailable: { flag: 'checkout=unavailable', id: 'checkout-unavailable' },
  /** Neither a Payment Link nor Stripe with a price for the plan: purchases are not open on this server. */
  purchasesClosed: { flag: 'checkout=closed', id: 'purchases-closed' },
  /** Too many checkout attempts from one client address. */
  checkoutBusy: { flag: 'checkout=busy', id: 'checkout-busy' },
  /** "Manage subscription" by email: answered the same whether or not the address has a subscription. */
  portalLinkSent: { flag: 'portal=sent', id: 'portal-link-sent' },
  portalLinkBusy: { flag: 'portal=busy', id: 'portal-link-busy' },
  portalLinkInvalid: { flag: 'portal=invalid', id: 'portal-link-invalid' },
} as const;

export type PricingNotice = keyof typeof PRICING_NOTICES;

/** The pricing page showing one notice: `/sports-betting-api?checkout=unavailable#checkout-unavailable`. */
export function pricingNoticePath(notice: PricingNotice): string {
  return noticePath(ROUTES.pricing, PRICING_NOTICES[notice]);
}

/** The notice a pricing page URL asks for (its query flag, else its fragment), if any. */
export function pricingNoticeOf(search: string, hash: string): PricingNotice | null {
  return noticeOf(PRICING_NOTICES, search, hash);
}

/** The pricing page section holding the "Manage subscription" email form. */
export const MANAGE_SUBSCRIPTION_SECTION = 'manage-subscription';

/** A one-time "Manage subscription" link works this long after it is emailed, once. */
export const PORTAL_LINK_TTL_MS = 15 * 60_000;

/**
 * A Checkout Session id as Stripe writes them (`cs_test_…`, `cs_live_…`): only such an id is ever sent to Stripe.
 * Stripe's ids are about 66 characters; 255 leaves room and still bounds what a visitor can make us send.
 */
export const CHECKOUT_SESSION_ID = /^cs_(?:test|live)_[0-9A-Za-z]{1,246}$/;

/** `jane@example.com` → `j***@example.com`: enough for the buyer to recognise, not to read out. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** The pricing page with the trial's address to fill in the plan forms (a fragment: it never reaches a log). */
export function pricingWithEmailPath(email: string): string {
  return `${ROUTES.pricing}#email=${encodeURIComponent(email)}`;
}

/** The address a `#email=…` fragment carries, when it is one (at most 254 characters, one @). */
export function emailFromFragment(hash: string): string | null {
  const match = /^#?email=([^&]*)$/.exec(hash);
  if (!match) return null;
  let email: string;
  try {
    email = decodeURIComponent(match[1]!).trim();
  } catch {
    return null;
  }
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null;
}
