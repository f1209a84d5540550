import { SITE, ROUTES } from '#domain/site.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { SportsbookPicker } from '#web/features/arbitrage/components/sportsbook-picker.tsx';
import {
  useSelectedSportsbooks,
  useSportsbookStates,
} from '#web/features/arbitrage/hooks/use-sportsbook-preferences.ts';
import { useStoredOddsFormat } from '#web/features/arbitrage/hooks/use-tool-settings.ts';
import { MIDDLES_FEED_PATH } from '#web/features/middles/api/get-middles.ts';
import { MiddlesTool } from '#web/features/middles/components/middles-tool.tsx';
import { finderFeedBase } from '#web/lib/finder-feed.ts';
import { firstFetchMeta } from '#web/lib/first-fetch.ts';
import { seoMeta, webApplicationLd } from '#web/lib/seo.ts';

export const meta = () => [
  ...seoMeta({
    path: ROUTES.middles,
    title: `Middle Betting Finder: Spread and Total Middles | ${SITE.brand}`,
    description:
      'Opposite sides of a spread, total or player prop at two sportsbooks that can both win: the gap, the chance of landing in it from a score or stat model, the EV, the worst case and the stakes for your total.',
    keywords: [
      'middle betting',
      'middles finder',
      'betting middles',
      'spread middle',
      'total middle',
      'middling sports bets',
    ],
    jsonLd: [webApplicationLd(`${SITE.brand} Middles Finder`, ROUTES.middles)],
  }),
  firstFetchMeta(finderFeedBase(MIDDLES_FEED_PATH)),
];

/** The middles page: the middles feature with the visitor's sportsbooks and odds format, as on the arbitrage page. */
export default function MiddlesRoute() {
  const { selected, setSelected } = useSelectedSportsbooks();
  const { states } = useSportsbookStates();
  const { oddsFormat, setOddsFormat } = useStoredOddsFormat();
  return (
    <PageShell>
      <MiddlesTool
        books={selected}
        states={states}
        storedFormat={oddsFormat}
        onFormatChange={setOddsFormat}
        booksControl={<SportsbookPicker selected={selected} onChange={setSelected} />}
      />
    </PageShell>
  );
}
