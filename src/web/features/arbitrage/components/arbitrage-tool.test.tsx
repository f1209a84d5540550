// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatOdds } from '#domain/odds-format.ts';
import type { ArbFeed } from '#domain/schemas/feed.ts';
import { arb, feed, moneyline, side } from '#tests/support/arbitrage-fixtures.ts';
import { ArbitrageTool } from './arbitrage-tool.tsx';
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

type Answer = ArbFeed | { status: number } | 'network' | { raw: unknown };
let answers: Answer[] = [];
const fetchMock = vi.fn(async (url: string): Promise<Response> => {
  void url;
  const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
  if (answer === 'network') throw new TypeError('Failed to fetch');
  if ('status' in answer)
    return new Response('{}', { status: answer.status, statusText: 'Internal Server Error' });
  const body = 'raw' in answer ? answer.raw : answer;
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
});

beforeEach(() => {
  window.localStorage.clear();
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockClear();
  badgeRenders.clear();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The arbs' rows: not the header row, nor the near-arbs' divider (a row of one column header). */
const dataRows = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .filter((row) => within(row).queryAllByRole('columnheader').length === 0);

describe('ArbitrageTool', () => {
  it('asks for /tools/arbs.json with the current time and shows the arbs sorted by edge, highest first', async () => {
    answers = [feed([moneyline('low', 0.5), moneyline('high', 3.25), moneyline('mid', 1.75)])];
    render(<ArbitrageTool />);
    expect(screen.getByText('Loading arbitrage opportunities...')).toBeInTheDocument();
    await screen.findByRole('table');
    expect(fetchMock.mock.calls[0]![0]).toMatch(/^\/tools\/arbs\.json\?t=\d{13}$/);
    expect(dataRows().map((row) => within(row).getByText(/%$/).textContent)).toEqual([
      'Edge 3.25%',
      'Edge 1.75%',
      'Edge 0.50%',
    ]);
    expect(screen.queryByText('Demo data')).not.toBeInTheDocument();
  });

  it('writes the prices in the odds format the bettor picks, once its code has loaded (never American meanwhile)', async () => {
    const only = moneyline('fmt', 2.5);
    answers = [feed([only])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    const prices = () => only.sides.map((s) => within(dataRows()[0]!).queryByText(s.price, { exact: true }));
    expect(prices().every(Boolean)).toBe(true);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Odds format' }), 'Decimal');
    const decimals = only.sides.map((s) =>
      formatOdds({ decimal: s.decimal_odds, american: s.price }, 'decimal'),
    );
    await waitFor(() =>
      expect(
        decimals.map((text) => within(dataRows()[0]!).queryAllByText(text, { exact: true }).length > 0),
      ).toEqual([true, true]),
    );
    expect(prices().some(Boolean)).toBe(false);
  });

  it('shows each tab with its count and switches between pre-match and live', async () => {
    answers = [feed([moneyline('pre1'), moneyline('pre2'), moneyline('live1', 1, true)])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    const pre = screen.getByRole('tab', { name: /pre-match/i });
    const live = screen.getByRole('tab', { name: /live/i });
    expect(pre).toHaveAttribute('aria-selected', 'true');
    expect(pre).toHaveTextContent('2');
    expect(live).toHaveTextContent('1');
    expect(dataRows()).toHaveLength(2);
    await userEvent.click(live);
    expect(live).toHaveAttribute('aria-selected', 'true');
    expect(dataRows()).toHaveLength(1);
    expect(screen.getByText('LIVA')).toBeInTheDocument();
  });

  it('falls back silently to the labelled sample data when the feed answers 500', async () => {
    answers = [{ status: 500 }];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(screen.getByText('Demo data')).toBeInTheDocument();
    expect(screen.queryByText('Error Loading Data')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /pre-match/i })).toHaveTextContent('1');
    expect(screen.getByRole('tab', { name: /live/i })).toHaveTextContent('1');
    expect(screen.getByText('Moneyline')).toBeInTheDocument();
  });

  it('falls back to the sample data on a network failure', async () => {
    answers = ['network'];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(screen.getByText('Demo data')).toBeInTheDocument();
    expect(screen.getByText('BOS')).toBeInTheDocument();
  });

  it('labels simulator prices as demo data', async () => {
    answers = [feed([moneyline()], 'simulator')];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(screen.getByText('Demo data')).toBeInTheDocument();
  });

  it('shows Error Loading Data when the answer cannot be handled, and Try Again recovers', async () => {
    answers = [{ raw: { arbs: 'nope' } }, feed([moneyline()])];
    render(<ArbitrageTool />);
    expect(await screen.findByText('Error Loading Data')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await screen.findByRole('table');
    expect(screen.queryByText('Error Loading Data')).not.toBeInTheDocument();
  });

  it('leaves out an arb that fails the schema, shows the others and says how many were left out', async () => {
    const broken = moneyline('bad', 5);
    const nullOdds = { ...broken, sides: [{ ...broken.sides[0], decimal_odds: null }, broken.sides[1]] };
    answers = [{ raw: { ...feed([]), arbs: [nullOdds, moneyline('good', 2), moneyline('fine', 1)] } }];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(screen.queryByText('Error Loading Data')).not.toBeInTheDocument();
    expect(dataRows()).toHaveLength(2);
    expect(screen.getByText('GOOA')).toBeInTheDocument();
    expect(screen.getByText('FINA')).toBeInTheDocument();
    expect(screen.queryByText('BADA')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /pre-match/i })).toHaveTextContent('2');
    expect(screen.getByText(/1 unreadable arb left out/)).toBeInTheDocument();
  });

  it('hides suspect arbs by default and counts only the shown arbs in the tabs', async () => {
    answers = [
      feed([
        moneyline('odd', 14, false, true),
        moneyline('pre', 2),
        moneyline('wild', 25, true, true),
        moneyline('live', 3, true),
        moneyline('liv2', 1, true),
      ]),
    ];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(dataRows()).toHaveLength(1);
    expect(screen.queryByText('ODDA')).not.toBeInTheDocument();
    expect(screen.queryByText('Suspect')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /pre-match/i })).toHaveTextContent('1');
    expect(screen.getByRole('tab', { name: /live/i })).toHaveTextContent('2');
    expect(screen.getByRole('checkbox', { name: 'Show suspect arbs (1)' })).not.toBeChecked();
  });

  it('shows suspect arbs with their badge after the toggle, counts them in the tabs, and remembers the choice', async () => {
    answers = [
      feed([
        moneyline('odd', 14, false, true),
        moneyline('pre', 2),
        moneyline('wild', 25, true, true),
        moneyline('live', 3, true),
      ]),
    ];
    const { unmount } = render(<ArbitrageTool />);
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('checkbox', { name: /show suspect arbs/i }));
    expect(dataRows()).toHaveLength(2);
    const oddRow = screen.getByText('ODDA').closest('tr')!;
    expect(dataRows()[0]).toBe(oddRow);
    expect(within(oddRow).getByText('Suspect')).toHaveAttribute(
      'title',
      expect.stringMatching(/stale or wrong price/),
    );
    expect(screen.getByRole('tab', { name: /pre-match/i })).toHaveTextContent('2');
    expect(screen.getByRole('tab', { name: /live/i })).toHaveTextContent('2');
    expect(window.localStorage.getItem('showSuspectArbs')).toBe('true');
    unmount();
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(screen.getByRole('checkbox', { name: 'Show suspect arbs (1)' })).toBeChecked();
    expect(screen.getByText('ODDA')).toBeInTheDocument();
  });

  it('shows the best plausible arb of a market whose best arb is suspect while suspect arbs are hidden', async () => {
    const market = (sideIds: [string, string], edge: number, suspect?: boolean) =>
      arb('game', [side(sideIds[0], 'fanduel', '+150', 2.5), side(sideIds[1], 'draftkings', '-120', 1.83)], {
        edge,
        suspect,
      });
    answers = [feed([market(['s1', 's2'], 12, true), market(['p1', 'p2'], 1.5)])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(dataRows()).toHaveLength(1);
    expect(within(dataRows()[0]!).getByText(/%$/)).toHaveTextContent('1.50%');
    expect(screen.getByRole('checkbox', { name: 'Show suspect arbs (1)' })).toBeInTheDocument();
  });

  it('says "No arbs found" when the feed is empty', async () => {
    answers = [feed([])];
    render(<ArbitrageTool />);
    expect(await screen.findByText('No arbs found')).toBeInTheDocument();
  });

  it('dims the table behind a refreshing overlay during a manual refresh', async () => {
    answers = [feed([moneyline()])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    let release!: () => void;
    fetchMock.mockImplementationOnce(
      () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(new Response(JSON.stringify(feed([moneyline()])), { status: 200 }));
        }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Refreshing arbitrage opportunities...')).toBeInTheDocument();
    expect(screen.getByRole('table').parentElement).toHaveClass('opacity-40');
    await act(async () => release());
    await waitFor(() =>
      expect(screen.queryByText('Refreshing arbitrage opportunities...')).not.toBeInTheDocument(),
    );
  });

  it('disables Refresh while Auto is on and polls every second', async () => {
    answers = [feed([moneyline()])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    expect(refresh).toBeEnabled();
    const auto = screen.getByRole('switch', { name: 'Auto' });
    expect(auto).toHaveAttribute('aria-checked', 'false');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await userEvent.click(auto);
    expect(refresh).toBeDisabled();
    const before = fetchMock.mock.calls.length;
    await act(async () => vi.advanceTimersByTimeAsync(3000));
    const polls = fetchMock.mock.calls.length - before;
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(3);
    await userEvent.click(auto);
    expect(refresh).toBeEnabled();
  });

  it('highlights a new arb found by the next fetch for 2.5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answers = [feed([moneyline('old')])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(screen.queryByText('New')).not.toBeInTheDocument();
    answers = [feed([moneyline('old'), moneyline('fresh', 4)])];
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    const freshRow = (await screen.findByText('FREA')).closest('tr')!;
    expect(within(freshRow).getByText('New')).toBeInTheDocument();
    expect(freshRow).toHaveAttribute('data-highlighted', 'true');
    await act(async () => vi.advanceTimersByTimeAsync(2600));
    expect(within(freshRow).queryByText('New')).not.toBeInTheDocument();
  });

  it('keeps the picked sportsbooks in localStorage and hides arbs at books left out', async () => {
    answers = [feed([moneyline()])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    const trigger = screen.getByRole('button', { name: /sportsbooks/i });
    // Books, as the site counts them: Hard Rock's two markets are one of the 14 (decision 298).
    expect(trigger).toHaveTextContent('14/14');
    await userEvent.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Choose sportsbooks' });
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'FanDuel' }));
    expect(JSON.parse(window.localStorage.getItem('selectedSportsbooks')!)).not.toContain('fanduel');
    expect(JSON.parse(window.localStorage.getItem('selectedSportsbooks')!)).toHaveLength(14);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(trigger).toHaveFocus();
    expect(trigger).toHaveTextContent('13/14');
    expect(screen.getByText('No arbs found')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /pre-match/i })).toHaveTextContent('0');
  });

  it('counts Hard Rock once, chosen while either of its two markets is (decision 298)', async () => {
    answers = [feed([moneyline()])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    const trigger = screen.getByRole('button', { name: /sportsbooks/i });
    await userEvent.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Choose sportsbooks' });
    const group = within(dialog).getByRole('group', {
      name: /Hard Rock: one sportsbook, priced in 2 markets/,
    });
    expect(
      within(group)
        .getAllByRole('checkbox')
        .map((box) => box.getAttribute('value')),
    ).toEqual(['hardrock', 'hardrock_in']);
    // The picker lists each book once, its markets inside it: 13 books of one market and Hard Rock's two.
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(15);
    await userEvent.click(within(group).getByRole('checkbox', { name: 'Hard Rock Indiana' }));
    expect(trigger).toHaveTextContent('14/14');
    await userEvent.click(within(group).getByRole('checkbox', { name: 'Hard Rock' }));
    expect(trigger).toHaveTextContent('13/14');
    expect(JSON.parse(window.localStorage.getItem('selectedSportsbooks')!)).toHaveLength(13);
  });

  it('reads stored choices and falls back to the defaults when they are corrupt', async () => {
    window.localStorage.setItem('selectedSportsbooks', '{corrupt');
    window.localStorage.setItem('sportsbookStates', '["nj"]');
    answers = [feed([moneyline()])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(screen.getByRole('button', { name: /sportsbooks/i })).toHaveTextContent('14/14');
    expect(screen.getByRole('combobox', { name: 'FanDuel state' })).toHaveValue('az');
  });

  it('remembers a state choice in sportsbookStates and rewrites the link', async () => {
    window.localStorage.setItem('sportsbookStates', JSON.stringify({ fanduel: 'ny' }));
    answers = [feed([moneyline()])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    const link = screen.getByRole('link', { name: /bet at fanduel/i });
    expect(link.getAttribute('href')).toMatch(/^https:\/\/ny\.sportsbook\.fanduel\.com\//);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'FanDuel state' }), 'ON');
    expect(link.getAttribute('href')).toMatch(/^https:\/\/on\.sportsbook\.fanduel\.ca\//);
    expect(JSON.parse(window.localStorage.getItem('sportsbookStates')!)).toEqual({ fanduel: 'on' });
  });

  it('re-renders only the new row when a refresh brings a new arb, and after its highlight ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answers = [feed([moneyline('aaa', 1.1), moneyline('bbb', 2.2)])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    const before = { a: badgeRenders.get(1.1), b: badgeRenders.get(2.2) };
    answers = [feed([moneyline('aaa', 1.1), moneyline('bbb', 2.2), moneyline('ccc', 3.3)])];
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText('CCCA');
    await act(async () => vi.advanceTimersByTimeAsync(2600));
    expect(screen.queryByText('New')).not.toBeInTheDocument();
    expect(badgeRenders.get(1.1)).toBe(before.a);
    expect(badgeRenders.get(2.2)).toBe(before.b);
    expect(badgeRenders.get(3.3)).toBe(2); // new (highlighted), then unhighlighted
  });

  it('does not re-render the rows that stay when an arb before them in the feed leaves', async () => {
    answers = [feed([moneyline('aaa', 1.1), moneyline('bbb', 2.2), moneyline('ccc', 3.3)])];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    const before = { b: badgeRenders.get(2.2), c: badgeRenders.get(3.3) };
    answers = [feed([moneyline('bbb', 2.2), moneyline('ccc', 3.3)])];
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(dataRows()).toHaveLength(2));
    expect(badgeRenders.get(2.2)).toBe(before.b);
    expect(badgeRenders.get(3.3)).toBe(before.c);
  });

  /** An IntersectionObserver the test drives: `approach()` says every observed element came near the viewport. */
  function stubIntersectionObserver() {
    const observers = new Set<{ callback: IntersectionObserverCallback; targets: Element[] }>();
    class FakeObserver {
      entry: { callback: IntersectionObserverCallback; targets: Element[] };
      constructor(callback: IntersectionObserverCallback) {
        this.entry = { callback, targets: [] };
        observers.add(this.entry);
      }
      observe(target: Element) {
        this.entry.targets.push(target);
      }
      disconnect() {
        observers.delete(this.entry);
      }
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    return {
      observed: () => [...observers].flatMap((observer) => observer.targets),
      approach: () => {
        for (const { callback, targets } of [...observers]) {
          const entries = targets.map(
            (target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry,
          );
          act(() => callback(entries, {} as IntersectionObserver));
        }
      },
    };
  }

  it('draws the best 10 arbs first, the rest of the best 25 when scrolled towards, and more on request', async () => {
    const viewport = stubIntersectionObserver();
    answers = [feed(Array.from({ length: 40 }, (_, i) => moneyline(`ev${i}`, i / 10)))];
    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(dataRows()).toHaveLength(10);
    expect(screen.getByText('Showing the best 10 of 40')).toBeInTheDocument();
    expect(within(dataRows()[0]!).getByText(/%$/)).toHaveTextContent('3.90%');
    // The sentinel is observed from an effect after the rows' commit: on a loaded machine a moment later.
    await waitFor(() => expect(viewport.observed()).toHaveLength(1));
    viewport.approach();
    await waitFor(() => expect(dataRows()).toHaveLength(25));
    expect(screen.getByText('Showing the best 25 of 40')).toBeInTheDocument();
    expect(within(dataRows()[24]!).getByText(/%$/)).toHaveTextContent('1.50%');
    expect(viewport.observed()).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Show 15 more' }));
    expect(dataRows()).toHaveLength(40);
    expect(screen.queryByRole('button', { name: /more$/ })).not.toBeInTheDocument();
  });

  it('draws the rest of the best 25 when the focus moves into the rows, or on "Show 15 more" at once', async () => {
    stubIntersectionObserver();
    answers = [feed(Array.from({ length: 40 }, (_, i) => moneyline(`ev${i}`, i / 10)))];
    const { unmount } = render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(dataRows()).toHaveLength(10);
    act(() =>
      within(dataRows()[9]!)
        .getByRole('button', { name: /^Hide / })
        .focus(),
    );
    await waitFor(() => expect(dataRows()).toHaveLength(25));
    unmount();

    render(<ArbitrageTool />);
    await screen.findByRole('table');
    expect(dataRows()).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: 'Show 15 more' }));
    expect(dataRows()).toHaveLength(25);
    expect(screen.getByText('Showing the best 25 of 40')).toBeInTheDocument();
  });
});
