// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TOOL_LINKS } from '#domain/site-nav.ts';
import { ROUTES } from '#domain/site.ts';
import { ToolCards } from './tool-cards.tsx';

// Decision 298: the home page's "Free betting tools" has a card for every free tool the site's menu lists (the three
// finders, the bet tracker and the calibration report), each linked to its page.

afterEach(cleanup);

describe('the home page’s tool cards', () => {
  it('has one card per tool of the Betting Tools menu, linked to its page, and no other', () => {
    render(
      <MemoryRouter>
        <ToolCards />
      </MemoryRouter>,
    );
    const cards = screen.getAllByRole('listitem');
    const hrefs = cards.map((card) => within(card).getByRole('link').getAttribute('href'));
    expect(hrefs).toEqual(TOOL_LINKS.map((link) => link.href));
    expect(hrefs).toContain(ROUTES.betTracker);
    expect(hrefs).toContain(ROUTES.calibration);
    for (const card of cards) expect(card.querySelector('p')?.textContent?.length).toBeGreaterThan(60);
  });

  it('names the bet tracker and the calibration report as the menu does', () => {
    render(
      <MemoryRouter>
        <ToolCards />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Bet tracker' })).toHaveAttribute('href', ROUTES.betTracker);
    expect(screen.getByRole('link', { name: 'Calibration report' })).toHaveAttribute(
      'href',
      ROUTES.calibration,
    );
  });
});
