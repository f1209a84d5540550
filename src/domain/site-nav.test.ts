import { describe, expect, it } from 'vitest';
import { ROUTES, SITE } from './site.ts';
import { FOOTER_NAV, HEADER_NAV, longPart, TOOL_LINKS } from './site-nav.ts';

// The header and footer the React pages and /docs both draw (issue 56).
describe('the site navigation', () => {
  it('shortens a label on phones only to its own last words, so the accessible name stays the same', () => {
    for (const link of [HEADER_NAV.tools, ...HEADER_NAV.links]) {
      expect(`${longPart(link)}${link.short ?? link.label}`).toBe(link.label);
      if (link.short) expect(link.label.endsWith(link.short)).toBe(true);
    }
    expect(longPart(HEADER_NAV.pricing)).toBe('API ');
  });

  it('leads the header to the three finders, the bet tracker, the calibration report, the plans, the docs and the account page', () => {
    expect(TOOL_LINKS.map((link) => link.href)).toEqual([
      ROUTES.arbitrage,
      ROUTES.positiveEv,
      ROUTES.middles,
      ROUTES.betTracker,
      ROUTES.calibration,
    ]);
    expect(HEADER_NAV.links.map((link) => link.href)).toEqual([ROUTES.pricing, SITE.docsUrl, ROUTES.account]);
  });

  it('repeats every header destination in the footer (below 360 px the account link is there only)', () => {
    const footer = FOOTER_NAV.product.map((link) => link.href);
    for (const link of [...HEADER_NAV.links, ...TOOL_LINKS]) expect(footer).toContain(link.href);
    expect(
      FOOTER_NAV.product.filter((link) => link.whenSubscriptionsManaged).map((link) => link.href),
    ).toEqual([ROUTES.manageSubscription]);
  });
});
