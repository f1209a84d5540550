import { SITE, ROUTES } from '#domain/site.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { SportsbookPicker } from '#web/features/arbitrage/components/sportsbook-picker.tsx';
import {
  useSelectedSportsbooks,
  useSportsbookStates,
} from '#web/features/arbitrage/hooks/use-sportsbook-preferences.ts';
import { EV_FEED_PATH } from '#web/features/positive-ev/api/get-ev.ts';
import { PositiveEvTool } from '#web/features/positive-ev/components/positive-ev-tool.tsx';
import { finderFeedBase } from '#web/lib/finder-feed.ts';
import { firstFetchMeta } from '#web/lib/first-fetch.ts';
import { seoMeta, webApplicationLd } from '#web/lib/seo.ts';

export const meta = () => [
  ...seoMeta({
    path: ROUTES.positiveEv,
    title: `Positive EV Betting Finder: Prices Above Fair Odds | ${SITE.brand}`,
    description:
      'Sportsbook prices that pay more than the market’s fair odds, with the fair price from a consensus of books, the expected value and a Kelly stake for your bankroll.',
    keywords: [
      'positive ev betting',
      '+EV bets',
      'expected value',
      'fair odds',
      'no-vig odds',
      'kelly criterion',
    ],
    jsonLd: [webApplicationLd(`${SITE.brand} Positive EV Finder`, ROUTES.positiveEv)],
  }),
  firstFetchMeta(finderFeedBase(EV_FEED_PATH)),
];

/** The positive-EV page: the EV feature with the visitor's sportsbooks, chosen as on the arbitrage page. */
export default function PositiveEvRoute() {
  const { selected, setSelected } = useSelectedSportsbooks();
  const { states } = useSportsbookStates();
  return (
    <PageShell>
      <PositiveEvTool
        books={selected}
        states={states}
        booksControl={<SportsbookPicker selected={selected} onChange={setSelected} />}
      />
    </PageShell>
  );
}
