// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import { splitStakes } from '#domain/stake-split.ts';
import { formatUsd } from '#domain/wagers.ts';
import { arb, dkLinks, fdLinks, side } from '#tests/support/arbitrage-fixtures.ts';
import { loadBettorExtras } from '../lib/bettor-extras.ts';
import type { OddsFormat, RowSettings } from '../lib/tool-settings.ts';
import { ArbTable, type ArbTableProps, type TableRow } from './arb-table.tsx';
import type * as EdgeBadgeModule from './edge-badge.tsx';

// Other formats and rounded stakes are a chunk the screen loads before it shows rows with them (lib/bettor-extras.ts).
beforeAll(() => loadBettorExtras());

// The rows' issue-14 tools: odds formats, the bettor's total and rounding with honest profits, three-way splits, the
// arb's age and Hide. Prices and figures below are hand-checked; the stake figures are also `splitStakes`' own.

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

const NOW = Date.parse('2026-11-21T12:00:00Z');
const settingsOf = (overrides: Partial<RowSettings> = {}): RowSettings => ({
  oddsFormat: 'american',
  totalCents: 20_000,
  roundTo: 0,
  now: NOW,
  ...overrides,
});

/**
 * Lakers +150 (2.5) at FanDuel, Celtics −140 at DraftKings: the feed says 1.7142 (1.714285… floored to 4 places), the
 * book pays 1 + 100/140 = 12/7, and the page splits and pays at 12/7 (docs/decisions/160).
 */
const CELTICS = 12 / 7;
function lakersCeltics(id = 'lal', extra: Partial<Arb> = {}): Arb {
  return {
    ...arb(id, [
      side(`${id}-fd`, 'fanduel', '+150', 2.5, {
        name: 'Los Angeles Lakers',
        selection: { name: 'Los Angeles Lakers' },
        links: fdLinks,
      }),
      side(`${id}-dk`, 'draftkings', '-140', 1.7142, {
        name: 'Boston Celtics',
        selection: { name: 'Boston Celtics' },
        links: dkLinks,
      }),
    ]),
    ...extra,
  };
}

/** A thin two-way arb (0.46 %): $100 rounded to $10 is 50/50, which loses $1.50 if the 1.97 side wins. */
const thin = () =>
  arb('thin', [
    side('thin-fd', 'fanduel', '+105', 2.05, { name: 'Over 221.5', selection: { name: 'Over 221.5' } }),
    side('thin-dk', 'draftkings', '-103', 1.97, { name: 'Under 221.5', selection: { name: 'Under 221.5' } }),
  ]);

/** A soccer 1X2 arb: home 2.5, draw 3.6, away 4 (15.56 % on $200). */
const soccer = (odds: readonly [number, number, number] = [2.5, 3.6, 4]) =>
  arb(
    'ars',
    [
      side('ars-h', 'fanduel', '+150', odds[0], { name: 'Arsenal', selection: { name: 'Arsenal' } }),
      side('ars-d', 'draftkings', '+260', odds[1], { name: 'Draw', selection: { name: 'Draw' } }),
      side('ars-a', 'betmgm', '+300', odds[2], { name: 'Chelsea', selection: { name: 'Chelsea' } }),
    ],
    { market: '1X2' },
  );

const rowsOf = (arbs: Arb[]): TableRow[] =>
  arbs.map((a) => ({ key: arbKey(a), arb: a, highlighted: false, stars: 0, starsKey: 0 }));

function renderRows(arbs: Arb[], props: Partial<ArbTableProps> = {}) {
  const base: ArbTableProps = {
    caption: 'Arbs',
    rows: rowsOf(arbs),
    device: 'desktop',
    states: {},
    onStateChange: vi.fn(),
    settings: settingsOf(),
    ...props,
  };
  const utils = render(<ArbTable {...base} />);
  return {
    ...utils,
    rerenderWith: (next: Partial<ArbTableProps>) => utils.rerender(<ArbTable {...base} {...next} />),
  };
}

const dataRow = (index = 0) => screen.getAllByRole('row')[index + 1]!;
const stake = (name: RegExp) => screen.getByRole('spinbutton', { name }) as HTMLInputElement;

