import { ROUTES, SITE } from '#domain/site.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { organizationLd, pageUrl, seoMeta } from '#web/lib/seo.ts';

export const meta = () =>
  seoMeta({
    path: ROUTES.home,
    title: `${SITE.brand}: Real-Time Sports Betting Odds API and Betting Tools`,
    description: 'Real-time odds from 15 sportsbooks with sub-second latency.',
    keywords: ['sports betting API', 'odds API', 'real-time odds'],
    jsonLd: [{ '@context': 'https://schema.org', ...organizationLd }, { '@context': 'https://schema.org', '@type': 'WebSite', name: SITE.brand, url: pageUrl('/') }],
  });

export default function HomeRoute() {
  return (
    <PageShell header="tools">
      <h1>{SITE.brand}</h1>
    </PageShell>
  );
}
