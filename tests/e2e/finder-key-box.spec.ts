import { expect, test, type Page, type Request } from '../support/e2e.ts';
import { E2E_REPLAY_ORIGIN } from '../support/browser.ts';
import { createE2eKey, withPastedKey } from '../support/e2e-paid-key.ts';
import { layoutShifts, recordLayoutShifts } from '../support/layout-shifts.ts';

// Issue 56, decisions 224 and 225: the positive-EV and middles pages have the arbitrage page's key box (the free view
// says what it is and links to the plans; a pasted key is sent only in X-Api-Key to this site's /v1/ev or /v1/middles;
// a refused key is forgotten with a message), and the arbitrage page marks the rows a delayed plan shows late. Against
// the real server and its simulator (EV_PUBLIC_DELAY_S=0 here, playwright.config.ts) and the replayed arbitrage feed.

const FIRST_ROWS = { timeout: 30_000 };

const PAGES = [
  {
    path: '/betting-tools/positive-ev',
    api: '/v1/ev',
    list: 'Prices with positive EV, best first',
    free: 'Free: the best 100 prices as of 2 minutes ago.',
    // Pro's 15 s, but never staler than the free pages (0 s here): real time.
    keyed: 'With your key: every positive-EV price in real time',
  },
  {
    path: '/betting-tools/middles',
    api: '/v1/middles',
    list: 'Middles, best EV first',
    free: 'Free: the best 100 middles as of 2 minutes ago.',
    keyed: 'With your key: every middle in real time',
  },
] as const;

/** Every request the page makes, to check where a key went. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

async function pasteKey(page: Page, key: string) {
  await page.getByRole('button', { name: 'paste your API key' }).click();
  await page.getByLabel(/API key \(kept in this tab only/).fill(key);
  await page.getByRole('button', { name: 'Use key' }).click();
}

for (const finder of PAGES) {
  test.describe(`${finder.path} key box`, () => {
    test.describe.configure({ timeout: 90_000 });

    test('without a key says what the free view is and links to the plans; a pasted key reads the plan’s answer, sent only in X-Api-Key', async ({
      page,
      baseURL,
    }) => {
      const requests = recordRequests(page);
      await page.goto(finder.path);
      const box = page.getByTestId('key-box');
      await expect(box).toContainText(finder.free);
      await expect(box.getByRole('link', { name: 'See the plans' })).toHaveAttribute(
        'href',
        '/sports-betting-api#plan-free',
      );
      await expect(page.getByRole('list', { name: finder.list }).getByRole('listitem').first()).toBeVisible(
        FIRST_ROWS,
      );

      const key = await createE2eKey(baseURL!, 'pro');
      await pasteKey(page, key);
      await expect(box).toContainText(finder.keyed, FIRST_ROWS);
      await expect(page.getByRole('list', { name: finder.list }).getByRole('listitem').first()).toBeVisible(
        FIRST_ROWS,
      );
      const keyed = requests.filter((request) => request.headers()['x-api-key'] === key);
      expect(keyed.length).toBeGreaterThan(0);
      for (const request of keyed) expect(new URL(request.url()).pathname).toBe(finder.api);
      expect(requests.every((request) => !request.url().includes(key))).toBe(true);
      expect(page.url()).not.toContain(key);
      expect(await page.evaluate(() => window.sessionStorage.getItem('sharpline.accountKey'))).toBe(key);

      await box.getByRole('button', { name: 'Forget key' }).click();
      await expect(box).toContainText(finder.free);
      expect(await page.evaluate(() => window.sessionStorage.getItem('sharpline.accountKey'))).toBeNull();
    });

    test('forgets a key the server refuses and says so', async ({ page }) => {
      await page.goto(finder.path);
      await expect(page.getByRole('button', { name: 'paste your API key' })).toBeEnabled();
      await pasteKey(page, `sl_live_${'x'.repeat(32)}`);
      await expect(page.getByRole('alert').filter({ hasText: 'Your key was not accepted' })).toBeVisible(
        FIRST_ROWS,
      );
      await expect(page.getByTestId('key-box')).toContainText(finder.free);
      expect(await page.evaluate(() => window.sessionStorage.getItem('sharpline.accountKey'))).toBeNull();
    });

    test('with a key, at 390 px, nothing on screen moves when the plan’s answer comes', async ({
      page,
      baseURL,
    }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await withPastedKey(page, baseURL!, 'pro');
      await recordLayoutShifts(page);
      await page.goto(finder.path);
      await expect(page.getByTestId('key-box')).toContainText(finder.keyed, FIRST_ROWS);
      await expect(page.getByRole('list', { name: finder.list }).getByRole('listitem').first()).toBeVisible(
        FIRST_ROWS,
      );
      expect(await layoutShifts(page)).toEqual([]);
    });
  });
}

test.describe('arbitrage page with a delayed plan’s key', () => {
  test.use({ baseURL: E2E_REPLAY_ORIGIN });
  test.describe.configure({ timeout: 90_000 });

  test('marks the rows above the free cap “15 seconds late” and leaves the rows in real time unmarked', async ({
    page,
  }) => {
    await withPastedKey(page, E2E_REPLAY_ORIGIN, 'pro');
    await page.goto('/betting-tools/arbitrage');
    await expect(page.getByTestId('key-box')).toContainText(
      'With your key: arbs up to 1% edge in real time, above it 15 seconds late',
      FIRST_ROWS,
    );
    // Celtics @ Lakers (2.51 %) comes from Pro's horizon, 15 s ago, once the server has run that long.
    const lakers = page.getByRole('row').filter({ hasText: /BOS @ LAL/ });
    await expect(lakers.getByTestId('late-badge')).toHaveText(/^15 seconds late/, FIRST_ROWS);
    // The near-arb (Chiefs @ Bills, −0.49 %) is in the free part: real time, no mark.
    const bills = page.getByRole('row').filter({ hasText: /KC @ BUF/ });
    await expect(bills).toBeVisible();
    await expect(bills.getByTestId('late-badge')).toHaveCount(0);
    // Every marked row is above the cap, every row above the cap is marked (read at one instant: rows come and go).
    const rows = page.getByRole('row').filter({ has: page.getByText(/^Edge /) });
    const seen = await rows.evaluateAll((elements) =>
      elements.map((row) => ({
        edge: Number.parseFloat(
          (row.querySelector('[data-tone]')?.textContent ?? '').replace(/[^\d.-]/g, ''),
        ),
        late: row.querySelector('[data-testid="late-badge"]') !== null,
      })),
    );
    expect(seen.length).toBeGreaterThan(1);
    for (const row of seen) expect(row.late, `edge ${row.edge}`).toBe(row.edge > 1);
  });
});