describe('odds format', () => {
  const cases: [OddsFormat, string, string][] = [
    ['american', '+150', '-140'],
    ['decimal', '2.50', '1.71'],
    ['fractional', '3/2', '5/7'],
    ['probability', '40.0%', '58.4%'],
  ];

  it.each(cases)('writes every price in %s (+150 → %s, −140 → %s)', (format, lakers, celtics) => {
    renderRows([lakersCeltics()], { settings: settingsOf({ oddsFormat: format }) });
    const row = dataRow();
    expect(within(row).getByText(lakers)).toBeInTheDocument();
    expect(within(row).getByText(celtics)).toBeInTheDocument();
    // The bet buttons read the price the bettor sees.
    expect(within(row).getByRole('link', { name: /bet at fanduel/i })).toHaveAccessibleName(
      `Bet at FanDuel: Los Angeles Lakers ${lakers} (opens in a new tab)`,
    );
    // Stakes and payouts do not depend on the format.
    expect(stake(/stake on los angeles lakers/i).value).toBe('81.36');
    expect(within(row).getByText('$3.38')).toBeInTheDocument();
  });

  it('keeps the American text exactly as the feed sends it by default (no settings: docs/product.md)', () => {
    render(
      <ArbTable
        caption="Arbs"
        rows={rowsOf([lakersCeltics()])}
        device="desktop"
        states={{}}
        onStateChange={vi.fn()}
      />,
    );
    expect(screen.getByText('+150')).toBeInTheDocument();
    expect(screen.getByText('-140')).toBeInTheDocument();
    expect(stake(/stake on los angeles lakers/i).value).toBe('81.36');
    expect(screen.queryByRole('button', { name: /^hide/i })).not.toBeInTheDocument();
  });
});

