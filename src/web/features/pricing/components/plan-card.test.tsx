// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { getPlan } from '#domain/plans.ts';
import { PlanCard } from './plan-card.tsx';

afterEach(cleanup);

describe('PlanCard', () => {
  it('links the Elite history bullet, text unchanged, to the /docs operation', () => {
    render(<PlanCard plan={getPlan('elite')} />);
    const card = screen.getByRole('article', { name: 'Elite' });
    const link = within(card).getByRole('link', {
      name: 'Historical closing and opening line values (CLV, OLV)',
    });
    expect(link).toHaveAttribute('href', '/docs#GET--v1-events-eventId-lines');
    expect(link.closest('li')).toHaveTextContent(/^Historical closing and opening line values \(CLV, OLV\)$/);
  });

  it('links the SGP credits bullets of Elite and Enterprise to POST /v1/sgp on /docs, text unchanged', () => {
    for (const [id, text] of [
      ['elite', '10K same-game-parlay credits per month'],
      ['enterprise', '100K same-game-parlay credits per month'],
    ] as const) {
      render(<PlanCard plan={getPlan(id)} />);
      const card = screen.getByRole('article', { name: getPlan(id).name });
      const link = within(card).getByRole('link', { name: text });
      expect(link).toHaveAttribute('href', '/docs#POST--v1-sgp');
      cleanup();
    }
  });

  it('links both Enterprise history bullets and the SGP bullet, and leaves the other bullets as text', () => {
    render(<PlanCard plan={getPlan('enterprise')} />);
    const card = screen.getByRole('article', { name: 'Enterprise' });
    expect(within(card).getByRole('link', { name: 'Historical line movement' })).toHaveAttribute(
      'href',
      '/docs#GET--v1-events-eventId-movement',
    );
    const links = within(card)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual([
      '100K same-game-parlay credits per month',
      'Historical closing and opening line values (CLV, OLV)',
      'Historical line movement',
      'Choose Enterprise',
    ]);
  });

  it('has no documentation link on Starter and Pro bullets', () => {
    render(<PlanCard plan={getPlan('starter')} />);
    render(<PlanCard plan={getPlan('pro')} />);
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Choose Starter',
      'Choose Pro',
    ]);
    expect(screen.getByText('Historical odds')).toBeInTheDocument();
  });
});
