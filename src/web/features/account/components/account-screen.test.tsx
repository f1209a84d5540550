// @vitest-environment jsdom
import { cleanup, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USAGE_FAMILIES, type UsageFamily } from '#domain/usage.ts';
import { AccountRequestError, type AccountApi } from '../api/account-api.ts';
import type { MeResponse, RotationResponse, UsageResponse } from '#domain/schemas/api/account.ts';
import { KEY_STORAGE_NAME } from '#web/lib/key-store.ts';
import { AccountScreen } from './account-screen.tsx';

const KEY = 'sl_live_AbCdEf0123456789AbCdEf0123456789';
const NEW_KEY = 'sl_live_ZyXwVu9876543210ZyXwVu9876543210';

function account(overrides: Partial<MeResponse> = {}): MeResponse {
  return {
    key: {
      prefix: 'sl_live_AbCdEf',
      kind: 'paid',
      created_at: '2026-10-01T12:00:00.000Z',
      expires_at: null,
    },
    plan: { id: 'elite', name: 'Elite', real_time: true, delay_seconds: 0 },
    limits: { requests_per_minute: 250, stream_connections: 5 },
    usage: { used: 3, remaining: 247, resets_in_seconds: 41 },
    features: ['closing-lines', 'same-game-parlays'],
    sgp_credits: { limit: 10_000, used: 1_234, remaining: 8_766, resets_at: '2026-12-01T00:00:00.000Z' },
    subscription: { status: 'active', renews_at: '2026-12-15T12:00:00.000Z', cancel_at_period_end: false },
    streams: { open: 1, limit: 5 },
    ...overrides,
  };
}

const NO_REQUESTS = Object.fromEntries(USAGE_FAMILIES.map((family) => [family, 0])) as Record<
  UsageFamily,
  number
>;

/** 30 days ending 2026-11-27, every day present; the counts are the day of the month × 10, the 20th 0. */
function usage(): UsageResponse {
  const days = Array.from({ length: 30 }, (_, index) => {
    const date = new Date(Date.UTC(2026, 9, 29 + index)).toISOString().slice(0, 10);
    const day = Number(date.slice(8));
    const requests = day === 20 ? 0 : day * 10;
    return {
      date,
      requests,
      by_family: {
        ...NO_REQUESTS,
        odds: requests - Math.min(requests, 2),
        account: Math.min(requests, 2),
      },
      stream_minutes: day === 27 ? 15 : 0,
      sgp_credits: day === 26 ? 4 : 0,
    };
  });
  return { from: days[0]!.date, to: days.at(-1)!.date, retention_days: 90, days };
}

const TOTAL = usage().days.reduce((sum, day) => sum + day.requests, 0);

interface Calls {
  account: string[];
  usage: string[];
  rotate: string[];
  portal: string[];
}

const PORTAL_URL = 'https://billing.stripe.com/p/session/test_bps_1';

function fakeApi(overrides: Partial<AccountApi> = {}): AccountApi & { calls: Calls } {
  const calls: Calls = { account: [], usage: [], rotate: [], portal: [] };
  return {
    calls,
    fetchAccount: async (key) => {
      calls.account.push(key);
      return account();
    },
    fetchUsage: async (key) => {
      calls.usage.push(key);
      return usage();
    },
    rotateKey: async (key) => {
      calls.rotate.push(key);
      return {
        key: NEW_KEY,
        prefix: 'sl_live_ZyXwVu',
        old_prefix: 'sl_live_AbCdEf',
        rotated_at: '2026-11-27T10:00:00.000Z',
      } satisfies RotationResponse;
    },
    openPortal: async (key) => {
      calls.portal.push(key);
      return { url: PORTAL_URL, opened_at: '2026-11-27T10:00:00.000Z' };
    },
    ...overrides,
  };
}

const problem = (
  kind: ConstructorParameters<typeof AccountRequestError>[0],
  status: number | undefined,
  code?: string,
  detail?: string,
  retry?: number,
) => new AccountRequestError(kind, status, code, detail, retry);

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

