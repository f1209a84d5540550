// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ArbFeed } from '#domain/schemas/feed.ts';
import { arb, feed, moneyline } from '#tests/support/arbitrage-fixtures.ts';
import type { FeedArb } from '../lib/arb-filters.ts';
import { loadBettorExtras } from '../lib/bettor-extras.ts';
import type { RowSettings } from '../lib/tool-settings.ts';
import { ArbitrageTool } from './arbitrage-tool.tsx';
import type { ArbTableProps } from './arb-table.tsx';

// The toolbar of issue 14 through the whole page, with the rows' table replaced by a stand-in that lists each row
// with a Hide button and records the settings it gets (the rows are another component's tests).
const table = vi.hoisted(() => ({ settings: undefined as RowSettings | undefined }));
vi.mock('./arb-table.tsx', () => ({
  ArbTable: (props: ArbTableProps & { settings?: RowSettings; onHide?: (key: string) => void }) => {
    table.settings = props.settings;
    if (props.rows.length === 0) return <p role="status">No arbs found</p>;
    return (
      <ul aria-label="arbs">
        {props.rows.map((row) => (
          <li key={row.key}>
            {row.arb.event.id}
            <button type="button" onClick={() => props.onHide?.(row.key)}>
              Hide {row.arb.event.id}
            </button>
          </li>
        ))}
      </ul>
    );
  },
}));

const HOUR = 3_600_000;
function game(
  id: string,
  extra: { league?: string; market?: string; edge?: number; live?: boolean; inH?: number },
) {
  const base = moneyline(id, extra.edge ?? 1, extra.live ?? false);
  const built = arb(id, base.sides, {
    live: extra.live,
    edge: extra.edge ?? 1,
    market: extra.market ?? 'Moneyline',
    date: new Date(Date.now() + (extra.inH ?? 3) * HOUR).toISOString(),
  });
  const sport = { nba: 'basketball', nhl: 'hockey', mlb: 'baseball' }[extra.league ?? ''];
  return { ...built, event: { ...built.event, league: extra.league, sport } } as FeedArb;
}
const FEED = [
  game('nba1', { league: 'nba', edge: 2.5 }),
  game('nhl1', { league: 'nhl', market: 'Spread -1.5 / +1.5', edge: 1.2, inH: 0.5 }),
  game('mlb1', { league: 'mlb', market: 'Total 8.5', edge: 0.4, inH: 30 }),
  game('anon', { edge: 0.8 }),
  game('live1', { league: 'nhl', edge: 2, live: true }),
];

