import { Link } from 'react-router';
import { FOOTER_NAV, footerNote } from '#domain/site-nav.ts';
import { SITE, WHEN_SUBSCRIPTIONS_MANAGED } from '#domain/site.ts';
import { useManageSubscription } from '#web/lib/site-config.ts';
import { Logo } from './logo.tsx';

/**
 * docs/product.md §2 footer: social links, and links to the API page, the docs, subscription management, the account
 * page and the finders. The links are data in src/domain/site-nav.ts, shared with /docs's footer (issue 56).
 */
export function SiteFooter() {
  // Hidden where the server manages no subscriptions (decision 151): that server serves the page without it, and the
  // first render leaves it out too (decision 298); elsewhere shown, as the prerender does.
  const manages = useManageSubscription() !== 'none';
  const linkClass = 'text-slate-300 underline-offset-4 hover:text-white hover:underline';
  return (
    <footer className="border-t border-slate-800 bg-slate-950">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3">
        <div>
          <div className="flex items-center gap-2 font-bold text-white">
            <Logo className="h-6 w-6" /> {SITE.brand}
          </div>
          <p className="mt-3 text-sm text-slate-400">{FOOTER_NAV.blurb}</p>
        </div>
        <nav aria-label="Footer">
          <h2 className="text-sm font-semibold text-white">{FOOTER_NAV.productTitle}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {FOOTER_NAV.product
              .filter((link) => manages || !link.whenSubscriptionsManaged)
              .map((link) => (
                <li
                  key={link.href}
                  {...(link.whenSubscriptionsManaged ? { [WHEN_SUBSCRIPTIONS_MANAGED]: '' } : {})}
                >
                  {link.server ? (
                    <a className={linkClass} href={link.href}>
                      {link.label}
                    </a>
                  ) : (
                    <Link className={linkClass} to={link.href}>
                      {link.label}
                    </Link>
                  )}
                </li>
              ))}
          </ul>
        </nav>
        <nav aria-label="Social">
          <h2 className="text-sm font-semibold text-white">{FOOTER_NAV.socialTitle}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {FOOTER_NAV.social.map((link) => (
              <li key={link.href}>
                <a className={linkClass} href={link.href} rel="noopener noreferrer me" target="_blank">
                  {link.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <p className="border-t border-slate-900 py-4 text-center text-xs text-slate-400">
        {footerNote(new Date().getFullYear())}
      </p>
    </footer>
  );
}