describe('stakes, totals and rounding', () => {
  /** The row's Return cell and each side's payout text, to compare with splitStakes. */
  function expectFigures(split: ReturnType<typeof splitStakes>) {
    const row = dataRow();
    expect(row).toHaveTextContent(`Staked ${formatUsd(split.total)}`);
    expect(row).toHaveTextContent(`Guaranteed Profit ${formatUsd(split.guaranteedProfit)}`);
    const pays = within(row)
      .getAllByText(/^Pays/)
      .map((el) => el.textContent);
    expect(pays).toEqual(split.payouts.map((p) => `Pays ${formatUsd(p)}`));
  }

  it('splits $200 to the cent for equal payouts by default, at the exact price (hand-checked: 81.36 × 2.5 = 203.40, 118.64 × 12/7 = 203.382… → 203.38)', () => {
    renderRows([lakersCeltics()]);
    expect(stake(/stake on los angeles lakers/i).value).toBe('81.36');
    expect(stake(/stake on boston celtics/i).value).toBe('118.64');
    expect(dataRow()).toHaveTextContent('Staked $200.00');
    expect(dataRow()).toHaveTextContent('Pays $203.40');
    expect(dataRow()).toHaveTextContent('Pays $203.38');
    expect(dataRow()).toHaveTextContent('Profit $3.38');
    // The cent split is the equal-payout split the edge badge stands for: no second return beside the badge.
    expect(dataRow().querySelector('[data-split-return]')).toBeNull();
    expectFigures(splitStakes([2.5, CELTICS], 20_000, 0));
  });

  it.each([
    [50_000, 0],
    [50_000, 1],
    [50_000, 5],
    [12_345, 10],
  ] as const)(
    'total %i cents rounded to $%i shows splitStakes’ stakes, payouts and profit',
    (totalCents, roundTo) => {
      renderRows([lakersCeltics()], { settings: settingsOf({ totalCents, roundTo }) });
      const split = splitStakes([2.5, CELTICS], totalCents, roundTo * 100);
      expect(stake(/stake on los angeles lakers/i).value).toBe((split.stakes[0]! / 100).toFixed(2));
      expect(stake(/stake on boston celtics/i).value).toBe((split.stakes[1]! / 100).toFixed(2));
      expectFigures(split);
      if (roundTo > 0) expect(split.stakes.every((s) => s % (roundTo * 100) === 0)).toBe(true);
    },
  );

  it('$200 rounded to $5 is 80/120: the worst case is $0.00, not the $5.71 the Celtics side would pay', () => {
    renderRows([lakersCeltics()], { settings: settingsOf({ roundTo: 5 }) });
    expect(stake(/stake on los angeles lakers/i).value).toBe('80.00');
    expect(stake(/stake on boston celtics/i).value).toBe('120.00');
    expect(dataRow()).toHaveTextContent('Pays $200.00');
    // 120 × 12/7 = 205.714…: the book pays $205.71 (the feed's 1.7142 would say $205.70).
    expect(dataRow()).toHaveTextContent('Pays $205.71');
    expect(dataRow()).toHaveTextContent('Profit $0.00');
    expect(within(dataRow()).queryByText(/^Loses/)).not.toBeInTheDocument();
    expect(splitReturnText()).toBe('$5 split guaranteed: $0.00 (0.00%)');
  });

  /** The return shown beside the edge badge, as a screen reader reads it. */
  const splitReturnText = () => dataRow().querySelector('[data-split-return]')?.textContent ?? null;

  it('beside the badge, a rounded split that turns a 1.53 % arb into a loss says so: −$0.80 (−0.40 %)', () => {
    // +149 (2.49) and −140 (12/7): edge 1/(1/2.49 + 7/12) − 1 = 1.529 %. $200 to $5 is 80/120 at best: 80 × 2.49 =
    // 199.20 and 120 × 12/7 = 205.714… → 205.71, so the bettor is down $0.80 (−80/20,000 = −0.40 %) if the +149 wins.
    const thinLakers = arb(
      'lal',
      [
        side('lal-fd', 'fanduel', '+149', 2.49, {
          name: 'Los Angeles Lakers',
          selection: { name: 'Los Angeles Lakers' },
        }),
        side('lal-dk', 'draftkings', '-140', 1.7142, {
          name: 'Boston Celtics',
          selection: { name: 'Boston Celtics' },
        }),
      ],
      { edge: 1.529 },
    );
    renderRows([thinLakers], { settings: settingsOf({ roundTo: 5 }) });
    const row = dataRow();
    expect(within(row).getByText('1.53%')).toBeInTheDocument();
    expect(splitReturnText()).toBe('$5 split guaranteed: -$0.80 (-0.40%)');
    expect(row).toHaveTextContent('Profit -$0.80');
    expect(within(row).getByText('Loses $0.80 if Los Angeles Lakers wins')).toBeInTheDocument();
    // The badge's cell holds it: it is read right after the edge.
    expect(within(row).getAllByRole('cell')[0]).toHaveTextContent(
      'Edge 1.53%$5 split guaranteed: -$0.80 (-0.40%)',
    );
  });

  it('a rounded split is the best at the exact prices: −163/+263, $200 to $5, is 135/65 ($17.82), not 140/60 ($17.80)', () => {
    // 1 + 100/163 = 1.613496…: 135 × it = 217.822 → $217.82, 65 × 3.63 = $235.95; 140/60 pays 225.88 and 217.80.
    // At the feed's 1.6134, 135 × 1.6134 = 217.809 → $217.80 tied 140/60, and the tie picked 140/60: 2¢ less.
    const split = arb('bos', [
      side('bos-fd', 'fanduel', '-163', 1.6134, { name: 'Boston', selection: { name: 'Boston' } }),
      side('bos-dk', 'draftkings', '+263', 3.63, { name: 'Miami', selection: { name: 'Miami' } }),
    ]);
    renderRows([split], { settings: settingsOf({ roundTo: 5 }) });
    expect(stake(/stake on boston/i).value).toBe('135.00');
    expect(stake(/stake on miami/i).value).toBe('65.00');
    expect(dataRow()).toHaveTextContent('Pays $217.82');
    expect(dataRow()).toHaveTextContent('Pays $235.95');
    expect(dataRow()).toHaveTextContent('Profit $17.82');
    // 1,782 × 10,000 / 20,000 = 891 hundredths.
    expect(splitReturnText()).toBe('$5 split guaranteed: $17.82 (8.91%)');
  });

  it('typed stakes show their own return beside the badge, and leaving the field empty takes it away', async () => {
    renderRows([lakersCeltics()]);
    const lakers = stake(/stake on los angeles lakers/i);
    await userEvent.clear(lakers);
    await userEvent.type(lakers, '10');
    // 10 × 2.50 ÷ 1.71 = 14.62 (2-place odds for typed stakes); 10 × 2.5 = 25.00, 14.62 × 12/7 = 25.062… → 25.06:
    // worst case 25.00 − 24.62 = $0.38, 3,800 / 2,462 = 1.5434… → 1.54 %.
    expect(splitReturnText()).toBe('Your stakes guaranteed: $0.38 (1.54%)');
    await userEvent.clear(lakers);
    await userEvent.tab();
    expect(splitReturnText()).toBeNull();
  });

  it('a rounded split that loses in one outcome says so, in text a screen reader reads', () => {
    renderRows([thin()], { settings: settingsOf({ totalCents: 10_000, roundTo: 10 }) });
    // 50 × 2.05 = 102.50, 50 × 1.97 = 98.50: down $1.50 if the Under wins.
    const split = splitStakes([2.05, 1.97], 10_000, 1000);
    expect(split.losesIn).toEqual([1]);
    expectFigures(split);
    expect(dataRow()).toHaveTextContent('Profit -$1.50');
    expect(splitReturnText()).toBe('$10 split guaranteed: -$1.50 (-1.50%)');
    const loss = within(dataRow()).getByText('Loses $1.50 if Under 221.5 wins');
    expect(loss).toBeVisible();
    expect(loss).not.toHaveAttribute('aria-hidden');
    // The same arb to the cent makes money whichever side wins.
    cleanup();
    renderRows([thin()], { settings: settingsOf({ totalCents: 10_000, roundTo: 0 }) });
    expect(dataRow()).toHaveTextContent('Profit $0.45');
    expect(within(dataRow()).queryByText(/^Loses/)).not.toBeInTheDocument();
  });

  it('typing one stake still computes the other (docs/product.md §5), and leaving it empty resets to the rounded split', async () => {
    renderRows([lakersCeltics()], { settings: settingsOf({ roundTo: 5 }) });
    const lakers = stake(/stake on los angeles lakers/i);
    const celtics = stake(/stake on boston celtics/i);
    await userEvent.clear(lakers);
    await userEvent.type(lakers, '100');
    // 100 × 2.50 ÷ 1.71 (decimal odds rounded to 2 places) = 146.20
    expect(celtics.value).toBe('146.20');
    expect(dataRow()).toHaveTextContent('Staked $246.20');
    // 100 × 2.5 = 250.00 and 146.20 × 1.7142 = 250.61: worst case 250.00 − 246.20.
    expect(dataRow()).toHaveTextContent('Profit $3.80');
    await userEvent.clear(lakers);
    await userEvent.tab();
    expect(lakers.value).toBe('80.00');
    expect(celtics.value).toBe('120.00');
  });

  it('a new total or rounding starts from the new split, dropping stakes typed under the old one', async () => {
    const { rerenderWith } = renderRows([lakersCeltics()]);
    const lakers = stake(/stake on los angeles lakers/i);
    await userEvent.clear(lakers);
    await userEvent.type(lakers, '10');
    expect(stake(/stake on boston celtics/i).value).toBe('14.62');
    rerenderWith({ settings: settingsOf({ totalCents: 100_000 }) });
    const split = splitStakes([2.5, CELTICS], 100_000, 0);
    expect(stake(/stake on los angeles lakers/i).value).toBe((split.stakes[0]! / 100).toFixed(2));
    expect(stake(/stake on boston celtics/i).value).toBe((split.stakes[1]! / 100).toFixed(2));
  });
});

