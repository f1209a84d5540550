import { ROUTES, SITE } from './site.ts';

// The site's header and footer as data (docs/product.md §2; issue 56): the React pages' header and footer
// (src/web/components/site-header.tsx, site-footer.tsx) and the server-rendered API reference (/docs,
// src/server/odds-api/docs.ts) draw them from here, so the two can never list different links.

export interface NavLink {
  /** The link's name ("API Pricing"): its accessible name at every width. */
  label: string;
  /** The end of `label` a phone shows ("Pricing"); the rest is for screen readers only. Absent: the whole label. */
  short?: string;
  href: string;
  /** A page the server renders, not one of the React app's routes: a full page load, never the client router. */
  server?: boolean;
  /** Shown only where the server manages subscriptions (`manageSubscription` is not `none`, decision 151). */
  whenSubscriptionsManaged?: boolean;
}

/** The betting tools (the three finders, the bet tracker, the calibration report): the header's Betting Tools menu and
 * the footer's last links. */
export const TOOL_LINKS: readonly NavLink[] = [
  { label: 'Arbitrage Finder', href: ROUTES.arbitrage },
  { label: 'Positive EV Finder', href: ROUTES.positiveEv },
  { label: 'Middles Finder', href: ROUTES.middles },
  { label: 'Bet Tracker', href: ROUTES.betTracker },
  { label: 'Calibration Report', href: ROUTES.calibration },
];

const PRICING: NavLink = { label: 'API Pricing', short: 'Pricing', href: ROUTES.pricing };
const DOCS: NavLink = { label: 'Docs', href: SITE.docsUrl, server: true };
/** Below 360 px wide it is in the footer only. */
const ACCOUNT: NavLink = { label: 'Your Account', short: 'Account', href: ROUTES.account };

export const HEADER_NAV = {
  /** The brand's link: its accessible name (the brand is the logo alone on phones). */
  home: { label: `${SITE.brand} home`, href: ROUTES.home },
  /** The Betting Tools menu. */
  tools: { label: 'Betting Tools', short: 'Tools', links: TOOL_LINKS },
  pricing: PRICING,
  docs: DOCS,
  account: ACCOUNT,
  /** After the menu, in this order. */
  links: [PRICING, DOCS, ACCOUNT],
} as const;

export const FOOTER_NAV = {
  blurb: `${SITE.tagline} for bettors, traders and operators.`,
  productTitle: 'Product',
  product: [
    { label: 'Sports Betting API', href: ROUTES.pricing },
    { label: 'API Documentation', href: SITE.docsUrl, server: true },
    {
      label: 'Manage Subscription',
      href: ROUTES.manageSubscription,
      server: true,
      whenSubscriptionsManaged: true,
    },
    { label: 'Your Account', href: ROUTES.account },
    ...TOOL_LINKS,
  ] satisfies readonly NavLink[],
  socialTitle: 'Follow us',
  social: SITE.social,
} as const;

/** The footer's last line. */
export function footerNote(year: number): string {
  return `© ${year} ${SITE.brand}. Odds data for information; bet responsibly. 21+.`;
}

/** The words of `label` before `short` ("API " of "API Pricing"): read by screen readers only on phones. */
export function longPart(link: Pick<NavLink, 'label' | 'short'>): string {
  return link.short ? link.label.slice(0, link.label.length - link.short.length) : '';
}
