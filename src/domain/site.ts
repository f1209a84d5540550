// One typed module for the brand and every external URL the site links to (DESIGN.md "Business constants").
// Change a URL here, nowhere else. Build-time overrides come from the web app's public config.

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
  subscriptionPortalUrl: string;
  checkoutUrls: Readonly<Record<'starter' | 'pro' | 'elite' | 'enterprise', string>>;
  social: readonly SocialLink[];
}

export const SITE: SiteConfig = {
  brand: 'Sharpline',
  tagline: 'Real-time sports betting odds data',
  defaultOrigin: 'https://sharpline.io',
  supportEmail: 'support@sharpline.io',
  docsUrl: '/docs',
  subscriptionPortalUrl: 'https://billing.sharpline.io/p/login/manage',
  checkoutUrls: {
    starter: 'https://checkout.sharpline.io/b/starter-monthly',
    pro: 'https://checkout.sharpline.io/b/pro-monthly',
    elite: 'https://checkout.sharpline.io/b/elite-monthly',
    enterprise: 'https://checkout.sharpline.io/b/enterprise-monthly',
  },
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
  pricing: '/sports-betting-api',
} as const;

/** Joins a canonical origin and a path without doubling or dropping slashes. */
export function absoluteUrl(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}