describe('three-way (1X2) arbs', () => {
  it('show the computed split and payouts read-only, with the guaranteed profit', () => {
    renderRows([soccer()]);
    expect(screen.queryByRole('spinbutton')).not.toBeInTheDocument();
    const split = splitStakes([2.5, 3.6, 4], 20_000, 0);
    // Hand-checked: 86.23 / 59.88 / 53.89 pay 215.57 / 215.56 / 215.56.
    expect(split.stakes).toEqual([8623, 5988, 5389]);
    const row = dataRow();
    expect(within(row).getByText('Stake on Arsenal at FanDuel:')).toBeInTheDocument();
    expect(within(row).getByText('$86.23')).toBeInTheDocument();
    expect(within(row).getByText('Stake on Draw at DraftKings:').parentElement).toHaveTextContent('$59.88');
    expect(within(row).getByText('Stake on Chelsea at BetMGM:').parentElement).toHaveTextContent('$53.89');
    expect(row).toHaveTextContent('Pays $215.57');
    expect(within(row).getAllByText('$215.56')).toHaveLength(2);
    expect(row).toHaveTextContent('Staked $200.00');
    expect(row).toHaveTextContent('Profit $15.56');
  });

  it('follow the total and rounding, and say which outcome a rounded split loses in', () => {
    renderRows([soccer([3.1, 3.6, 3])], { settings: settingsOf({ totalCents: 10_000, roundTo: 10 }) });
    // 30 / 30 / 40 pay 93 / 108 / 120: down $7.00 if Arsenal win (every other $10 split is worse).
    const split = splitStakes([3.1, 3.6, 3], 10_000, 1000);
    expect(split.stakes).toEqual([3000, 3000, 4000]);
    const row = dataRow();
    expect(within(row).getByText('Stake on Arsenal at FanDuel:').parentElement).toHaveTextContent('$30.00');
    expect(row).toHaveTextContent('Profit -$7.00');
    expect(within(row).getByText('Loses $7.00 if Arsenal wins')).toBeInTheDocument();
  });

  it('name a draw as a draw', () => {
    // 40 / 30 / 30 pay 112 / 99 / 102: down $1.00 on a draw.
    renderRows([soccer([2.8, 3.3, 3.4])], { settings: settingsOf({ totalCents: 10_000, roundTo: 10 }) });
    expect(splitStakes([2.8, 3.3, 3.4], 10_000, 1000).losesIn).toEqual([1]);
    expect(within(dataRow()).getByText('Loses $1.00 on a draw')).toBeInTheDocument();
  });
});

