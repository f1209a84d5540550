// One typed module for the brand and every external URL the site links to (docs/product.md §7).
// Change a URL here, nowhere else. Build-time overrides come from the web app's public config. Checkout and the
// subscription portal are not here: they are the server's settings, read by the pages at run time (decision 151).

export interface SocialLink {
  name: string;
  href: string;
}

export interface SiteConfig {
  brand: string;
  tagline: string;
  /** Canonical origin used when SITE_URL is not set. */
  defaultOrigin: string;
  supportEmail: string;
  /** API reference; same-origin `/docs` by default (the paid API issue serves it). */
  docsUrl: string;
  social: readonly SocialLink[];
}

export const SITE: SiteConfig = {
  brand: 'Sharpline',
  tagline: 'Real-time sports betting odds data',
  defaultOrigin: 'https://sharpline.io',
  supportEmail: 'support@sharpline.io',
  docsUrl: '/docs',
  social: [
    { name: 'X (Twitter)', href: 'https://x.com/sharplinedata' },
    { name: 'LinkedIn', href: 'https://www.linkedin.com/company/sharpline-data' },
    { name: 'Discord', href: 'https://discord.gg/sharpline' },
    { name: 'GitHub', href: 'https://github.com/sharpline-data' },
  ],
};

export const ROUTES = {
  home: '/',
  arbitrage: '/betting-tools/arbitrage',
  /** Prices above the market's fair odds, delayed and coarse (issue 36, decision 163). */
  positiveEv: '/betting-tools/positive-ev',
  /** Pairs of spread or total sides at two books that can both win, delayed and coarse (issue 36, decision 169). */
  middles: '/betting-tools/middles',
  /** Bets tracked from the finders or by hand, kept in the browser and graded by the public results (issue 57). */
  betTracker: '/betting-tools/bet-tracker',
  /** Closing fair probabilities against graded results, per league and market (issue 57, decision 266). */
  calibration: '/betting-tools/calibration',
  pricing: '/sports-betting-api',
  /** Where a paid Checkout Session returns the buyer (`?session_id=`): payment received, the key is on its way. */
  welcome: '/welcome',
  /**
   * Self-service with the key (issue 33, decision 156): a pasted key shows its plan, limits, usage and credits, and
   * rotates. No login: the key stays in the tab's sessionStorage and goes only to this site's /v1 as X-Api-Key.
   */
  account: '/account',
  /** "Manage Subscription": the server sends the visitor to Stripe's portal, or to the pricing page's form. */
  manageSubscription: '/manage-subscription',
  /** The home page's trial form. */
  trialForm: '/#trial',
} as const;

/** Joins a canonical origin and a path without doubling or dropping slashes. */
export function absoluteUrl(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * The meta element by which a prerendered page names the request its first content needs: the page's script loader
 * sends it as it starts, after the first paint (docs/decisions/186).
 */
export const FIRST_FETCH_META = 'sharpline:first-fetch';

/**
 * What "Manage Subscription" does on this server (`portal`, `email` or `none`, decision 151), in a meta element the
 * server adds to every page it serves (decision 298). Where it is `none`, the server has also taken out of the page every
 * element marked `WHEN_SUBSCRIPTIONS_MANAGED` (the footer's link, the pricing page's section), and the page's first
 * render leaves them out too, so that hydration matches.
 */
export const MANAGE_SUBSCRIPTION_META = 'sharpline:manage-subscription';
/** The attribute marking a prerendered element that a server managing no subscriptions takes out of the page. */
export const WHEN_SUBSCRIPTIONS_MANAGED = 'data-when-subscriptions-managed';
