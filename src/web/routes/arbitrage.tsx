import { coverage } from '#domain/coverage.ts';
import { SITE, ROUTES } from '#domain/site.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { arbsFeedUrl, requestFirstFeedEarly } from '#web/features/arbitrage/api/get-arbs.ts';
import { ArbitrageTool } from '#web/features/arbitrage/components/arbitrage-tool.tsx';
import { firstFetchMeta } from '#web/lib/first-fetch.ts';
import { seoMeta, webApplicationLd } from '#web/lib/seo.ts';

// The first rows' request: the one the script loader sent, or one sent now, before the page hydrates (decision 186).
requestFirstFeedEarly();

export const meta = () => [
  ...seoMeta({
    path: ROUTES.arbitrage,
    title: `Live Arbitrage Finder: Sure Bets Across ${coverage().bookCount} Sportsbooks | ${SITE.brand}`,
    description: `Find live and pre-match arbitrage bets across ${coverage().books}, ${coverage().licences}. Edges, equal-payout stakes and one-click bet links, refreshed every second.`,
    keywords: [
      'arbitrage betting',
      'arb finder',
      'sure bets',
      'sports arbitrage calculator',
      'live arbs',
      'odds screen',
    ],
    jsonLd: [webApplicationLd(`${SITE.brand} Arbitrage Finder`, ROUTES.arbitrage)],
  }),
  firstFetchMeta(arbsFeedUrl()),
];

export default function ArbitrageRoute() {
  return (
    <PageShell>
      <ArbitrageTool />
    </PageShell>
  );
}
