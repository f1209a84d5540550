import { Link, NavLink } from 'react-router';
import { SITE } from '#domain/site.ts';
import { HEADER_NAV, longPart, type NavLink as NavLinkData } from '#domain/site-nav.ts';
import { cn } from '#web/lib/cn.ts';
import { MenuButton } from '#web/ui/menu-button.tsx';
import { Logo } from './logo.tsx';

// docs/product.md §2: one header on every page (issue 34): the Betting Tools menu, API Pricing, Docs and Your Account
// (decision 156), all visible from 360 px up (below it Your Account is in the footer only). The links are data in
// src/domain/site-nav.ts, which /docs (rendered by the server) draws its header from too (issue 56). On phones the words
// "Betting", "API" and "Your" are read by screen readers only, so the accessible names are the same at every width,
// and the brand is the logo alone (its link is named "Sharpline home").

const itemClass =
  'inline-flex h-10 items-center gap-1 rounded-md px-1.5 text-sm font-medium text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-300 sm:px-3';

/** A header link: the words before its short form ("API ") are for screen readers only on phones. */
function Words({ link }: { link: Pick<NavLinkData, 'label' | 'short'> }) {
  const long = longPart(link);
  return (
    <>
      {long ? <span className="max-sm:sr-only">{long}</span> : null}
      {link.short ?? link.label}
    </>
  );
}

export function SiteHeader() {
  const { pricing, docs, account } = HEADER_NAV;
  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-3 sm:px-4"
      >
        <Link
          to={HEADER_NAV.home.href}
          className="flex shrink-0 items-center gap-2 rounded-md font-bold text-white"
          aria-label={HEADER_NAV.home.label}
        >
          <Logo />
          <span className="text-lg tracking-tight max-sm:sr-only">{SITE.brand}</span>
        </Link>
        <div className="flex items-center gap-0.5 sm:gap-1">
          <MenuButton
            label={<Words link={HEADER_NAV.tools} />}
            className={cn(itemClass, 'aria-expanded:bg-slate-800')}
            items={HEADER_NAV.tools.links.map(({ label, href }) => ({
              label,
              href,
              render: ({ children, ...props }) => (
                <Link to={href} {...props}>
                  {children}
                </Link>
              ),
            }))}
          />
          <NavLink to={pricing.href} className={cn(itemClass, 'aria-[current=page]:bg-slate-800')}>
            <Words link={pricing} />
          </NavLink>
          <a href={docs.href} className={itemClass}>
            <Words link={docs} />
          </a>
          <NavLink
            to={account.href}
            className={cn(itemClass, 'max-[359px]:hidden aria-[current=page]:bg-slate-800')}
          >
            <Words link={account} />
          </NavLink>
        </div>
      </nav>
    </header>
  );
}