async function pasteKey(key = KEY) {
  const user = userEvent.setup();
  await user.click(screen.getByLabelText('API key'));
  await user.paste(key);
  await user.click(screen.getByRole('button', { name: 'Show my account' }));
  return user;
}

// Waits for the page's answers up to 10 s: a loaded machine renders the first screen slowly (no assertion on speed).
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
});
afterEach(cleanup);

describe('AccountScreen without a key', () => {
  it('asks for the key, and keeps it only in sessionStorage once /v1/me accepts it', async () => {
    const checking = deferred<MeResponse>();
    const api = fakeApi({ fetchAccount: () => checking.promise });
    render(<AccountScreen api={api} />);
    expect(screen.getByRole('heading', { name: 'Paste your API key' })).toBeInTheDocument();
    expect(screen.getByLabelText('API key')).toHaveAttribute('type', 'password');
    await pasteKey(`  ${KEY}\n`);
    expect(screen.getByRole('button', { name: 'Checking…' })).toBeDisabled();
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
    checking.resolve(account());
    await screen.findByRole('heading', { name: 'Requests per day' });
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBe(KEY);
    expect(window.localStorage.length).toBe(0);
    expect(document.cookie).toBe('');
  });

  it('refuses an unknown key in words, keeps the text to correct, and stores nothing', async () => {
    const api = fakeApi({
      fetchAccount: async () => {
        throw problem('unauthorized', 401, 'api-key-unknown');
      },
    });
    render(<AccountScreen api={api} />);
    await pasteKey();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We do not know this key');
    expect(alert).toHaveTextContent('Check that you pasted the whole key');
    expect(screen.getByLabelText('API key')).toHaveValue(KEY);
    expect(screen.getByLabelText('API key')).toHaveAttribute('aria-invalid', 'true');
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
  });

  it('says a 429 in words with the time to wait', async () => {
    const api = fakeApi({
      fetchAccount: async () => {
        throw problem(
          'rate-limited',
          429,
          'rate-limited',
          'The Pro plan allows 100 requests per minute.',
          42,
        );
      },
    });
    render(<AccountScreen api={api} />);
    await pasteKey();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "Too many requestsThis page asked the server too often for this key this minute (its calls do not use your plan's requests). Try again in 42 seconds.",
    );
  });

  it('says a network failure in words', async () => {
    const api = fakeApi({
      fetchAccount: async () => {
        throw problem('network', undefined);
      },
    });
    render(<AccountScreen api={api} />);
    await pasteKey();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not reach the serverCheck your connection and try again.',
    );
  });
});

