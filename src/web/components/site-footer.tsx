import { Link } from 'react-router';
import { ROUTES, SITE } from '#domain/site.ts';
import { useSiteConfig } from '#web/lib/site-config.ts';
import { Logo } from './logo.tsx';

/**
 * docs/product.md §2 footer: social links, and links to the API page, the docs, subscription management, the account
 * page and the arbitrage tool.
 */
export function SiteFooter() {
  // As in the header: through the server, hidden once it says it manages no subscriptions (decision 151).
  const manages = useSiteConfig()?.manageSubscription !== 'none';
  const linkClass = 'text-slate-300 underline-offset-4 hover:text-white hover:underline';
  return (
    <footer className="border-t border-slate-800 bg-slate-950">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3">
        <div>
          <div className="flex items-center gap-2 font-bold text-white">
            <Logo className="h-6 w-6" /> {SITE.brand}
          </div>
          <p className="mt-3 text-sm text-slate-400">{SITE.tagline} for bettors, traders and operators.</p>
        </div>
        <nav aria-label="Footer">
          <h2 className="text-sm font-semibold text-white">Product</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link className={linkClass} to={ROUTES.pricing}>
                Sports Betting API
              </Link>
            </li>
            <li>
              <a className={linkClass} href={SITE.docsUrl}>
                API Documentation
              </a>
            </li>
            {manages ? (
              <li>
                <a className={linkClass} href={ROUTES.manageSubscription}>
                  Manage Subscription
                </a>
              </li>
            ) : null}
            <li>
              <a className={linkClass} href={ROUTES.account}>
                Your Account
              </a>
            </li>
            <li>
              <Link className={linkClass} to={ROUTES.arbitrage}>
                Arbitrage Finder
              </Link>
            </li>
            <li>
              <Link className={linkClass} to={ROUTES.positiveEv}>
                Positive EV Finder
              </Link>
            </li>
            <li>
              <Link className={linkClass} to={ROUTES.middles}>
                Middles Finder
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Social">
          <h2 className="text-sm font-semibold text-white">Follow us</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {SITE.social.map((link) => (
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
        © {new Date().getFullYear()} {SITE.brand}. Odds data for information; bet responsibly. 21+.
      </p>
    </footer>
  );
}
