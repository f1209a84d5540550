// Bet links shown to a visitor (docs/product.md §9 "Link rewriting", docs/product.md §11): a side's link is
// moved onto the visitor's state (and Bovada's bodog links onto bovada.lv) using the catalogue's rules, then checked
// with the book's link rules. Only https links already on the book's own hosts are rewritten, only to states the book
// lists; app links are never turned into web links.
import { isAllowedLink, isBookHost, type LinkKind, type SportsbookConfig } from './sportsbooks.ts';

/** The kind of device a visitor uses, which decides the link a bet button opens (docs/product.md §9). */
export type DeviceKind = 'mobile' | 'desktop';

export interface SideLinks {
  desktop?: string | null;
  mobile?: string | null;
}

export interface BetLink {
  href: string;
  kind: LinkKind;
}

/** The host a state maps to, from the catalogue: an override, else the book's wildcard host with the state in it. */
export function stateHost(book: SportsbookConfig, state: string): string | null {
  const rule = book.stateRewrite;
  if (!rule || rule.kind === 'path-segment') return null;
  const override = rule.overrides?.[state];
  if (override) return override;
  const template = book.hosts.find((host) =>
    rule.kind === 'host-label' ? host.startsWith('*.') : host.split('.')[1] === '*',
  );
  return template ? template.replace('*', state) : null;
}

function rewritePath(pathname: string, state: string): string {
  const segment = state === 'on' ? '/ca/on' : `/us/${state}`;
  return pathname.replace(/^\/(us|ca)\/[a-z]{2}(?=\/|$)/i, segment);
}

/** Rewrites `link` for the visitor's `state` (a state code the book lists; others are ignored). */
export function rewriteLink(book: SportsbookConfig, link: string, state?: string): string {
  const knownState = state && book.states?.includes(state) ? state : undefined;
  const filled = knownState ? link.replace(/\{state\}/gi, knownState) : link;
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return link;
  }
  if (url.protocol !== 'https:' || !isBookHost(book, url.hostname)) return link;
  const before = url.href;
  if (book.hostRewrite?.from.includes(url.hostname.toLowerCase())) url.hostname = book.hostRewrite.to;
  if (knownState && book.stateRewrite) {
    if (book.stateRewrite.kind === 'path-segment') url.pathname = rewritePath(url.pathname, knownState);
    else {
      const host = stateHost(book, knownState);
      if (host) url.hostname = host;
    }
  }
  return url.href === before ? filled : url.href;
}

function usable(book: SportsbookConfig, link: string | null | undefined, kind: LinkKind, state?: string) {
  if (!link) return null;
  const rewritten = rewriteLink(book, link, state);
  return isAllowedLink(book, rewritten, kind) ? rewritten : null;
}

/**
 * The link a bet button opens: on mobile the side's mobile link (which may use the book's app scheme), falling back
 * to its desktop link; on desktop the desktop link. Null when no link passes the book's rules: the button is then
 * disabled with docs/product.md §8's tooltip.
 */
export function resolveBetLink(
  book: SportsbookConfig,
  links: SideLinks,
  device: DeviceKind,
  state?: string,
): BetLink | null {
  if (device === 'mobile') {
    const mobile = usable(book, links.mobile, 'mobile', state);
    if (mobile) return { href: mobile, kind: 'mobile' };
  }
  const desktop = usable(book, links.desktop, 'desktop', state);
  return desktop ? { href: desktop, kind: 'desktop' } : null;
}

/** docs/product.md §9: a state selector is shown for books with states when the device is not mobile or no mobile link exists. */
export function showsStateSelector(
  book: SportsbookConfig,
  links: SideLinks,
  device: DeviceKind,
  state?: string,
) {
  if (!book.states?.length) return false;
  return device === 'desktop' || usable(book, links.mobile, 'mobile', state) === null;
}

export const NO_LINK_TOOLTIP = 'No compatible link for this device/state';