describe('AccountScreen with a key', () => {
  beforeEach(() => window.sessionStorage.setItem(KEY_STORAGE_NAME, KEY));

  it('says it is loading, then shows plan, status, renewal, prefix, limits, streams and credits', async () => {
    const answer = deferred<MeResponse>();
    const api = fakeApi();
    api.fetchAccount = (key) => {
      api.calls.account.push(key);
      return answer.promise;
    };
    render(<AccountScreen api={api} />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading your account…');
    answer.resolve(account());
    const plan = (await screen.findByText('Plan')).closest('div')!;
    expect(plan).toHaveTextContent('Elite');
    expect(within(plan).getByTestId('key-status')).toHaveTextContent('Active');
    expect(plan).toHaveTextContent('Renews on December 15, 2026');
    const perMinute = screen.getByText('Requests per minute').closest('div')!;
    expect(perMinute).toHaveTextContent('2503 used in the current minute, 247 left');
    const streams = screen.getByText('Streams open').closest('div')!;
    expect(streams).toHaveTextContent('1 of 5');
    const credits = screen.getByText('SGP credits this month').closest('div')!;
    expect(credits).toHaveTextContent('8,766 left');
    expect(credits).toHaveTextContent('1,234 of 10,000 used; resets on December 1, 2026 (UTC)');
    expect(screen.getByTestId('key-prefix')).toHaveTextContent('sl_live_AbCdEf…');
    expect(screen.getByRole('link', { name: 'API documentation' })).toHaveAttribute('href', '/docs');
    expect(screen.getByRole('link', { name: 'Compare the plans' })).toHaveAttribute(
      'href',
      '/sports-betting-api#plan-enterprise',
    );
    expect(screen.getByRole('button', { name: 'Change plan or cancel' })).toBeEnabled();
    expect(screen.queryByRole('link', { name: /Manage Subscription/ })).toBeNull();
    expect(api.calls.account).toEqual([KEY]);
    expect(api.calls.usage).toEqual([KEY]);
    expect(api.calls.portal).toEqual([]);
  });

  it('draws one bar per day with its count, a visible total and a table of the same numbers', async () => {
    render(<AccountScreen api={fakeApi()} />);
    await screen.findByRole('heading', { name: 'Requests per day' });
    expect(screen.getByTestId('usage-total')).toHaveTextContent(TOTAL.toLocaleString('en-US'));
    const chart = screen.getByRole('img', { name: /Requests per day, last 30 days/ });
    expect(chart).toHaveAccessibleName(
      `Requests per day, last 30 days ${TOTAL.toLocaleString('en-US')} requests from Oct 29 to November 27, 2026; the busiest day was Oct 31 with 310.`,
    );
    const bars = [...chart.querySelectorAll('rect')];
    expect(bars.map((bar) => Number(bar.dataset.value))).toEqual(usage().days.map((day) => day.requests));
    // The scale tops at 500 (the busiest day, 310, rounded up to 1, 2 or 5 × 10ⁿ): 310 is 62 % of the height.
    const tallest = bars.find((bar) => bar.dataset.date === '2026-10-31')!;
    expect(Number(tallest.getAttribute('height'))).toBeCloseTo(62);
    expect(bars.find((bar) => bar.dataset.date === '2026-11-20')!.getAttribute('height')).toBe('0');

    await userEvent.setup().click(screen.getByText('Show the numbers for each day'));
    const table = screen.getByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(1 + 30 + 1);
    expect(rows[1]).toHaveTextContent('Oct 29290');
    expect(
      within(rows[30]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['270', '15', '0']);
    expect(rows[31]).toHaveTextContent(`Total${TOTAL.toLocaleString('en-US')}154`);
    expect(screen.getByText('Odds').closest('li')).toHaveTextContent(
      `Odds ${(TOTAL - 29 * 2).toLocaleString('en-US')}`,
    );
  });

  it('says the usage chart is not available when the server answers 404, and still shows the account', async () => {
    const api = fakeApi({
      fetchUsage: async () => {
        throw problem('not-available', 404, 'not-found');
      },
    });
    render(<AccountScreen api={api} />);
    expect(await screen.findByText('Daily usage is not available on this server')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Requests per day/ })).toBeNull();
    expect(screen.getByText('Requests per minute')).toBeInTheDocument();
  });

  it('forgets a key the server refuses (401 revoked) and says why', async () => {
    const api = fakeApi({
      fetchAccount: async () => {
        throw problem('unauthorized', 401, 'api-key-revoked');
      },
    });
    render(<AccountScreen api={api} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This key has been revoked');
    expect(screen.getByRole('heading', { name: 'Paste your API key' })).toBeInTheDocument();
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
  });

  it('keeps the key through a 429 and loads again on "Try again"', async () => {
    let refuse = true;
    const api = fakeApi({
      fetchAccount: async () => {
        if (refuse) throw problem('rate-limited', 429, 'rate-limited', undefined, 7);
        return account();
      },
    });
    render(<AccountScreen api={api} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again in 7 seconds.');
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBe(KEY);
    refuse = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Requests per minute')).toBeInTheDocument();
  });

  it('says a 403 in the server’s words', async () => {
    const api = fakeApi({
      fetchAccount: async () => {
        throw problem('forbidden', 403, 'forbidden', 'This key may not read its account.');
      },
    });
    render(<AccountScreen api={api} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This key may not do thatThis key may not read its account.',
    );
  });

  it('shows a trial key’s expiry and offers its plan’s checkout', async () => {
    const api = fakeApi({
      fetchAccount: async () =>
        account({
          key: {
            prefix: 'sl_trial_AbCdEf',
            kind: 'trial',
            created_at: '2026-11-25T12:00:00.000Z',
            expires_at: '2026-12-02T12:00:00.000Z',
          },
          plan: { id: 'pro', name: 'Pro', real_time: false, delay_seconds: 15 },
          sgp_credits: { limit: 0, used: 0, remaining: 0, resets_at: '2026-12-01T00:00:00.000Z' },
          subscription: null,
        }),
    });
    render(<AccountScreen api={api} />);
    const plan = (await screen.findByText('Plan')).closest('div')!;
    expect(within(plan).getByTestId('key-status')).toHaveTextContent('Free trial');
    expect(plan).toHaveTextContent(/Expires on December 2, 2026 at \d/);
    expect(plan).toHaveTextContent('Odds delayed up to 15 seconds');
    expect(screen.getByText('SGP credits this month').closest('div')).toHaveTextContent(
      'Same-game-parlay pricing is not in the Pro plan (from Elite).',
    );
    const subscribe = screen.getByRole('button', { name: 'Subscribe to Pro' });
    const form = subscribe.closest('form')!;
    expect(form).toHaveAttribute('action', '/api/checkout');
    expect(form).toHaveAttribute('method', 'post');
    expect(new FormData(form).get('plan')).toBe('pro');
    // A trial has no subscription to change or cancel: no portal button, and the page says so.
    expect(screen.queryByRole('button', { name: 'Change plan or cancel' })).toBeNull();
    expect(screen.getByText(/A free trial has no subscription to change or cancel/)).toBeInTheDocument();
  });

  it('"Change plan or cancel" posts the key (never in a URL) and goes to the billing portal the server names', async () => {
    const api = fakeApi();
    const visited: string[] = [];
    render(<AccountScreen api={api} navigate={(url) => visited.push(url)} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change plan or cancel' }));
    await waitFor(() => expect(visited).toEqual([PORTAL_URL]));
    expect(api.calls.portal).toEqual([KEY]);
    expect(screen.getByRole('button', { name: 'Opening the billing portal…' })).toBeDisabled();
  });

  it('says why the billing portal did not open (409 in the server’s words, 503), and keeps the key', async () => {
    const detail =
      'This key was made by the operators, not bought through Stripe: ask them to change its plan.';
    const failures = [
      problem('conflict', 409, 'no-subscription', detail),
      problem('server', 503, 'stripe-unavailable', 'Stripe did not open the billing portal.'),
    ];
    const api = fakeApi({
      openPortal: async () => {
        throw failures.shift()!;
      },
    });
    const visited: string[] = [];
    render(<AccountScreen api={api} navigate={(url) => visited.push(url)} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change plan or cancel' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `This key has no subscription to manage${detail}`,
    );
    await user.click(screen.getByRole('button', { name: 'Change plan or cancel' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'The billing portal is unavailable right nowStripe did not open it, and nothing was changed. Try again in a minute.',
      ),
    );
    expect(visited).toEqual([]);
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBe(KEY);
  });

  it('shows a key the operators made no portal, and says how to change its plan', async () => {
    const api = fakeApi({ fetchAccount: async () => account({ subscription: null }) });
    render(<AccountScreen api={api} />);
    expect(await screen.findByText(/This key was made by our team/)).toHaveTextContent(
      'To change its plan, write to support@sharpline.io.',
    );
    expect(screen.queryByRole('button', { name: 'Change plan or cancel' })).toBeNull();
  });

  it('says a Starter key’s delay as the pricing page’s card does: 2 minutes, not 120 seconds', async () => {
    const api = fakeApi({
      fetchAccount: async () =>
        account({ plan: { id: 'starter', name: 'Starter', real_time: false, delay_seconds: 120 } }),
    });
    render(<AccountScreen api={api} />);
    const plan = (await screen.findByText('Plan')).closest('div')!;
    expect(plan).toHaveTextContent('Odds delayed up to 2 minutes');
    expect(plan).not.toHaveTextContent('120 seconds');
  });

  it('says when a cancelled subscription ends', async () => {
    const api = fakeApi({
      fetchAccount: async () =>
        account({
          subscription: {
            status: 'active',
            renews_at: '2026-12-15T12:00:00.000Z',
            cancel_at_period_end: true,
          },
        }),
    });
    render(<AccountScreen api={api} />);
    const plan = (await screen.findByText('Plan')).closest('div')!;
    expect(within(plan).getByTestId('key-status')).toHaveTextContent('Active, cancelled at period end');
    expect(plan).toHaveTextContent('Ends on December 15, 2026; it will not renew');
  });

  it('"Forget this key" clears it from sessionStorage and shows the form', async () => {
    render(<AccountScreen api={fakeApi()} />);
    await screen.findByText('Requests per minute');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Forget this key' }));
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Key forgotten');
    expect(screen.getByRole('heading', { name: 'Paste your API key' })).toBeInTheDocument();
  });
});

describe('AccountScreen rotating the key', () => {
  beforeEach(() => window.sessionStorage.setItem(KEY_STORAGE_NAME, KEY));

  it('asks first, then shows the new key once with a copy button, and uses it from then on', async () => {
    const api = fakeApi();
    render(<AccountScreen api={api} />);
    await screen.findByText('Requests per minute');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Rotate key' }));
    const dialog = screen.getByRole('dialog', { name: 'Rotate your API key?' });
    expect(dialog).toHaveTextContent('The key starting with sl_live_AbCdEf stops working at once');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls.rotate).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Rotate key' }));
    await user.click(screen.getByRole('button', { name: 'Rotate the key now' }));
    const notice = await screen.findByRole('region', { name: 'Your new API key' });
    expect(api.calls.rotate).toEqual([KEY]);
    expect(within(notice).getByTestId('new-key')).toHaveTextContent(NEW_KEY);
    expect(notice).toHaveTextContent(
      'Store it now: it will not be shown again. The old key (sl_live_AbCdEf…) stopped working',
    );
    expect(screen.getByRole('heading', { name: 'Your new API key' })).toHaveFocus();
    await user.click(within(notice).getByRole('button', { name: 'Copy key' }));
    expect(await navigator.clipboard.readText()).toBe(NEW_KEY);
    expect(within(notice).getByRole('status')).toHaveTextContent('The key is on your clipboard.');

    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBe(NEW_KEY);
    await waitFor(() => expect(api.calls.account).toEqual([KEY, NEW_KEY]));
    expect(api.calls.usage).toEqual([KEY, NEW_KEY]);

    await user.click(within(notice).getByRole('button', { name: 'I have stored it' }));
    expect(screen.queryByText(NEW_KEY)).toBeNull();
  });

  it('says in the dialog when rotation is refused as too frequent (429), and keeps the key', async () => {
    const api = fakeApi({
      rotateKey: async () => {
        throw problem('rate-limited', 429, 'rotation-rate-limited', 'Rotated too often.', 1800);
      },
    });
    render(<AccountScreen api={api} />);
    await screen.findByText('Requests per minute');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Rotate key' }));
    await user.click(screen.getByRole('button', { name: 'Rotate the key now' }));
    const dialog = screen.getByRole('dialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This key was rotated recentlyA key can be rotated only a few times an hour, and your key was not changed. Try again in 30 minutes.',
    );
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBe(KEY);
  });

  it('says rotation is not available when the server answers 404', async () => {
    const api = fakeApi({
      rotateKey: async () => {
        throw problem('not-available', 404, 'not-found');
      },
    });
    render(<AccountScreen api={api} />);
    await screen.findByText('Requests per minute');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Rotate key' }));
    await user.click(screen.getByRole('button', { name: 'Rotate the key now' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent(
      'Key rotation is not available on this server',
    );
    expect(window.sessionStorage.getItem(KEY_STORAGE_NAME)).toBe(KEY);
  });

  it('says in the dialog when the key was already replaced (409), in the server’s words', async () => {
    const api = fakeApi({
      rotateKey: async () => {
        throw problem('conflict', 409, 'key-replaced', 'A newer key replaced this one: use that key.');
      },
    });
    render(<AccountScreen api={api} />);
    await screen.findByText('Requests per minute');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Rotate key' }));
    await user.click(screen.getByRole('button', { name: 'Rotate the key now' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent(
      'This key was already replacedA newer key replaced this one: use that key.',
    );
  });
});
