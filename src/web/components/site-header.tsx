import { Link } from 'react-router';
import { ROUTES, SITE } from '#domain/site.ts';
import { MenuButton } from '#web/ui/menu-button.tsx';
import { Logo } from './logo.tsx';

export type HeaderVariant = 'tools' | 'api';

const triggerClass =
  'inline-flex h-10 items-center gap-1 rounded-md px-3 text-sm font-medium text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-300 aria-expanded:bg-slate-800';

/** SPEC §2: Betting Tools dropdown on home and tool pages; Sports Betting API dropdown on the pricing page. */
export function SiteHeader({ variant }: { variant: HeaderVariant }) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4">
        <Link
          to={ROUTES.home}
          className="flex items-center gap-2 rounded-md font-bold text-white"
          aria-label={`${SITE.brand} home`}
        >
          <Logo />
          <span className="text-lg tracking-tight">{SITE.brand}</span>
        </Link>
        <div className="flex items-center gap-1">
          {variant === 'tools' ? (
            <MenuButton
              label="Betting Tools"
              className={triggerClass}
              items={[
                {
                  label: 'Arbitrage Finder',
                  href: ROUTES.arbitrage,
                  render: ({ children, ...props }) => (
                    <Link to={ROUTES.arbitrage} {...props}>
                      {children}
                    </Link>
                  ),
                },
              ]}
            />
          ) : (
            <MenuButton
              label="Sports Betting API"
              className={triggerClass}
              items={[
                { label: 'API Documentation', href: SITE.docsUrl },
                { label: 'Manage Subscription', href: SITE.subscriptionPortalUrl, rel: 'noopener' },
              ]}
            />
          )}
          {variant === 'tools' ? (
            <Link
              to={ROUTES.pricing}
              className="hidden h-10 items-center rounded-md px-3 text-sm font-medium text-slate-100 hover:bg-slate-800 sm:inline-flex"
            >
              API Pricing
            </Link>
          ) : null}
        </div>
      </nav>
    </header>
  );
}
