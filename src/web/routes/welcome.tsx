import { ROUTES, SITE } from '#domain/site.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { WelcomeStatus } from '#web/features/checkout/components/welcome-status.tsx';
import { seoMeta } from '#web/lib/seo.ts';

// Where Stripe's checkout returns a buyer (success_url: /welcome?session_id={CHECKOUT_SESSION_ID}, decision 151).
// Not indexed and not in the sitemap: it says something only about the visitor's own checkout.
export const meta = () =>
  seoMeta({
    path: ROUTES.welcome,
    title: `Welcome | ${SITE.brand}`,
    description: 'Your Sharpline subscription: payment received, and your API key on its way by email.',
    keywords: ['sports betting odds API'],
    jsonLd: [],
    noindex: true,
  });

export default function WelcomeRoute() {
  return (
    <PageShell>
      <section className="mx-auto max-w-2xl px-4 py-20">
        <p className="text-sm font-semibold uppercase tracking-widest text-emerald-300">Sports Betting API</p>
        <WelcomeStatus />
      </section>
    </PageShell>
  );
}
