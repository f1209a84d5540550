import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { emailFromFragment, pricingNoticeOf, type PricingNotice } from '#domain/checkout.ts';
import { FREE_PLAN, formatPrice, PLANS, trialTerms } from '#domain/plans.ts';
import { ROUTES, SITE, WHEN_SUBSCRIPTIONS_MANAGED } from '#domain/site.ts';
import { coverage } from '#domain/coverage.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { LostKeyForm } from '#web/features/pricing/components/lost-key-form.tsx';
import { ManageSubscription } from '#web/features/pricing/components/manage-subscription.tsx';
import { PlanCard } from '#web/features/pricing/components/plan-card.tsx';
import { PricingNoticeBox } from '#web/features/pricing/components/pricing-notice.tsx';
import { organizationLd, pageUrl, seoMeta } from '#web/lib/seo.ts';
import { useManageSubscription, useSiteConfig } from '#web/lib/site-config.ts';

/** "a, b and c". */
function listWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

export const meta = () =>
  seoMeta({
    path: ROUTES.pricing,
    // Every number from the plan table (issue 56): the cheapest price and each plan's.
    title: `Sports Betting API Pricing: Plans from ${formatPrice(PLANS[0]!)}/month | ${SITE.brand}`,
    description: `Sports betting odds API plans: ${listWords(PLANS.map((plan) => `${plan.name} ${formatPrice(plan)}`))} per month. Real-time odds, same-game-parlay credits and historical closing line value.`,
    keywords: [
      'sports betting API pricing',
      'odds API plans',
      'real-time odds API',
      'historical odds',
      'SGP API',
    ],
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: `${SITE.brand} Sports Betting API`,
        description: `Real-time and delayed sports betting odds from ${coverage().books} (${coverage().licences}) over ${coverage().leagues}, by REST and server-sent events.`,
        url: pageUrl(ROUTES.pricing),
        brand: { '@type': 'Brand', name: SITE.brand },
        manufacturer: organizationLd(),
        offers: PLANS.map((plan) => ({
          '@type': 'Offer',
          name: plan.name,
          price: plan.price.toFixed(2),
          priceCurrency: 'USD',
          url: pageUrl(`${ROUTES.pricing}#plan-${plan.id}`),
          availability: 'https://schema.org/InStock',
          priceSpecification: {
            '@type': 'UnitPriceSpecification',
            price: plan.price.toFixed(2),
            priceCurrency: 'USD',
            unitCode: 'MON',
            referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'MON' },
          },
        })),
      },
    ],
  });

const CHECKOUT_NOTICES: PricingNotice[] = ['checkoutUnavailable', 'purchasesClosed', 'checkoutBusy'];

/** What the address bar says, read after hydration: a notice the server sent the visitor back with, and an address. */
function usePageUrl(): { notice: PricingNotice | null; email: string | undefined } {
  const [state, setState] = useState<{ notice: PricingNotice | null; email: string | undefined }>({
    notice: null,
    email: undefined,
  });
  useEffect(() => {
    const read = () =>
      setState({
        notice: pricingNoticeOf(window.location.search, window.location.hash),
        email: emailFromFragment(window.location.hash) ?? undefined,
      });
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
  return state;
}

export default function PricingRoute() {
  const config = useSiteConfig();
  const manage = useManageSubscription();
  const { notice, email } = usePageUrl();
  return (
    <PageShell>
      <section className="mx-auto max-w-6xl px-4 py-14">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold uppercase tracking-widest text-emerald-300">
            Sports Betting API
          </p>
          <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-white">Plans and pricing</h1>
          <p className="mt-4 text-lg text-slate-300">
            Odds from {coverage().booksDetail} over {coverage().leagues} by REST or server-sent events (
            <Link to={`${ROUTES.home}#sportsbooks`} className="text-emerald-300 underline underline-offset-4">
              which books are which
            </Link>
            ).{' '}
            {/* Where the server manages no subscriptions it serves the page without the marked clause (decision 298). */}
            <span>Billed monthly</span>
            {manage === 'none' ? null : (
              <span {...{ [WHEN_SUBSCRIPTIONS_MANAGED]: '' }}>
                ; cancel any time from the subscription portal
              </span>
            )}
            .
          </p>
        </div>
        {CHECKOUT_NOTICES.map((name) => (
          <PricingNoticeBox key={name} notice={name} shown={notice === name} className="mt-8" />
        ))}
        <div className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
          <PlanCard plan={FREE_PLAN} />
          {PLANS.map((plan) => (
            <PlanCard key={plan.id} plan={plan} purchase={config?.checkout[plan.id]} email={email} />
          ))}
        </div>
        <div className="mt-12 rounded-2xl border border-slate-800 bg-slate-900/60 p-6 sm:flex sm:items-center sm:justify-between">
          <div>
            <h2 className="text-lg font-semibold text-white">Not sure which plan fits?</h2>
            <p className="mt-1 text-slate-300">
              Request a free one-week trial key ({trialTerms()}) and test it against your stack.
            </p>
          </div>
          <div className="mt-4 flex flex-wrap gap-3 sm:mt-0">
            <Link
              to={ROUTES.trialForm}
              className="inline-flex h-11 items-center rounded-md bg-emerald-400 px-5 font-semibold text-slate-950 hover:bg-emerald-300"
            >
              Start a free trial
            </Link>
            <a
              href={SITE.docsUrl}
              className="inline-flex h-11 items-center rounded-md border border-slate-500 px-5 font-semibold text-white hover:bg-slate-800"
            >
              Read the API docs
            </a>
          </div>
        </div>
        <ManageSubscription mode={manage} notice={notice} />
        <div id="lost-key" className="scroll-mt-24">
          <LostKeyForm />
        </div>
      </section>
    </PageShell>
  );
}
