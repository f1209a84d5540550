// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EV_EXAMPLE, MIDDLES_EXAMPLE } from '#domain/schemas/api/examples.ts';
import { evAnswerAsFeed } from '#web/features/positive-ev/api/get-ev.ts';
import { middlesAnswerAsFeed } from '#web/features/middles/api/get-middles.ts';
import { MiddlesTool } from '#web/features/middles/components/middles-tool.tsx';
import { PositiveEvTool } from '#web/features/positive-ev/components/positive-ev-tool.tsx';
import { KEY_STORAGE_NAME } from '#web/lib/key-store.ts';

// Decision 224: the positive-EV and middles pages have the arbitrage page's key box. Without a key they show the free
// view and say what it is, with a link to the plans; a key pasted there is kept in this tab and sent only in
// X-Api-Key to this site's /v1/ev or /v1/middles, and the page then shows what the key's plan gets; a key the server
// refuses (401) is forgotten, with a message.

const KEY = 'sl_live_abcdefghijklmnopqrstuvwxyz012345';
const ALL_BOOKS = new Set(['betmgm', 'fanduel', 'draftkings', 'caesars']);

/** The public feeds: the example rows, 2 minutes old; the paid answers: Pro's 15 s (EV) and real time (middles). */
const publicEv = { ...evAnswerAsFeed(EV_EXAMPLE as never), delay_seconds: 120 };
const publicMiddles = { ...middlesAnswerAsFeed(MIDDLES_EXAMPLE as never), delay_seconds: 120 };
const keyedEv = { ...EV_EXAMPLE, delay_seconds: 15 };
const keyedMiddles = MIDDLES_EXAMPLE;

let keyedStatus = 200;
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const key = new Headers(init?.headers).get('x-api-key');
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  if (url.startsWith('/v1/')) {
    expect(key).toBe(KEY);
    if (keyedStatus !== 200)
      return json({ title: 'Unknown API key', detail: 'We do not know this key.' }, keyedStatus);
    return json(url.startsWith('/v1/ev') ? keyedEv : keyedMiddles);
  }
  expect(key).toBeNull();
  return json(url.includes('/tools/ev.json') ? publicEv : publicMiddles);
});

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
  keyedStatus = 200;
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockClear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderEv = () =>
  render(
    <MemoryRouter>
      <PositiveEvTool books={ALL_BOOKS} booksControl={null} states={{}} />
    </MemoryRouter>,
  );
const renderMiddles = () =>
  render(
    <MemoryRouter>
      <MiddlesTool
        books={ALL_BOOKS}
        booksControl={null}
        states={{}}
        storedFormat="american"
        onFormatChange={() => undefined}
      />
    </MemoryRouter>,
  );

async function pasteKey() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'paste your API key' }));
  await user.type(screen.getByLabelText(/API key/), ` ${KEY} `);
  await user.click(screen.getByRole('button', { name: 'Use key' }));
  return user;
}

describe('the positive-EV page’s key box', () => {
  it('says what the free view is, from the free row, with a link to the plans', async () => {
    renderEv();
    expect(screen.getByTestId('free-view')).toHaveTextContent(
      'Free: the best 100 prices as of 2 minutes ago. See the plans',
    );
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute(
      'href',
      '/sports-betting-api#plan-free',
    );
    expect(await screen.findByText('Los Angeles Lakers')).toBeInTheDocument();
  });

  it('sends a pasted key only as X-Api-Key to /v1/ev, keeps it in this tab, and shows the plan’s prices', async () => {
    renderEv();
    await screen.findByText('Los Angeles Lakers');
    const user = await pasteKey();
    expect(
      await screen.findByText('every positive-EV price as of 15 seconds ago', { exact: false }),
    ).toBeInTheDocument();
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBe(KEY);
    const keyed = fetchMock.mock.calls.filter(([, init]) => new Headers(init?.headers).get('x-api-key'));
    expect(keyed.map(([url]) => url)).toContain('/v1/ev?limit=1000');
    expect(fetchMock.mock.calls.every(([url]) => !String(url).includes(KEY))).toBe(true);
    // The plan's answer drawn by the page's rows: its full-precision EV (5.75 %) to one decimal.
    expect(await screen.findByText('+5.7%')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Forget key' }));
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
    expect(await screen.findByTestId('free-view')).toBeInTheDocument();
  });

  it('forgets a key the server refuses (401) and goes back to the free view, saying why', async () => {
    keyedStatus = 401;
    window.sessionStorage.setItem(KEY_STORAGE_NAME, KEY);
    renderEv();
    expect(
      await screen.findByText(/Your key was not accepted: We do not know this key\./),
    ).toBeInTheDocument();
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
    expect(screen.getByTestId('free-view')).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/tools/ev.json'))).toBe(true),
    );
  });
});

describe('the middles page’s key box', () => {
  it('says what the free view is, then with a pasted key reads /v1/middles and says the plan’s view', async () => {
    renderMiddles();
    expect(screen.getByTestId('free-view')).toHaveTextContent(
      'Free: the best 100 middles as of 2 minutes ago. See the plans',
    );
    await pasteKey();
    expect(await screen.findByText('every middle in real time', { exact: false })).toBeInTheDocument();
    const keyed = fetchMock.mock.calls.filter(([, init]) => new Headers(init?.headers).get('x-api-key'));
    expect(keyed.map(([url]) => url)).toContain('/v1/middles?limit=1000');
  });

  it('forgets a refused key with a message', async () => {
    keyedStatus = 401;
    window.sessionStorage.setItem(KEY_STORAGE_NAME, KEY);
    renderMiddles();
    expect(await screen.findByText(/Your key was not accepted/)).toBeInTheDocument();
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
  });
});
