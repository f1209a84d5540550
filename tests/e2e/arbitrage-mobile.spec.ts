import AxeBuilder from '@axe-core/playwright';
import { devices, expect, test } from '../support/e2e.ts';
import { E2E_REPLAY_ORIGIN } from '../support/browser.ts';
import { withPastedKey } from '../support/e2e-paid-key.ts';
import { layoutShifts, recordLayoutShifts } from '../support/layout-shifts.ts';

// The arbitrage page on a 360 px phone (touch, mobile user agent) against the replayed feed on port 3101.
const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 5'];
test.use({ ...pixel, viewport: { width: 360, height: 780 }, baseURL: E2E_REPLAY_ORIGIN });

test('on a phone the bet buttons use the mobile links, sides stack and nothing overflows', async ({
  page,
}) => {
  // As a customer: every arb of the fixture (the free view shows only its near-arb; issue 56).
  await withPastedKey(page, E2E_REPLAY_ORIGIN);
  await page.goto('/betting-tools/arbitrage');
  await expect(page.getByRole('table')).toBeVisible();
  await expect(page.getByRole('link', { name: /bet at fanduel/i })).toHaveAttribute(
    'href',
    /^fanduelsportsbook:\/\/launch\?deepLink=/,
  );
  await expect(page.getByRole('link', { name: /bet at draftkings/i })).toHaveAttribute(
    'href',
    'dksb://sb/addbet/0QA12',
  );
  await expect(page.getByRole('combobox', { name: 'FanDuel state' })).toHaveCount(0);
  const stake = page.getByRole('spinbutton', { name: /stake on boston celtics/i });
  await stake.scrollIntoViewIfNeeded();
  await expect(stake).toBeInViewport();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);

  // BetMGM has no mobile link here: the desktop link is used and the state selector is shown.
  await page.getByRole('tab', { name: /live/i }).click();
  await expect(page.getByRole('combobox', { name: 'BetMGM state' })).toBeVisible();
  await page.getByRole('combobox', { name: 'BetMGM state' }).selectOption('mi');
  await expect(page.getByRole('link', { name: /bet at betmgm/i })).toHaveAttribute(
    'href',
    /^https:\/\/sports\.mi\.betmgm\.com\//,
  );
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
  expect((await new AxeBuilder({ page }).withTags(tags).analyze()).violations).toEqual([]);
});

// Issue 34: on a 390 × 844 phone the filters and settings fold under one button, so the first arb is on the first
// screen; the button unfolds them.
test.describe('on a 390 × 844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  // Decision 175: what the first data brings above the rows (the update time, the profit count, the tabs' counts)
  // has its space in the prerendered page, so nothing on screen moves when the rows come.
  test('the first data shifts nothing on screen: no layout shift from the first paint to the rows', async ({
    page,
  }) => {
    await recordLayoutShifts(page);
    await page.goto('/betting-tools/arbitrage');
    await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByTestId('profit-count')).toHaveText(/^\d+ with a guaranteed profit$/);
    expect(await layoutShifts(page)).toEqual([]);
  });

  test('the first arb is on the first screen; "Filters and settings" unfolds the toolbar', async ({
    page,
  }) => {
    // As a customer: the free view of the fixture has no arb with a guaranteed profit (issue 56).
    await withPastedKey(page, E2E_REPLAY_ORIGIN);
    await page.goto('/betting-tools/arbitrage');
    const firstRow = page.getByRole('table').getByRole('row').nth(1);
    await expect(firstRow).toBeVisible();
    // The row's edge and its first bet button are on screen without scrolling.
    await expect(firstRow.getByText(/^Edge -?\d+\.\d\d%$/).first()).toBeInViewport({ ratio: 1 });
    await expect(firstRow.getByRole('link', { name: /^bet at /i }).first()).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    const minEdge = page.getByRole('spinbutton', { name: 'Minimum edge' });
    await expect(minEdge).toBeHidden();
    const fold = page.getByRole('button', { name: 'Filters and settings' });
    await expect(fold).toHaveAttribute('aria-expanded', 'false');
    await fold.click();
    await expect(fold).toHaveAttribute('aria-expanded', 'true');
    await expect(minEdge).toBeVisible();
    await expect(page.getByRole('spinbutton', { name: 'Alert threshold' })).toBeVisible();
    await fold.click();
    await expect(minEdge).toBeHidden();
  });
});
