// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import { arb, moneyline, side } from '#tests/support/arbitrage-fixtures.ts';
import { ArbTable, type TableRow } from './arb-table.tsx';
import type * as EdgeBadgeModule from './edge-badge.tsx';

const badgeRenders = vi.hoisted(() => new Map<number, number>());
vi.mock('./edge-badge.tsx', async (importOriginal) => {
  const original = await importOriginal<typeof EdgeBadgeModule>();
  return {
    ...original,
    EdgeBadge: (props: { edge: number }) => {
      badgeRenders.set(props.edge, (badgeRenders.get(props.edge) ?? 0) + 1);
      return original.EdgeBadge(props);
    },
  };
});

afterEach(() => {
  cleanup();
  badgeRenders.clear();
});

const rowsOf = (arbs: Arb[], highlighted: string[] = []): TableRow[] =>
  arbs.map((a) => ({
    key: arbKey(a),
    arb: a,
    highlighted: highlighted.includes(arbKey(a)),
    stars: 0,
    starsKey: 0,
  }));

function renderTable(arbs: Arb[], props: Partial<Parameters<typeof ArbTable>[0]> = {}) {
  const onStateChange = vi.fn();
  const utils = render(
    <ArbTable
      caption="Arbs"
      rows={rowsOf(arbs)}
      device="desktop"
      states={{}}
      onStateChange={onStateChange}
      {...props}
    />,
  );
  return { ...utils, onStateChange };
}

