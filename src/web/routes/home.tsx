import { FREE_PLAN, formatDelay } from '#domain/plans.ts';
import { Link } from 'react-router';
import { ROUTES, SITE } from '#domain/site.ts';
import { coverage } from '#domain/coverage.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { FeatureBlurbs } from '#web/features/marketing/components/feature-blurbs.tsx';
import { OddsStrip } from '#web/features/marketing/components/odds-strip.tsx';
import { SportsbookCoverage } from '#web/features/marketing/components/sportsbook-coverage.tsx';
import { ToolCards } from '#web/features/marketing/components/tool-cards.tsx';
import { TwinklingDots } from '#web/features/marketing/components/twinkling-dots.tsx';
import { TrialForm } from '#web/features/trial-form/components/trial-form.tsx';
import { organizationLd, pageUrl, seoMeta } from '#web/lib/seo.ts';

export const meta = () =>
  seoMeta({
    path: ROUTES.home,
    title: `${SITE.brand}: Real-Time Sports Betting Odds API and Betting Tools`,
    description: `Odds from ${coverage().books} (${coverage().licences}) over ${coverage().leagues}: main lines, alternates and player props by REST or server-sent events, real time on the Elite and Enterprise plans. Start a free one-week API trial.`,
    keywords: [
      'sports betting API',
      'odds API',
      'real-time odds data',
      'sportsbook odds feed',
      'player props API',
      'arbitrage betting',
    ],
    jsonLd: [
      { '@context': 'https://schema.org', ...organizationLd() },
      {
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        '@id': pageUrl('/#website'),
        name: SITE.brand,
        url: pageUrl('/'),
        publisher: { '@id': organizationLd()['@id'] },
      },
    ],
  });

export default function HomeRoute() {
  return (
    <PageShell>
      <section className="relative isolate overflow-hidden border-b border-slate-800 bg-[radial-gradient(ellipse_at_top,_#064e3b_0%,_#020617_60%)]">
        <TwinklingDots />
        <div className="relative mx-auto grid max-w-6xl items-center gap-10 px-4 py-14 md:grid-cols-[1.2fr_1fr] md:py-20">
          <div>
            <p className="text-sm font-semibold uppercase tracking-widest text-emerald-300">
              Odds data for bettors, traders and operators
            </p>
            <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-white sm:text-5xl">
              Real-time sports betting odds, one API.
            </h1>
            <p className="mt-5 max-w-xl text-lg leading-relaxed text-slate-300">
              Prices from {coverage().booksDetail} over {coverage().leagues}, standardized into one schema and
              delivered with sub-second latency on the real-time plans. Try it free for one week.
            </p>
            <div className="mt-6 flex flex-wrap gap-3">
              <Link
                to={ROUTES.pricing}
                className="inline-flex h-11 items-center rounded-md border border-slate-500 px-5 font-semibold text-white hover:bg-slate-800"
              >
                See API plans and pricing
              </Link>
              <Link
                to={ROUTES.arbitrage}
                className="inline-flex h-11 items-center rounded-md px-5 font-semibold text-emerald-200 underline-offset-4 hover:underline"
              >
                Open the arbitrage finder
              </Link>
            </div>
          </div>
          {/* The pricing page's "start a free trial" links land here (/#trial). */}
          <div id="trial" className="scroll-mt-24">
            <TrialForm />
          </div>
        </div>
        <div className="relative mx-auto max-w-6xl px-4 pb-12">
          <OddsStrip />
        </div>
      </section>
      <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="features-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
          Built for people who bet for a living
        </h2>
        <p className="mt-2 max-w-2xl text-slate-300">
          Everything a trading desk needs from an odds feed, nothing it has to clean up.
        </p>
        <div className="mt-8">
          <FeatureBlurbs />
        </div>
        <h2 id="tools-title" className="mt-12 text-xl font-bold tracking-tight text-white">
          Free betting tools
        </h2>
        <p className="mt-2 max-w-2xl text-slate-300">
          Three finders over the same odds, a bet tracker and a calibration report, free on the site. The
          arbitrage finder shows arbs up to {FREE_PLAN.finders.arbEdgeCapPct}% edge live and counts the rest;
          the positive-EV and middles finders show prices {formatDelay(FREE_PLAN.finders.valuesDelaySeconds)}{' '}
          old. An API key pasted on any of the three finders shows what its plan gets.
        </p>
        <div className="mt-4">
          <ToolCards />
        </div>
        <h2 id="sportsbooks-title" className="mt-12 text-xl font-bold tracking-tight text-white">
          Where the prices come from
        </h2>
        <p className="mt-2 max-w-2xl text-slate-300">
          {coverage().booksDetail}. Offshore books take bets from US bettors without a US licence: check what
          the law allows where you are.
        </p>
        <div className="mt-4">
          <SportsbookCoverage id="sportsbooks" />
        </div>
        <p className="mt-10">
          <Link
            to={ROUTES.pricing}
            className="font-semibold text-emerald-300 underline-offset-4 hover:underline"
          >
            Compare the Sports Betting API plans →
          </Link>
        </p>
      </section>
    </PageShell>
  );
}
