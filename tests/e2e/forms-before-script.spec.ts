import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test as base, type Page, type Request } from '@playwright/test';
import { waitForHydration } from '../support/e2e.ts';
import { emailsTo } from '../support/outbox-files.ts';

// Every form works before its page's script has run and never puts a secret in a URL (issue 55, decision 208): a
// visitor on a slow phone types and presses Submit before hydration; one has JavaScript off; one gets the scripts a
// few seconds late. Playwright's own `test` here: its `goto` returns at the load event, not after hydration.

const test = base;
test.describe.configure({ timeout: 120_000 });

const dataDirOf = (baseURL: string) => path.resolve(`data/e2e-${new URL(baseURL).port}`);
const uniqueAddress = (what: string) =>
  `e2e.${what}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/** Every request the page makes, to check that nothing typed ever went out in a URL. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

function expectInNoUrl(requests: Request[], page: Page, ...secrets: string[]) {
  for (const secret of secrets) {
    const encoded = encodeURIComponent(secret);
    for (const request of requests) {
      expect(request.url()).not.toContain(secret);
      expect(request.url()).not.toContain(encoded);
      expect(request.headers().referer ?? '').not.toContain(encoded);
    }
    expect(page.url()).not.toContain(encoded);
  }
  for (const request of requests) {
    if (request.isNavigationRequest() && request.url().includes('/api/'))
      expect(request.method()).toBe('POST');
  }
}

/** The page's scripts held back `ms` each, as on a slow phone (the HTML and its styles come at once). */
async function delayScripts(page: Page, ms: number) {
  await page.route(/\.js(\?|$)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

async function createKey(baseURL: string): Promise<string> {
  const token = readFileSync(path.join(dataDirOf(baseURL), 'admin-token'), 'utf8').trim();
  const response = await fetch(new URL('/admin/keys', baseURL), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'pro', email: uniqueAddress('account') }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { key: string }).key;
}

test('typed at once after navigation, the trial form keeps every field through hydration and sends them', async ({
  page,
  baseURL,
}) => {
  const address = uniqueAddress('early');
  const requests = recordRequests(page);
  await page.goto('/', { waitUntil: 'commit' });
  // No wait for hydration: the fields are filled as soon as the HTML has them.
  await page.getByLabel('Full Name').fill('Early Typist');
  await page.getByLabel('Email').fill(address);
  await waitForHydration(page);
  // A later field typed after the script arrived must not blank the earlier ones.
  await page.getByLabel('Company').pressSequentially('Fast Fingers');
  await expect(page.getByLabel('Full Name')).toHaveValue('Early Typist');
  await expect(page.getByLabel('Email')).toHaveValue(address);
  await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
  await expect(page.getByRole('status')).toContainText(
    'Check your email. We have sent your trial key to this address, or, if this address has already had its free trial, an email explaining why no new key was sent.',
  );
  await expect.poll(() => emailsTo(dataDirOf(baseURL!), address).length, { timeout: 30_000 }).toBe(1);
  expectInNoUrl(requests, page, address, 'Early Typist');
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the trial form posts, the page says the key was sent, and the key arrives', async ({
    page,
    baseURL,
  }) => {
    const address = uniqueAddress('nojs');
    const requests = recordRequests(page);
    await page.goto('/');
    await page.getByLabel('Full Name').fill('No Script');
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
    await page.waitForURL('**/?trial=sent#trial-sent');
    await expect(page.locator('#trial-sent')).toBeVisible();
    await expect(page.locator('#trial-sent')).toHaveText(
      'Check your email. We have sent your trial key to this address, or, if this address has already had its free trial, an email explaining why no new key was sent.',
    );
    await expect(page.locator('#trial-failed')).toBeHidden();
    await expect.poll(() => emailsTo(dataDirOf(baseURL!), address).length, { timeout: 30_000 }).toBe(1);
    expectInNoUrl(requests, page, address, 'No Script');
  });

  test('an address the browser cannot accept is stopped by the browser, sending nothing', async ({
    page,
  }) => {
    const requests = recordRequests(page);
    await page.goto('/');
    await page.getByLabel('Full Name').fill('No Script');
    await page.getByLabel('Email').fill('not an address');
    await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
    expect(await page.getByLabel('Email').evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(
      false,
    );
    expect(requests.filter((request) => request.method() === 'POST')).toHaveLength(0);
  });

  test('"Lost your key?" posts and the pricing page says what happens next', async ({ page }) => {
    const address = uniqueAddress('lost');
    const requests = recordRequests(page);
    await page.goto('/sports-betting-api');
    const form = page.getByRole('form', { name: 'Lost your key?' });
    await form.getByLabel('Subscription email').fill(address);
    await form.getByRole('button', { name: 'Email me a new key' }).click();
    await page.waitForURL('**/sports-betting-api?lost-key=sent#lost-key-sent');
    await expect(page.locator('#lost-key-sent')).toBeVisible();
    await expect(page.locator('#lost-key-sent')).toContainText(
      'If that address has a Sharpline subscription',
    );
    expectInNoUrl(requests, page, address);
  });

  test('the account page sends the key nowhere and says why', async ({ page }) => {
    const key = 'sl_live_0123456789abcdefABCDEF0123456789';
    const requests = recordRequests(page);
    await page.goto('/account');
    // Playwright's "JavaScript off" keeps the parser's scripting flag, so <noscript> stays text: the form's own line.
    await expect(page.getByText('until it runs, your key is sent nowhere')).toBeVisible();
    const input = page.getByLabel('API key', { exact: true });
    await input.fill(key);
    await input.press('Enter');
    await expect(page.getByRole('button', { name: 'Show my account' })).toBeDisabled();
    // Nothing was sent: no request after the page's own, and the address is the page's.
    await page.waitForTimeout(500);
    expect(requests.filter((request) => request.method() === 'POST')).toHaveLength(0);
    expect(new URL(page.url()).pathname).toBe('/account');
    expectInNoUrl(requests, page, key);
  });
});

test.describe('with the scripts arriving 4 s late', () => {
  test('a trial form submitted before hydration is posted, answered and shown, never sent by GET', async ({
    page,
    baseURL,
  }) => {
    await delayScripts(page, 4_000);
    const address = uniqueAddress('slow');
    const requests = recordRequests(page);
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByLabel('Full Name').fill('Slow Phone');
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
    await page.waitForURL('**/?trial=sent#trial-sent');
    // Shown before the new page's script has come, by the URL's fragment.
    await expect(page.locator('#trial-sent')).toBeVisible();
    const post = requests.find((request) => request.url().endsWith('/api/trial-requests'));
    expect(post?.method()).toBe('POST');
    expect(post?.postData()).toContain('name=Slow+Phone');
    await expect.poll(() => emailsTo(dataDirOf(baseURL!), address).length, { timeout: 30_000 }).toBe(1);
    // Once hydrated, the form's own banner says it, and the address bar no longer carries the flag.
    await waitForHydration(page);
    await expect(page.getByRole('status')).toContainText(
      'Check your email. We have sent your trial key to this address, or, if this address has already had its free trial, an email explaining why no new key was sent.',
    );
    expect(new URL(page.url()).search).toBe('');
    expectInNoUrl(requests, page, address, 'Slow Phone');
  });

  test('a key pasted before hydration is not sent, stays in the box, and shows the account once the script runs', async ({
    page,
    baseURL,
  }) => {
    const key = await createKey(baseURL!);
    await delayScripts(page, 4_000);
    const requests = recordRequests(page);
    await page.goto('/account', { waitUntil: 'commit' });
    const input = page.getByLabel('API key', { exact: true });
    await input.fill(key);
    await input.press('Enter');
    await expect(page.getByText('until it runs, your key is sent nowhere')).toBeVisible();
    await waitForHydration(page);
    await expect(input).toHaveValue(key);
    await page.getByRole('button', { name: 'Show my account' }).click();
    await expect(page.getByRole('heading', { name: 'Requests per day' })).toBeVisible({ timeout: 60_000 });
    expect(requests.filter((request) => request.method() === 'POST')).toHaveLength(0);
    expectInNoUrl(requests, page, key);
  });
});