describe('ArbTable', () => {
  it('says "No arbs found" when there is nothing to show', () => {
    renderTable([]);
    expect(screen.getByText('No arbs found')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the event, live flag, market, edge badge and each side with its book, selection and price', () => {
    renderTable([moneyline('celtics', 2.514, true)]);
    const row = screen.getAllByRole('row')[1]!;
    expect(within(row).getByText('CELA')).toHaveAttribute('title', 'celtics Away');
    expect(within(row).getByText('Live')).toBeInTheDocument();
    expect(within(row).getByText('Moneyline')).toBeInTheDocument();
    expect(within(row).getByText('2.51%').closest('[data-tone]')).toHaveAttribute('data-tone', 'positive');
    expect(within(row).getByText('FanDuel')).toBeInTheDocument();
    expect(within(row).getByText('DraftKings')).toBeInTheDocument();
    expect(within(row).getByText('Boston Celtics')).toBeInTheDocument();
    expect(within(row).getByText('+155')).toBeInTheDocument();
    expect(within(row).getByText('-140')).toBeInTheDocument();
  });

  it('lists near-arbs (edge 0 % or less) under a divider that says they guarantee nothing (issue 34)', () => {
    renderTable([moneyline('a', 1.2), moneyline('b', 0.1), moneyline('c', 0), moneyline('d', -0.5)], {
      nearArbDivider: true,
    });
    const groups = screen.getAllByRole('rowgroup').slice(1); // after the header's
    expect(groups).toHaveLength(2);
    const [profit, near] = groups as [HTMLElement, HTMLElement];
    expect(within(profit).getAllByText(/Boston Celtics/).length).toBeGreaterThan(0);
    const divider = within(near).getByRole('columnheader');
    expect(divider).toHaveTextContent(
      '2 near-arbs: an edge of 0 % or less guarantees no profit. Listed to watch for a price to move.',
    );
    expect(within(profit).getAllByText(/^1\.20%$|^0\.10%$/)).toHaveLength(2);
    expect(within(near).getAllByText(/^0\.00%$|^-0\.50%$/)).toHaveLength(2);
  });

  it('puts the divider first when every row is a near-arb, and shows none without near-arbs', () => {
    const { unmount } = renderTable([moneyline('c', 0), moneyline('d', -0.5)], { nearArbDivider: true });
    expect(screen.getAllByRole('rowgroup')).toHaveLength(2);
    expect(screen.getByText(/^2 near-arbs: an edge of 0 %/)).toBeInTheDocument();
    unmount();
    renderTable([moneyline('a', 1.2)], { nearArbDivider: true });
    expect(screen.queryByText(/near-arbs/)).toBeNull();
  });

  it('counts on the divider every near-arb of the tab, also those not drawn yet', () => {
    renderTable([moneyline('c', 0), moneyline('d', -0.5)], { nearArbDivider: true, nearCount: 7 });
    expect(screen.getByText(/^7 near-arbs: an edge of 0 %/)).toBeInTheDocument();
  });

  it('colours negative edges by magnitude', () => {
    const a = (id: string, edge: number) =>
      arb(id, [side(`${id}1`, 'fanduel', '+100', 2), side(`${id}2`, 'betmgm', '-110', 1.91)], { edge });
    renderTable([a('z', 0), a('n1', -0.25), a('n2', -0.5), a('n3', -0.75), a('n4', -0.76)]);
    const tones = ['0.00%', '-0.25%', '-0.50%', '-0.75%', '-0.76%'].map((text) =>
      screen.getByText(text).closest('[data-tone]')!.getAttribute('data-tone'),
    );
    expect(tones).toEqual(['zero', 'negative-1', 'negative-2', 'negative-3', 'negative-4']);
  });

  it('opens bet links in a new tab with rel="noopener noreferrer"', () => {
    renderTable([moneyline()]);
    const link = screen.getByRole('link', { name: /bet at fanduel/i });
    expect(link).toHaveAttribute(
      'href',
      'https://az.sportsbook.fanduel.com/addToBetslip?marketId=1&selectionId=2',
    );
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('disables the bet button with the tooltip when no link is usable', () => {
    const bad = arb('bad', [
      side('b1', 'fanduel', '+150', 2.5, { links: { desktop: 'javascript:alert(1)' } }),
      side('b2', 'draftkings', '-120', 1.83, { links: {} }),
    ]);
    renderTable([bad]);
    const button = screen.getByRole('button', { name: 'Bet at FanDuel' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription('No compatible link for this device/state');
    expect(screen.queryByRole('link', { name: /bet at/i })).not.toBeInTheDocument();
  });

  it('uses the mobile app link on mobile and hides the state selector when one exists', () => {
    renderTable([moneyline()], { device: 'mobile' });
    expect(screen.getByRole('link', { name: /bet at fanduel/i })).toHaveAttribute(
      'href',
      'fanduelsportsbook://addToBetslip?marketId=1&selectionId=2',
    );
    expect(screen.queryByRole('combobox', { name: 'FanDuel state' })).not.toBeInTheDocument();
  });

  it('rewrites the link for the chosen state and reports a state change', async () => {
    const { onStateChange } = renderTable([moneyline()], { states: { fanduel: 'on' } });
    expect(screen.getByRole('link', { name: /bet at fanduel/i })).toHaveAttribute(
      'href',
      'https://on.sportsbook.fanduel.ca/addToBetslip?marketId=1&selectionId=2',
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'FanDuel state' }), 'NY');
    expect(onStateChange).toHaveBeenCalledWith('fanduel', 'ny');
  });

  it('marks highlighted rows as new', () => {
    const a = moneyline('a', 1);
    const b = moneyline('b', 2);
    render(
      <ArbTable
        caption="Arbs"
        rows={rowsOf([a, b], [arbKey(b)])}
        device="desktop"
        states={{}}
        onStateChange={vi.fn()}
      />,
    );
    const [, rowA, rowB] = screen.getAllByRole('row');
    expect(within(rowA!).queryByText('New')).not.toBeInTheDocument();
    expect(within(rowB!).getByText('New')).toBeInTheDocument();
  });

  it('marks a suspect arb with a Suspect badge that explains itself, and only that arb', () => {
    renderTable([moneyline('odd', 14.2, false, true), moneyline('fine', 2)]);
    const [, suspectRow, plainRow] = screen.getAllByRole('row');
    const badge = within(suspectRow!).getByText('Suspect');
    expect(badge).toHaveAttribute(
      'title',
      'Edge above the plausible ceiling (10 % by default): probably a stale or wrong price; check before betting',
    );
    expect(badge).toHaveTextContent(/probably a stale or wrong price; check before betting/);
    expect(within(plainRow!).queryByText('Suspect')).not.toBeInTheDocument();
  });

  it('re-renders only the rows whose arb changed', () => {
    const a = moneyline('a', 1.1);
    const b = moneyline('b', 2.2);
    const onStateChange = vi.fn();
    const states = {};
    const { rerender } = render(
      <ArbTable
        caption="Arbs"
        rows={rowsOf([a, b])}
        device="desktop"
        states={states}
        onStateChange={onStateChange}
      />,
    );
    expect(badgeRenders.get(1.1)).toBe(1);
    expect(badgeRenders.get(2.2)).toBe(1);
    const repriced = { ...b, edge_pct: 2.3 };
    rerender(
      <ArbTable
        caption="Arbs"
        rows={rowsOf([a, repriced])}
        device="desktop"
        states={states}
        onStateChange={onStateChange}
      />,
    );
    expect(badgeRenders.get(1.1)).toBe(1);
    expect(badgeRenders.get(2.3)).toBe(1);
  });
});

describe('wager inputs', () => {
  const stake = (name: RegExp) => screen.getByRole('spinbutton', { name }) as HTMLInputElement;

  it('are numbers with step 0.01 and min 0, split $200 for equal payouts by default', () => {
    renderTable([moneyline()]);
    const celtics = stake(/stake on boston celtics/i);
    expect(celtics).toHaveAttribute('type', 'number');
    expect(celtics).toHaveAttribute('step', '0.01');
    expect(celtics).toHaveAttribute('min', '0');
    expect(celtics.value).toBe('80.40');
    expect(stake(/stake on new york knicks/i).value).toBe('119.60');
    expect(screen.getByText('$200.00')).toBeInTheDocument();
    // 80.40 × 2.55 = 205.02 and 119.60 × 1.7142857 = 205.028…, both paid as $205.02 (rounded down).
    expect(screen.getAllByText('$205.02')).toHaveLength(2);
    expect(screen.getByText('$5.02')).toBeInTheDocument();
  });

  it('typing one side computes the other and updates payouts and profit', async () => {
    renderTable([moneyline()]);
    const celtics = stake(/stake on boston celtics/i);
    await userEvent.clear(celtics);
    await userEvent.type(celtics, '100');
    expect(stake(/stake on new york knicks/i).value).toBe('149.12');
    expect(screen.getByText('$249.12')).toBeInTheDocument(); // staked
    expect(screen.getByText('$255.00')).toBeInTheDocument(); // 100 × 2.55
    expect(screen.getByText('$255.63')).toBeInTheDocument(); // 149.12 × 1.714…
    expect(screen.getByText('$5.88')).toBeInTheDocument(); // smallest payout 255.00 − 249.12
  });

  it('a zero sets the other side to 0.00, and leaving an empty or zero field resets both to the default split', async () => {
    renderTable([moneyline()]);
    const celtics = stake(/stake on boston celtics/i);
    const knicks = stake(/stake on new york knicks/i);
    await userEvent.clear(celtics);
    await userEvent.type(celtics, '0');
    expect(knicks.value).toBe('0.00');
    await userEvent.tab();
    expect(celtics.value).toBe('80.40');
    expect(knicks.value).toBe('119.60');
    await userEvent.clear(knicks);
    await userEvent.tab();
    expect(celtics.value).toBe('80.40');
    expect(knicks.value).toBe('119.60');
  });

  it('only two-sided arbs get wager inputs (three-way arbs show their split read-only)', () => {
    const threeWay = arb(
      'soccer',
      [
        side('h', 'fanduel', '+150', 2.5),
        side('d', 'draftkings', '+260', 3.6),
        side('a', 'betmgm', '+300', 4),
      ],
      {
        market: '1X2',
      },
    );
    renderTable([threeWay]);
    expect(screen.queryByRole('spinbutton')).not.toBeInTheDocument();
    expect(screen.getByText('Stake on d at DraftKings:')).toBeInTheDocument();
  });
});
