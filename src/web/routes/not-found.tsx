import { Link } from 'react-router';
import { ROUTES, SITE } from '#domain/site.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { seoMeta } from '#web/lib/seo.ts';

export const meta = () =>
  seoMeta({
    path: '/404',
    title: `Page not found | ${SITE.brand}`,
    description:
      'The page you asked for does not exist. Find live arbitrage bets or pick a sports betting API plan.',
    keywords: ['sports betting odds API'],
    jsonLd: [],
    noindex: true,
  });

export default function NotFoundRoute() {
  return (
    <PageShell>
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <p className="text-sm font-semibold uppercase tracking-widest text-emerald-300">404</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-white">Page not found</h1>
        <p className="mt-4 text-slate-300">That page does not exist, or it moved. These do:</p>
        <ul className="mt-6 flex flex-wrap justify-center gap-3">
          <li>
            <Link
              className="rounded-md bg-emerald-400 px-4 py-2 font-semibold text-slate-950"
              to={ROUTES.home}
            >
              Home
            </Link>
          </li>
          <li>
            <Link
              className="rounded-md border border-slate-600 px-4 py-2 font-semibold text-white"
              to={ROUTES.arbitrage}
            >
              Arbitrage Finder
            </Link>
          </li>
          <li>
            <Link
              className="rounded-md border border-slate-600 px-4 py-2 font-semibold text-white"
              to={ROUTES.pricing}
            >
              API Pricing
            </Link>
          </li>
        </ul>
      </section>
    </PageShell>
  );
}
