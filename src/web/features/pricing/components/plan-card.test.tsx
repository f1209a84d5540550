// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FREE_PLAN, getPlan } from '#domain/plans.ts';
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

  it('links the SGP credits bullets of Elite and Enterprise to POST /v1/sgp on /docs, saying when they renew', () => {
    for (const [id, text] of [
      ['elite', '10K same-game-parlay credits per month, renewed on the 1st (UTC)'],
      ['enterprise', '100K same-game-parlay credits per month, renewed on the 1st (UTC)'],
    ] as const) {
      render(<PlanCard plan={getPlan(id)} />);
      const card = screen.getByRole('article', { name: getPlan(id).name });
      const link = within(card).getByRole('link', { name: text });
      expect(link).toHaveAttribute('href', '/docs#POST--v1-sgp');
      cleanup();
    }
  });

  it('links the EV, SGP, three history and the scores bullets on Enterprise, and leaves the other bullets as text', () => {
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
      'Every positive-EV price and middle in real time',
      '100K same-game-parlay credits per month, renewed on the 1st (UTC)',
      'Historical closing and opening line values (CLV, OLV)',
      'Historical odds',
      'Historical line movement',
      'Final scores and fair closing lines of the last 3 days, period by period',
      'Live scores and the grading API (payout, profit, CLV)',
    ]);
  });

  it('lists on Starter and Pro every row, the ones they lack marked as not included', () => {
    render(<PlanCard plan={getPlan('starter')} />);
    render(<PlanCard plan={getPlan('pro')} />);
    // Both have the finals (decision 256); Pro has live scores and grading (issue 57), Starter has not.
    expect(screen.queryAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/docs#GET--v1-ev',
      '/docs#GET--v1-scores',
      '/docs#GET--v1-ev',
      '/docs#GET--v1-scores',
      '/docs#GET--v1-scores',
    ]);
    for (const name of ['Starter', 'Pro']) {
      const card = screen.getByRole('article', { name });
      expect(within(card).getAllByRole('listitem')).toHaveLength(12);
      expect(within(card).getByText('Historical odds').closest('li')).toHaveTextContent(
        'Not included: Historical odds',
      );
      expect(within(card).getByText(/concurrent streams/)).toBeInTheDocument();
    }
  });

  it('draws the free card from the free row: what the free pages show, and a link to them instead of checkout', () => {
    render(<PlanCard plan={FREE_PLAN} />);
    const card = screen.getByRole('article', { name: 'Free' });
    expect(within(card).getByText('$0')).toBeInTheDocument();
    expect(
      within(card).getByText('Arbs up to 1% edge in real time, and near-arbs; the rest counted'),
    ).toBeInTheDocument();
    expect(within(card).queryByRole('button')).toBeNull();
    expect(within(card).getByRole('link', { name: 'Use the free tools' })).toHaveAttribute(
      'href',
      '/betting-tools/arbitrage',
    );
  });
});

describe('PlanCard checkout (decision 151)', () => {
  it('is a form posting the plan (and the address, when known) to /api/checkout, so the server decides', () => {
    render(<PlanCard plan={getPlan('pro')} email="ada@example.com" />);
    const button = screen.getByRole('button', { name: 'Choose Pro' });
    expect(button).toHaveAttribute('type', 'submit');
    const form = button.closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/checkout');
    expect(Object.fromEntries(new FormData(form))).toEqual({ plan: 'pro', email: 'ada@example.com' });
  });

  it('posts the plan alone while no address is known, and while the server has not answered yet', () => {
    render(<PlanCard plan={getPlan('elite')} purchase="open" />);
    const form = screen.getByRole('button', { name: 'Choose Elite' }).closest('form')!;
    expect(Object.fromEntries(new FormData(form))).toEqual({ plan: 'elite' });
  });

  it('offers the free trial instead once the server says purchases are not open', () => {
    render(<PlanCard plan={getPlan('starter')} purchase="closed" />);
    expect(screen.queryByRole('button', { name: 'Choose Starter' })).toBeNull();
    expect(screen.getByRole('link', { name: /^Purchases not open: start a free trial$/i })).toHaveAttribute(
      'href',
      '/#trial',
    );
  });

  it("keeps the trial link's visible words, in order, inside its accessible name", () => {
    render(<PlanCard plan={getPlan('starter')} purchase="closed" />);
    const link = screen.getByRole('link', { name: /^Purchases not open/i });
    // As axe's label-content-name-mismatch compares them: text nodes joined as they are, punctuation and case aside.
    const words = (text: string) =>
      text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s]/gu, '')
        .replace(/\s+/g, ' ')
        .trim();
    expect(words(link.textContent ?? '')).toBe('purchases not open start a free trial');
    expect(words(link.getAttribute('aria-label') ?? '')).toContain(words(link.textContent ?? ''));
  });
});
