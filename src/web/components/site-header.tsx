import { Link, NavLink } from 'react-router';
import { ROUTES, SITE } from '#domain/site.ts';
import { cn } from '#web/lib/cn.ts';
import { MenuButton } from '#web/ui/menu-button.tsx';
import { Logo } from './logo.tsx';

// docs/product.md §2: one header on every page (issue 34): the Betting Tools menu, API Pricing, Docs and Your Account
// (decision 156), all visible from 360 px up (below it Your Account is in the footer only). On phones the words
// "Betting", "API" and "Your" are read by screen readers only, so the accessible names are the same at every width,
// and the brand is the logo alone (its link is named "Sharpline home").

const itemClass =
  'inline-flex h-10 items-center gap-1 rounded-md px-1.5 text-sm font-medium text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-300 sm:px-3';

/** The Betting Tools menu: the three finders. */
const TOOLS = [
  ['Arbitrage Finder', ROUTES.arbitrage],
  ['Positive EV Finder', ROUTES.positiveEv],
  ['Middles Finder', ROUTES.middles],
] as const;

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-3 sm:px-4"
      >
        <Link
          to={ROUTES.home}
          className="flex shrink-0 items-center gap-2 rounded-md font-bold text-white"
          aria-label={`${SITE.brand} home`}
        >
          <Logo />
          <span className="text-lg tracking-tight max-sm:sr-only">{SITE.brand}</span>
        </Link>
        <div className="flex items-center gap-0.5 sm:gap-1">
          <MenuButton
            label={
              <>
                <span className="max-sm:sr-only">Betting </span>Tools
              </>
            }
            className={cn(itemClass, 'aria-expanded:bg-slate-800')}
            items={TOOLS.map(([label, to]) => ({
              label,
              href: to,
              render: ({ children, ...props }) => (
                <Link to={to} {...props}>
                  {children}
                </Link>
              ),
            }))}
          />
          <NavLink to={ROUTES.pricing} className={cn(itemClass, 'aria-[current=page]:bg-slate-800')}>
            <span className="max-sm:sr-only">API </span>Pricing
          </NavLink>
          <a href={SITE.docsUrl} className={itemClass}>
            Docs
          </a>
          <NavLink
            to={ROUTES.account}
            className={cn(itemClass, 'max-[359px]:hidden aria-[current=page]:bg-slate-800')}
          >
            <span className="max-sm:sr-only">Your </span>Account
          </NavLink>
        </div>
      </nav>
    </header>
  );
}
