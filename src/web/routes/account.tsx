import { ROUTES, SITE } from '#domain/site.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { AccountScreen } from '#web/features/account/components/account-screen.tsx';
import { seoMeta } from '#web/lib/seo.ts';

// Self-service without a login (issue 33, decision 156): the customer pastes their key and sees its plan, limits,
// usage and credits, and can rotate it. Not indexed and not in the sitemap: it shows nothing without a key.
export const meta = () =>
  seoMeta({
    path: ROUTES.account,
    title: `Your account: plan, usage and API key | ${SITE.brand}`,
    description:
      'See the plan, limits, requests per day and same-game-parlay credits of your Sharpline API key, and rotate it. No login: paste your key.',
    keywords: ['sports betting odds API', 'API key', 'API usage'],
    jsonLd: [],
    noindex: true,
  });

export default function AccountRoute() {
  return (
    <PageShell>
      <section className="mx-auto max-w-6xl px-4 py-14">
        <p className="text-sm font-semibold uppercase tracking-widest text-emerald-300">Sports Betting API</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-white">Your account</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-300">
          Your plan, limits, usage and credits, read with your API key. Rotate the key here if it may have
          leaked.
        </p>
        <noscript>
          <p className="mt-6 text-slate-300">
            This page needs JavaScript: your browser sends your key to the API and shows the answer. With
            curl:{' '}
            <code className="font-mono text-white">
              curl -H &apos;X-Api-Key: &lt;your key&gt;&apos; {SITE.defaultOrigin}/v1/me
            </code>
          </p>
        </noscript>
        <AccountScreen />
      </section>
    </PageShell>
  );
}
