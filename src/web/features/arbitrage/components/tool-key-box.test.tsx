// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { arb, feed, moneyline } from '#tests/support/arbitrage-fixtures.ts';
import { KEY_STORAGE_NAME } from '#web/lib/key-store.ts';
import { loadBettorExtras } from '../lib/bettor-extras.ts';
import { ArbitrageTool } from './arbitrage-tool.tsx';

// Issue 56, decision 213: the arbitrage page without a key shows the free tier and counts the arbs above its cap; a
// key pasted in the key box is kept in this tab and sent only as X-Api-Key to this site's /v1/arbs, and the page then
// shows what the key's plan gets.

const KEY = 'sl_live_abcdefghijklmnopqrstuvwxyz012345';
const small = arb('small', moneyline('small', 0.6).sides, { edge: 0.6 });
const big = arb('big', moneyline('big', 2.4).sides, { edge: 2.4 });
const books = small.sides.map((side) => side.sportsbook);

const publicFeed = {
  ...feed([small]),
  above_cap: {
    edge_pct: 1,
    arbs: [
      { live: false, books, league: 'nba', market_type: 'moneyline' },
      { live: false, books, league: 'nba', market_type: 'moneyline' },
      { live: true, books, league: 'nba', market_type: 'moneyline' },
      // Suspect (most often a bad price): counted only when the visitor shows suspect arbs.
      { live: false, books, league: 'nba', market_type: 'moneyline', suspect: true },
    ],
  },
};
const proAnswer = {
  ...feed([big, small]),
  delay_seconds: 15,
  delayed_above_edge_pct: 1,
};

let keyedStatus = 200;
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const keyed = new Headers(init?.headers).get('x-api-key');
  if (url.startsWith('/v1/')) {
    if (keyedStatus !== 200)
      return new Response(JSON.stringify({ title: 'Unknown API key', detail: 'We do not know this key.' }), {
        status: keyedStatus,
        headers: { 'content-type': 'application/problem+json' },
      });
    return new Response(JSON.stringify(proAnswer), {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '100' },
    });
  }
  expect(keyed).toBeNull();
  return new Response(JSON.stringify(publicFeed), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
});

beforeAll(() => loadBettorExtras());

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  keyedStatus = 200;
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockClear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the arbitrage page’s key box', () => {
  it('counts the arbs above the free cap under this tab (suspect ones only when shown), with a link to the plans', async () => {
    render(<ArbitrageTool />);
    expect(await screen.findByText('2 more above 1%')).toBeInTheDocument();
    expect(screen.getByTestId('free-view')).toHaveTextContent(
      '2 more above 1% edge with a plan. See the plans',
    );
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute(
      'href',
      '/sports-betting-api#plan-free',
    );
    await userEvent.setup().click(screen.getByRole('checkbox', { name: /show suspect arbs/i }));
    expect(await screen.findByText('3 more above 1%')).toBeInTheDocument();
  });

  it('sends a pasted key only as X-Api-Key to this site’s /v1/arbs, keeps it in this tab, and shows the plan’s arbs', async () => {
    const user = userEvent.setup();
    render(<ArbitrageTool />);
    await screen.findByText('2 more above 1%');
    await user.click(screen.getByRole('button', { name: 'paste your API key' }));
    await user.type(screen.getByLabelText(/API key/), ` ${KEY} `);
    await user.click(screen.getByRole('button', { name: 'Use key' }));
    await waitFor(() =>
      expect(screen.getByTestId('key-box')).toHaveTextContent(
        'With your key: arbs up to 1% edge in real time, above it 15 seconds late',
      ),
    );
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBe(KEY);
    expect(window.localStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
    const keyed = fetchMock.mock.calls.filter(([, init]) => new Headers(init?.headers).get('x-api-key'));
    expect(keyed.length).toBeGreaterThan(0);
    for (const [url, init] of keyed) {
      expect(url).toBe('/v1/arbs');
      expect(new Headers(init?.headers).get('x-api-key')).toBe(KEY);
    }
    expect(fetchMock.mock.calls.every(([url]) => !String(url).includes(KEY))).toBe(true);
    await waitFor(() =>
      expect(screen.getByTestId('profit-count')).toHaveTextContent(/^2 with a guaranteed profit$/),
    );

    await user.click(screen.getByRole('button', { name: 'Forget key' }));
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
    expect(await screen.findByText('2 more above 1%')).toBeInTheDocument();
  });

  it('marks the rows a delayed plan shows late (above the free cap) with its delay, and no row in real time', async () => {
    window.sessionStorage.setItem(KEY_STORAGE_NAME, KEY);
    render(<ArbitrageTool />);
    const badges = await screen.findAllByTestId('late-badge');
    expect(badges).toHaveLength(1);
    expect(badges[0]).toHaveTextContent(/^15 seconds late/);
    const rows = screen.getAllByRole('row').filter((row) => row.querySelector('[data-testid="late-badge"]'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('2.4');
  });

  it('forgets a key the server refuses (401) and goes back to the free view, saying why', async () => {
    keyedStatus = 401;
    window.sessionStorage.setItem(KEY_STORAGE_NAME, KEY);
    render(<ArbitrageTool />);
    expect(
      await screen.findByText(/Your key was not accepted: We do not know this key\./),
    ).toBeInTheDocument();
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
    expect(await screen.findByText('2 more above 1%')).toBeInTheDocument();
  });
});
