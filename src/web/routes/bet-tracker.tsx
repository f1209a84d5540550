import { ROUTES, SITE } from '#domain/site.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { useStoredOddsFormat } from '#web/features/arbitrage/hooks/use-tool-settings.ts';
import { BetTracker } from '#web/features/bet-tracker/components/bet-tracker.tsx';
import { seoMeta, webApplicationLd } from '#web/lib/seo.ts';

export const meta = () =>
  seoMeta({
    path: ROUTES.betTracker,
    title: `Free Bet Tracker: Profit, ROI and CLV of Your Bets | ${SITE.brand}`,
    description:
      'Track arbitrage, positive-EV and middle bets, or any bet by hand, without an account: bets are kept in your browser and grade themselves from final scores, with profit, ROI, CLV and a profit chart by sport, book and kind. Export and import CSV or JSON.',
    keywords: ['bet tracker', 'sports betting tracker', 'betting roi', 'closing line value', 'bet grading'],
    jsonLd: [webApplicationLd(`${SITE.brand} Bet Tracker`, ROUTES.betTracker)],
  });

/** The bet tracker page: the visitor's bets, in the odds format chosen on the finder pages. */
export default function BetTrackerRoute() {
  const { oddsFormat } = useStoredOddsFormat();
  return (
    <PageShell>
      <BetTracker format={oddsFormat} />
    </PageShell>
  );
}
