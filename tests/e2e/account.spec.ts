import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../support/e2e.ts';

// The account page (issue 33, decision 156) against the real built server and its real /v1: a key made through the
// operators' loopback route (as `npm run keys` does), requests made with it, then the page shows them; rotation
// revokes the old key for the API too. DATA_DIR persists between runs: every key is new, so its counts start at 0.

const KEY = /^sl_live_[0-9A-Za-z]{32}$/;

// Each test waits for real answers from a server that may share a loaded machine: generous bounds, no timing asserted.
test.describe.configure({ timeout: 120_000 });
const STORAGE_NAME = 'sharpline.accountKey';

function dataDirOf(baseURL: string): string {
  return path.resolve(`data/e2e-${new URL(baseURL).port}`);
}

async function createKey(baseURL: string, plan: 'pro' | 'elite'): Promise<string> {
  const token = readFileSync(path.join(dataDirOf(baseURL), 'admin-token'), 'utf8').trim();
  const response = await fetch(new URL('/admin/keys', baseURL), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      plan,
      email: `e2e.account.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`,
    }),
  });
  expect(response.status).toBe(200);
  const { key } = (await response.json()) as { key: string };
  expect(key).toMatch(KEY);
  return key;
}

async function apiStatus(baseURL: string, pathname: string, key: string): Promise<number> {
  const response = await fetch(new URL(pathname, baseURL), { headers: { 'X-Api-Key': key } });
  await response.arrayBuffer();
  return response.status;
}

async function showAccount(page: Page, key: string) {
  await page.goto('/account');
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Show my account' }).click();
  await expect(page.getByRole('heading', { name: 'Requests per day' })).toBeVisible({ timeout: 60_000 });
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test('at 1280 px a customer pastes their key, sees the plan and the real day’s count, and rotates the key', async ({
  page,
  baseURL,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const key = await createKey(baseURL!, 'elite');
  // Five odds requests with the key, before the page is opened.
  for (let i = 0; i < 5; i += 1) expect(await apiStatus(baseURL!, '/v1/odds?league=nba', key)).toBe(200);

  await showAccount(page, key);
  const plan = page.getByRole('definition').filter({ hasText: 'Elite' });
  await expect(plan).toContainText('Active');
  await expect(page.getByTestId('key-prefix')).toHaveText(`${key.slice(0, 14)}…`);
  await expect(page.getByRole('definition').filter({ hasText: 'used in the current minute' })).toContainText(
    '250',
  );
  await expect(page.getByRole('definition').filter({ hasText: 'Server-sent event' })).toContainText('0 of');
  await expect(page.getByRole('definition').filter({ hasText: 'resets on' })).toContainText('10,000 left');

  // Today: the five odds requests; the page's own calls (the key check, /v1/me, /v1/me/usage) are free (issue 56).
  const chart = page.getByRole('img', { name: /Requests per day, last 30 days/ });
  const bars = chart.locator('rect');
  await expect(bars).toHaveCount(30);
  await expect(bars.last()).toHaveAttribute('data-value', '5');
  await expect(page.getByTestId('usage-total')).toHaveText('5');
  await expect(page.getByRole('listitem').filter({ hasText: /^Odds/ })).toHaveText('Odds 5');
  await expect(page.getByRole('listitem').filter({ hasText: /^Account/ })).toHaveCount(0);
  // A key the operators made has no billing portal: the page says what to do instead.
  await expect(page.getByText(/This key was made by our team/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change plan or cancel' })).toHaveCount(0);
  await page.getByText('Show the numbers for each day').click();
  await expect(page.getByRole('table').getByRole('row').nth(30)).toContainText('5');
  expect(await horizontalOverflow(page)).toBe(0);
  await page.screenshot({ path: testInfo.outputPath('account-1280.png'), fullPage: true });

  // The key is in this tab's sessionStorage only.
  expect(await page.evaluate((name) => sessionStorage.getItem(name), STORAGE_NAME)).toBe(key);
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  expect(await page.context().cookies()).toEqual([]);

  await page.getByRole('button', { name: 'Rotate key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate your API key?' });
  await expect(dialog).toContainText(key.slice(0, 14));
  await dialog.getByRole('button', { name: 'Rotate the key now' }).click();
  const notice = page.getByRole('region', { name: 'Your new API key' });
  await expect(notice).toContainText('Store it now: it will not be shown again.');
  await expect(notice).toContainText(`The old key (${key.slice(0, 14)}…) stopped working`);
  const newKey = (await notice.getByTestId('new-key').textContent())!.trim();
  expect(newKey).toMatch(KEY);
  expect(newKey).not.toBe(key);

  // The page now uses the new key; the old one is refused by the API.
  await expect(page.getByTestId('key-prefix')).toHaveText(`${newKey.slice(0, 14)}…`);
  expect(await page.evaluate((name) => sessionStorage.getItem(name), STORAGE_NAME)).toBe(newKey);
  expect(await apiStatus(baseURL!, '/v1/me', key)).toBe(401);
  expect(await apiStatus(baseURL!, '/v1/me', newKey)).toBe(200);
  await page.screenshot({ path: testInfo.outputPath('account-rotated-1280.png'), fullPage: true });

  await page.getByRole('button', { name: 'Forget this key' }).click();
  await expect(page.getByRole('heading', { name: 'Paste your API key' })).toBeVisible();
  expect(await page.evaluate((name) => sessionStorage.getItem(name), STORAGE_NAME)).toBeNull();
});

test('at 390 px the account fits the screen, the rotation dialog too, and nothing fails an accessibility check', async ({
  page,
  baseURL,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const key = await createKey(baseURL!, 'pro');
  expect(await apiStatus(baseURL!, '/v1/leagues', key)).toBe(200);
  await showAccount(page, key);
  await expect(page.getByRole('definition').filter({ hasText: 'Pro' }).first()).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: /^Events and leagues/ })).toHaveText(
    'Events and leagues 1',
  );
  expect(await horizontalOverflow(page)).toBe(0);
  await page.screenshot({ path: testInfo.outputPath('account-390.png'), fullPage: true });
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  await page.getByRole('button', { name: 'Rotate key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate your API key?' });
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath('account-dialog-390.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await apiStatus(baseURL!, '/v1/me', key)).toBe(200);
});

test('a key the server does not know is refused in words and not kept', async ({ page }) => {
  // The page checks the key with its schemas (zod, jitless): the site's CSP, which has no 'unsafe-eval', is never hit.
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/account');
  await page.getByLabel('API key', { exact: true }).fill(`sl_live_${'0'.repeat(32)}`);
  await page.getByRole('button', { name: 'Show my account' }).click();
  await expect(page.getByRole('alert')).toContainText('We do not know this key');
  expect(await page.evaluate((name) => sessionStorage.getItem(name), STORAGE_NAME)).toBeNull();
  expect(violations).toEqual([]);
});

test('the account page is linked from the API menu and the footer', async ({ page }) => {
  await page.goto('/sports-betting-api');
  await expect(
    page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Your Account' }),
  ).toHaveAttribute('href', '/account');
  // The one header's Your Account (issue 34).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Your Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account');
});