let answers: ArbFeed[] = [];
const fetchMock = vi.fn(async () => {
  const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
  return new Response(JSON.stringify(answer), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
});

// The filters' code loads on use (lib/bettor-extras.ts; arbitrage-filters-load.test.tsx tests the wait): loaded once
// here, so each filter applies as soon as it is set.
beforeAll(() => loadBettorExtras());

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/betting-tools/arbitrage');
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockClear();
  answers = [feed(FEED)];
  table.settings = undefined;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const listed = () =>
  within(screen.getByRole('list', { name: 'arbs' }))
    .getAllByRole('listitem')
    .map((item) => item.firstChild!.textContent);
const tabCount = (name: RegExp) => screen.getByRole('tab', { name }).textContent;
async function openPage() {
  const view = render(<ArbitrageTool />);
  await screen.findByRole('list', { name: 'arbs' });
  return view;
}

describe('filters', () => {
  it('start with none: every arb listed, docs/product.md defaults passed to the rows', async () => {
    await openPage();
    expect(listed()).toEqual(['nba1', 'nhl1', 'anon', 'mlb1']);
    expect(tabCount(/pre-match/i)).toMatch(/4/);
    expect(table.settings).toMatchObject({ oddsFormat: 'american', totalCents: 20_000, roundTo: 0 });
    expect(window.location.search).toBe('');
  });

  it('Minimum edge, Markets, Leagues and Starts within narrow the list and the tab counts', async () => {
    const user = userEvent.setup();
    await openPage();
    await user.type(screen.getByRole('spinbutton', { name: 'Minimum edge' }), '1');
    expect(listed()).toEqual(['nba1', 'nhl1']);
    expect(tabCount(/pre-match/i)).toMatch(/2/);
    expect(tabCount(/live/i)).toMatch(/1/);
    expect(screen.getByText('2 of 4 shown')).toBeInTheDocument();

    await user.clear(screen.getByRole('spinbutton', { name: 'Minimum edge' }));
    await user.click(screen.getByRole('button', { name: 'Markets' }));
    const markets = await screen.findByRole('group', { name: 'Markets' });
    await user.click(within(markets).getByRole('checkbox', { name: 'Spread' }));
    await user.click(within(markets).getByRole('checkbox', { name: 'Total' }));
    expect(listed()).toEqual(['nhl1', 'mlb1']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Markets' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Markets' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Leagues' }));
    const leagues = await screen.findByRole('group', { name: 'Leagues' });
    // Leagues present in the feed, under their sport.
    expect(
      within(leagues)
        .getAllByRole('checkbox')
        .map((box) => box.parentElement!.textContent),
    ).toEqual(['MLB', 'NBA', 'NHL']);
    expect(within(leagues).getByText('Hockey')).toBeInTheDocument();
    await user.click(within(leagues).getByRole('checkbox', { name: 'NHL' }));
    expect(listed()).toEqual(['nhl1']);
    expect(tabCount(/live/i)).toMatch(/0/);

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Starts within' }), '1 h');
    expect(listed()).toEqual(['nhl1']);
    expect(tabCount(/live/i)).toMatch(/1/); // pre-match only
  });

  it('keep arbs without a league unless a league is chosen', async () => {
    const user = userEvent.setup();
    await openPage();
    await user.click(screen.getByRole('button', { name: 'Markets' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Moneyline' }));
    expect(listed()).toEqual(['nba1', 'anon']);
    await user.click(screen.getByRole('button', { name: 'Leagues' }));
    await user.click(await screen.findByRole('checkbox', { name: 'NBA' }));
    expect(listed()).toEqual(['nba1']);
  });
});

describe('URL and storage', () => {
  it('write every filter and the format to the URL without navigating, and to localStorage', async () => {
    const user = userEvent.setup();
    const pushState = vi.spyOn(window.history, 'pushState');
    await openPage();
    await user.type(screen.getByRole('spinbutton', { name: 'Minimum edge' }), '0.5');
    await user.click(screen.getByRole('button', { name: 'Leagues' }));
    await user.click(await screen.findByRole('checkbox', { name: 'NBA' }));
    await user.click(screen.getByRole('checkbox', { name: 'NHL' }));
    await user.click(screen.getByRole('button', { name: 'Markets' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Spread' }));
    await user.click(screen.getByRole('checkbox', { name: 'Moneyline' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Starts within' }), '6 h');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Odds format' }), 'Decimal');
    expect(window.location.pathname).toBe('/betting-tools/arbitrage');
    expect(window.location.search).toBe(
      '?min=0.5&leagues=nba,nhl&markets=moneyline,spread&starts=6h&format=decimal',
    );
    expect(pushState).not.toHaveBeenCalled();
    // Decimal prices come from a chunk the screen loads before it draws the rows again (lib/bettor-extras.ts).
    await waitFor(() => expect(listed()).toEqual(['nba1', 'nhl1']));
    expect(JSON.parse(window.localStorage.getItem('arbFilters')!)).toBe(
      'min=0.5&leagues=nba,nhl&markets=moneyline,spread&starts=6h',
    );
    expect(table.settings?.oddsFormat).toBe('decimal');
  });

  it('a shared URL shows its view on opening, over what storage holds', async () => {
    window.localStorage.setItem('arbFilters', JSON.stringify('min=2&leagues=nba'));
    window.localStorage.setItem('oddsFormat', '"fractional"');
    window.history.replaceState(null, '', '/betting-tools/arbitrage?markets=total&format=probability');
    await openPage();
    expect(listed()).toEqual(['mlb1']);
    expect(screen.getByRole('spinbutton', { name: 'Minimum edge' })).toHaveValue(null);
    expect(screen.getByRole('combobox', { name: 'Odds format' })).toHaveValue('probability');
    expect(table.settings?.oddsFormat).toBe('probability');
    expect(window.location.search).toBe('?markets=total&format=probability');
  });

  it('without filters in the URL, the stored ones apply and are written to the URL', async () => {
    window.localStorage.setItem('arbFilters', JSON.stringify('min=2'));
    await openPage();
    expect(listed()).toEqual(['nba1']);
    expect(screen.getByRole('spinbutton', { name: 'Minimum edge' })).toHaveValue(2);
    await waitFor(() => expect(window.location.search).toBe('?min=2'));
  });
});

describe('player props (issue 15)', () => {
  const lebron = {
    ...game('lebron', { league: 'nba', market: 'LeBron James Points Over/Under 27.5', edge: 1.5 }),
    market_type: 'prop',
  };
  const nbaLine = { ...FEED[0]!, market_type: 'moneyline' };

  it('Player props keeps only prop arbs, lands in the URL and storage as markets=props, and is restored', async () => {
    answers = [feed([lebron, nbaLine, ...FEED.slice(1)])];
    const user = userEvent.setup();
    const first = await openPage();
    expect(listed()).toEqual(['nba1', 'lebron', 'nhl1', 'anon', 'mlb1']);
    await user.click(screen.getByRole('button', { name: 'Markets' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Player props' }));
    expect(listed()).toEqual(['lebron']);
    expect(window.location.search).toBe('?markets=props');
    expect(JSON.parse(window.localStorage.getItem('arbFilters')!)).toBe('markets=props');
    await user.click(screen.getByRole('checkbox', { name: 'Player props' }));
    await user.click(screen.getByRole('checkbox', { name: 'Total' }));
    // The prop's label says Over/Under, its market_type says prop: not a total.
    expect(listed()).toEqual(['mlb1']);
    await user.click(screen.getByRole('checkbox', { name: 'Player props' }));
    expect(listed()).toEqual(['lebron', 'mlb1']);
    first.unmount();

    window.history.replaceState(null, '', '/betting-tools/arbitrage');
    window.localStorage.setItem('arbFilters', JSON.stringify('markets=props'));
    await openPage();
    expect(listed()).toEqual(['lebron']);
    await waitFor(() => expect(window.location.search).toBe('?markets=props'));
  });
});

describe('stake settings', () => {
  it('Total stake and Round stakes to reach the rows and persist across visits', async () => {
    const user = userEvent.setup();
    const first = await openPage();
    const stake = screen.getByRole('spinbutton', { name: 'Total stake' });
    expect(stake).toHaveValue(200);
    await user.clear(stake);
    expect(table.settings?.totalCents).toBe(20_000); // empty is not a stake
    await user.type(stake, '512.5');
    await user.tab();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Round stakes to' }), '$5');
    expect(table.settings).toMatchObject({ totalCents: 51_250, roundTo: 5 });
    expect(screen.getByText(/Stakes split \$512\.5 for equal payouts/)).toBeInTheDocument();
    first.unmount();
    await openPage();
    expect(screen.getByRole('spinbutton', { name: 'Total stake' })).toHaveValue(512.5);
    expect(screen.getByRole('combobox', { name: 'Round stakes to' })).toHaveValue('5');
    expect(table.settings).toMatchObject({ totalCents: 51_250, roundTo: 5 });
  });
});

describe('hide', () => {
  it('hides an arb until it leaves the feed; Show hidden brings hidden arbs back', async () => {
    const user = userEvent.setup();
    answers = [feed(FEED), feed(FEED), feed(FEED.filter((a) => a.event.id !== 'nhl1')), feed(FEED)];
    await openPage();
    await user.click(screen.getByRole('button', { name: 'Hide nba1' }));
    await user.click(screen.getByRole('button', { name: 'Hide nhl1' }));
    expect(listed()).toEqual(['anon', 'mlb1']);
    expect(tabCount(/pre-match/i)).toMatch(/2/);
    expect(JSON.parse(window.sessionStorage.getItem('hiddenArbs')!)).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(screen.getByRole('button', { name: 'Show hidden (2)' })).toBeInTheDocument();
    // nhl1 leaves the feed: forgotten, so it is shown when it returns.
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByRole('button', { name: 'Show hidden (1)' });
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(listed()).toEqual(['nhl1', 'anon', 'mlb1']));
    await user.click(screen.getByRole('button', { name: 'Show hidden (1)' }));
    expect(listed()).toEqual(['nba1', 'nhl1', 'anon', 'mlb1']);
    expect(screen.queryByRole('button', { name: /show hidden/i })).not.toBeInTheDocument();
  });
});

describe('alerts', () => {
  const notifications: { title: string; body?: string }[] = [];
  const notes: number[] = [];
  let permission: NotificationPermission = 'default';
  const requestPermission = vi.fn(async () => (permission = 'granted'));
  class FakeNotification {
    static get permission() {
      return permission;
    }
    static requestPermission = requestPermission;
    constructor(title: string, options?: NotificationOptions) {
      notifications.push({ title, body: options?.body });
    }
  }
  class FakeAudioContext {
    state = 'running';
    currentTime = 0;
    destination = {};
    resume = vi.fn(async () => undefined);
    createGain() {
      const gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { gain, connect: (next: unknown) => next };
    }
    createOscillator() {
      const frequency = { value: 0 };
      return {
        type: 'sine',
        frequency,
        connect: (next: unknown) => next,
        start: () => notes.push(frequency.value),
        stop() {},
      };
    }
  }
  beforeEach(() => {
    notifications.length = 0;
    notes.length = 0;
    permission = 'default';
    requestPermission.mockClear();
    vi.stubGlobal('Notification', FakeNotification);
    vi.stubGlobal('AudioContext', FakeAudioContext);
  });

  const a = game('aaa', { league: 'nba', edge: 1 });
  const b = game('bbb', { league: 'nba', edge: 2 });
  const low = game('low', { league: 'nba', edge: 0.2 });
  const neg = game('neg', { league: 'nba', edge: -0.3 });

  it('fire once per new arb, with sound and a notification, only while the switch is on', async () => {
    const user = userEvent.setup();
    answers = [
      feed([a]),
      feed([a, neg]),
      feed([a, neg, b]),
      feed([a, neg, b]),
      feed([a, b]),
      feed([a, b, low]),
    ];
    render(<ArbitrageTool />);
    await screen.findByRole('list', { name: 'arbs' });
    const alerts = screen.getByRole('switch', { name: 'Alerts' });
    expect(alerts).toHaveAttribute('aria-checked', 'false');
    await user.click(alerts);
    expect(alerts).toHaveAttribute('aria-checked', 'true');
    await waitFor(() => expect(requestPermission).toHaveBeenCalledTimes(1));
    const refresh = async () => {
      await user.click(screen.getByRole('button', { name: 'Refresh' }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await refresh(); // neg is new but pays nothing
    expect(notifications).toHaveLength(0);
    await refresh(); // bbb is new
    await waitFor(() =>
      expect(notifications).toEqual([{ title: 'New arb: 2.00%', body: 'BBBA @ BBBH · Moneyline' }]),
    );
    expect(notes).toEqual([880, 1320]);
    await refresh(); // the same feed: nothing new
    await refresh(); // neg leaves: nothing new
    expect(notifications).toHaveLength(1);
    // low (0.2 %) arrives: listed (no minimum edge is set) but under the alerts' own 1 % threshold (issue 34).
    await refresh();
    expect(listed()).toContain('low');
    expect(notifications).toHaveLength(1);
    expect(notes).toHaveLength(2);
    expect(window.localStorage.getItem('arbAlerts')).toBe('true');
  });

  it('have their own threshold, 1 % unless changed and then remembered; new arbs of one fetch make one alert', async () => {
    const user = userEvent.setup();
    const c = game('ccc', { league: 'nba', edge: 1.5 });
    answers = [feed([a]), feed([a, low, c, neg])];
    const view = render(<ArbitrageTool />);
    await screen.findByRole('list', { name: 'arbs' });
    const threshold = screen.getByRole('spinbutton', { name: 'Alert threshold' });
    expect(threshold).toHaveValue(1);
    await user.clear(threshold);
    await user.type(threshold, '0.1');
    expect(window.localStorage.getItem('arbAlertThresholdPct')).toBe('0.1');
    await user.click(screen.getByRole('switch', { name: 'Alerts' }));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() =>
      expect(notifications).toEqual([{ title: '2 new arbs, best 1.50%', body: 'CCCA @ CCCH · Moneyline' }]),
    );
    expect(notes).toEqual([880, 1320]); // one chime (two notes) for both
    view.unmount();
    render(<ArbitrageTool />);
    await screen.findByRole('list', { name: 'arbs' });
    expect(screen.getByRole('spinbutton', { name: 'Alert threshold' })).toHaveValue(0.1);
  });

  it('stay silent with the switch off', async () => {
    const user = userEvent.setup();
    answers = [feed([a]), feed([a, b])];
    render(<ArbitrageTool />);
    await screen.findByRole('list', { name: 'arbs' });
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listed()).toEqual(['bbb', 'aaa']);
    expect(notifications).toHaveLength(0);
    expect(notes).toHaveLength(0);
    expect(requestPermission).not.toHaveBeenCalled();
  });

  it('put the arb count in the title while the page is hidden', async () => {
    const user = userEvent.setup();
    document.title = 'Live Arbitrage Finder: Sure Bets Across 15 Sportsbooks | Sharpline';
    let visibility: DocumentVisibilityState = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    answers = [feed([a, b, low])];
    render(<ArbitrageTool />);
    await screen.findByRole('list', { name: 'arbs' });
    visibility = 'hidden';
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(document.title).toBe('Live Arbitrage Finder: Sure Bets Across 15 Sportsbooks | Sharpline');
    await user.click(screen.getByRole('switch', { name: 'Alerts' }));
    await waitFor(() =>
      expect(document.title).toBe('(3) Live Arbitrage Finder: Sure Bets Across 15 Sportsbooks | Sharpline'),
    );
    visibility = 'visible';
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(document.title).toBe('Live Arbitrage Finder: Sure Bets Across 15 Sportsbooks | Sharpline');
    vi.restoreAllMocks();
  });
});

describe('counts, Auto and the age of the rows (issue 34)', () => {
  it('each tab counts its rows with a guaranteed profit (issue 56), as the line beside it does; near-arbs are not counted', async () => {
    answers = [
      feed([
        game('p1', { league: 'nba', edge: 2 }),
        game('p2', { league: 'nba', edge: 0.3 }),
        game('z0', { league: 'nba', edge: 0 }),
        game('n1', { league: 'nba', edge: -0.4 }),
        game('n2', { league: 'nba', edge: -0.8 }),
        game('l1', { league: 'nhl', edge: -0.1, live: true }),
      ]),
    ];
    await openPage();
    expect(listed()).toEqual(['p1', 'p2', 'z0', 'n1', 'n2']);
    expect(tabCount(/pre-match/i)).toBe('Pre-match2 arbs');
    expect(screen.getByTestId('profit-count')).toHaveTextContent(/^2 with a guaranteed profit$/);
    expect(tabCount(/live/i)).toBe('Live0 arbs');
    await userEvent.setup().click(screen.getByRole('tab', { name: /live/i }));
    expect(screen.getByTestId('profit-count')).toHaveTextContent(/^0 with a guaranteed profit$/);
  });

  it('Auto is off on a first visit, and remembered once turned on', async () => {
    const user = userEvent.setup();
    const view = await openPage();
    const auto = screen.getByRole('switch', { name: 'Auto' });
    expect(auto).toHaveAttribute('aria-checked', 'false');
    await user.click(auto);
    expect(window.localStorage.getItem('arbAutoRefresh')).toBe('true');
    view.unmount();
    await openPage();
    expect(screen.getByRole('switch', { name: 'Auto' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('switch', { name: 'Auto' }));
    expect(window.localStorage.getItem('arbAutoRefresh')).toBe('false');
  });

  it('with Auto off, says when the rows are older than 30 s; with Auto on, says nothing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await openPage();
      expect(screen.queryByTestId('stale-note')).toBeNull();
      act(() => void vi.advanceTimersByTime(25_000));
      expect(screen.queryByTestId('stale-note')).toBeNull();
      act(() => void vi.advanceTimersByTime(10_000));
      expect(screen.getByTestId('stale-note')).toHaveTextContent(
        /^These prices are 3\d s old\. Refresh, or turn on Auto to keep them current\.$/,
      );
      act(() => screen.getByRole('switch', { name: 'Auto' }).click());
      expect(screen.queryByTestId('stale-note')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('keyboard shortcuts', () => {
  it('r refreshes, a toggles Auto, / focuses the filters; none fires while typing or with a modifier', async () => {
    const user = userEvent.setup();
    await openPage();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await user.keyboard('r');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const auto = screen.getByRole('switch', { name: 'Auto' });
    await user.keyboard('a');
    expect(auto).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('a');
    expect(auto).toHaveAttribute('aria-checked', 'false');
    await user.keyboard('/');
    const min = screen.getByRole('spinbutton', { name: 'Minimum edge' });
    // The fold opens first; the focus moves at the next animation frame.
    await waitFor(() => expect(min).toHaveFocus());
    expect(min).toHaveValue(null); // the slash was not typed
    await user.keyboard('a');
    await user.keyboard('r');
    expect(auto).toHaveAttribute('aria-checked', 'false');
    const stake = screen.getByRole('spinbutton', { name: 'Total stake' });
    await user.type(stake, 'a/');
    expect(auto).toHaveAttribute('aria-checked', 'false');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Odds format' }), 'Decimal');
    fireEvent.keyDown(screen.getByRole('combobox', { name: 'Odds format' }), { key: 'a' });
    expect(auto).toHaveAttribute('aria-checked', 'false');
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'a', ctrlKey: true });
    fireEvent.keyDown(document.body, { key: 'r', metaKey: true });
    expect(auto).toHaveAttribute('aria-checked', 'false');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('are listed in the Keyboard shortcuts popover', async () => {
    const user = userEvent.setup();
    await openPage();
    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(await within(help).findByText('Refresh now')).toBeInTheDocument();
    expect(within(help).getByText('Turn Auto on or off')).toBeInTheDocument();
    expect(within(help).getByText('Go to the filters')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Keyboard shortcuts' })).toHaveFocus();
  });
});
