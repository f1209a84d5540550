import type { MetaDescriptor } from 'react-router';
import { absoluteUrl, SITE } from '#domain/site.ts';

// Head tags of every page (title, description, keywords, canonical, Open Graph, Twitter card, JSON-LD), prerendered
// into the HTML. URLs use SITE.defaultOrigin; the server swaps in SITE_URL when it loads the pages.

export interface PageSeo {
  path: string;
  title: string;
  description: string;
  keywords: readonly string[];
  jsonLd: readonly Record<string, unknown>[];
  /** Pages that should not be indexed (the 404 page). */
  noindex?: boolean;
}

export const OG_IMAGE = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  alt: `${SITE.brand}: real-time sports betting odds data`,
};

/**
 * The canonical origin. Prerendering writes SITE.defaultOrigin and the server replaces it with SITE_URL when it loads
 * the HTML; in the browser the origin is read back from the served og:url, so the head React renders on hydration is
 * identical to the served one (a mismatch would leave two canonical links). See docs/decisions/005-canonical-origin.md.
 */
let cachedOrigin: string | undefined;
export function siteOrigin(): string {
  if (cachedOrigin) return cachedOrigin;
  if (typeof document === 'undefined') return SITE.defaultOrigin;
  const served = document.querySelector<HTMLMetaElement>('meta[property="og:url"]')?.content;
  try {
    cachedOrigin = served ? new URL(served).origin : SITE.defaultOrigin;
  } catch {
    cachedOrigin = SITE.defaultOrigin;
  }
  return cachedOrigin;
}

export function pageUrl(path: string): string {
  return absoluteUrl(siteOrigin(), path);
}

export function seoMeta(seo: PageSeo): MetaDescriptor[] {
  const url = pageUrl(seo.path);
  const image = pageUrl(OG_IMAGE.path);
  return [
    { title: seo.title },
    { name: 'description', content: seo.description },
    { name: 'keywords', content: seo.keywords.join(', ') },
    ...(seo.noindex
      ? [{ name: 'robots', content: 'noindex' }]
      : [{ tagName: 'link', rel: 'canonical', href: url }]),
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: SITE.brand },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { property: 'og:image:width', content: String(OG_IMAGE.width) },
    { property: 'og:image:height', content: String(OG_IMAGE.height) },
    { property: 'og:image:alt', content: OG_IMAGE.alt },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: seo.title },
    { name: 'twitter:description', content: seo.description },
    { name: 'twitter:image', content: image },
    ...seo.jsonLd.map((data) => ({ 'script:ld+json': data })),
  ];
}

export const organizationLd = () => ({
  '@type': 'Organization',
  '@id': pageUrl('/#organization'),
  name: SITE.brand,
  url: pageUrl('/'),
  logo: pageUrl('/favicon.svg'),
  sameAs: SITE.social.map((link) => link.href),
});

/** The JSON-LD of a free tool page (the three finders). */
export function webApplicationLd(name: string, path: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebApplication',
    name,
    url: pageUrl(path),
    applicationCategory: 'FinanceApplication',
    operatingSystem: 'Any (web browser)',
    offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
    publisher: organizationLd(),
  };
}
