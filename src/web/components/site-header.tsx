import { Link } from 'react-router';
import { ROUTES, SITE } from '#domain/site.ts';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '#web/ui/dropdown-menu.tsx';
import { Logo } from './logo.tsx';

export type HeaderVariant = 'tools' | 'api';

function Chevron() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="m4 6 4 4 4-4" />
    </svg>
  );
}

const triggerClass =
  'inline-flex h-10 items-center gap-1 rounded-md px-3 text-sm font-medium text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-300 data-[state=open]:bg-slate-800';

/** SPEC §2: Betting Tools dropdown on home and tool pages; Sports Betting API dropdown on the pricing page. */
export function SiteHeader({ variant }: { variant: HeaderVariant }) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4">
        <Link to={ROUTES.home} className="flex items-center gap-2 rounded-md font-bold text-white" aria-label={`${SITE.brand} home`}>
          <Logo />
          <span className="text-lg tracking-tight">{SITE.brand}</span>
        </Link>
        <div className="flex items-center gap-1">
          {variant === 'tools' ? (
            <DropdownMenu modal={false}>
              <DropdownMenuTrigger className={triggerClass}>
                Betting Tools <Chevron />
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuItem asChild>
                  <Link to={ROUTES.arbitrage}>Arbitrage Finder</Link>
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          ) : (
            <DropdownMenu modal={false}>
              <DropdownMenuTrigger className={triggerClass}>
                Sports Betting API <Chevron />
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuItem asChild>
                  <a href={SITE.docsUrl}>API Documentation</a>
                </DropdownMenuItem>
                <DropdownMenuItem asChild>
                  <a href={SITE.subscriptionPortalUrl} rel="noopener">
                    Manage Subscription
                  </a>
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          )}
          {variant === 'tools' ? (
            <Link to={ROUTES.pricing} className="hidden h-10 items-center rounded-md px-3 text-sm font-medium text-slate-100 hover:bg-slate-800 sm:inline-flex">
              API Pricing
            </Link>
          ) : null}
        </div>
      </nav>
    </header>
  );
}