describe('arb age', () => {
  const FOUND = NOW / 1000 - 45;

  it('says how long ago the arb was found, from found_at and the page clock', () => {
    const { rerenderWith } = renderRows([lakersCeltics('lal', { found_at: FOUND })]);
    expect(within(dataRow()).getByText('found 45 s ago')).toHaveAttribute(
      'datetime',
      new Date(FOUND * 1000).toISOString(),
    );
    rerenderWith({ settings: settingsOf({ now: NOW + 135_000 }) });
    expect(within(dataRow()).getByText('found 3 min ago')).toBeInTheDocument();
  });

  it('says nothing when the feed has no found_at (the sample data)', () => {
    renderRows([lakersCeltics()]);
    expect(within(dataRow()).queryByText(/^found/)).not.toBeInTheDocument();
  });

  it('marks an arb found 5 minutes ago or more as old', () => {
    renderRows([lakersCeltics('lal', { found_at: NOW / 1000 - 300 })]);
    expect(within(dataRow()).getByText('found 5 min ago')).toHaveAttribute('data-stale', 'true');
  });

  it('a clock tick updates the label without re-rendering the row', () => {
    const a = lakersCeltics('lal', { found_at: FOUND, edge_pct: 1.69 });
    const { rerenderWith } = renderRows([a]);
    expect(badgeRenders.get(1.69)).toBe(1);
    rerenderWith({ settings: settingsOf({ now: NOW + 1000 }) });
    expect(within(dataRow()).getByText('found 46 s ago')).toBeInTheDocument();
    expect(badgeRenders.get(1.69)).toBe(1);
  });
});

describe('Hide', () => {
  it('calls onHide with the arb key, from a button named after the event', async () => {
    const a = lakersCeltics();
    const onHide = vi.fn();
    renderRows([a], { onHide });
    await userEvent.click(screen.getByRole('button', { name: 'Hide lal Away @ lal Home, Moneyline' }));
    expect(onHide).toHaveBeenCalledExactlyOnceWith(arbKey(a));
  });

  it('moves the focus to the next row’s Hide button once the row is gone', async () => {
    const arbs = [lakersCeltics('aaa'), lakersCeltics('bbb'), lakersCeltics('ccc')];
    function Page() {
      const [hidden, setHidden] = useState<readonly string[]>([]);
      const rows = rowsOf(arbs).filter((row) => !hidden.includes(row.key));
      return (
        <ArbTable
          caption="Arbs"
          rows={rows}
          device="desktop"
          states={{}}
          onStateChange={() => {}}
          settings={settingsOf()}
          onHide={(key) => setHidden((keys) => [...keys, key])}
        />
      );
    }
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: /^hide bbb/i }));
    expect(screen.queryByRole('button', { name: /^hide bbb/i })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^hide ccc/i })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: /^hide ccc/i }));
    expect(screen.getByRole('button', { name: /^hide aaa/i })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: /^hide aaa/i }));
    expect(screen.getByText('No arbs found')).toHaveFocus();
  });
});

describe('memoised rows', () => {
  it('re-render only for the settings they draw, whatever object carries them', () => {
    const a = lakersCeltics('lal', { edge_pct: 1.69 });
    const onHide = vi.fn();
    const { rerenderWith } = renderRows([a], { onHide });
    expect(badgeRenders.get(1.69)).toBe(1);
    rerenderWith({ settings: settingsOf(), onHide: vi.fn() });
    expect(badgeRenders.get(1.69)).toBe(1);
    act(() => rerenderWith({ settings: settingsOf({ oddsFormat: 'decimal' }) }));
    expect(badgeRenders.get(1.69)).toBe(2);
    expect(screen.getByText('2.50')).toBeInTheDocument();
  });
});
