import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Route } from '@playwright/test';

const SUCCESS = 'Trial key has been sent to your email address.';
const FAILURE = 'Failed to send trial request. Please try again.';
const PAGES = ['/', '/betting-tools/arbitrage', '/sports-betting-api'];

async function fillTrialForm(page: Page, email = 'ada@example.com') {
  await page.getByLabel('Full Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/Company/).fill('Analytical Engines Ltd');
}

test.describe('header dropdowns', () => {
  test('a visitor opens Betting Tools with the keyboard and reaches the arbitrage finder', async ({
    page,
  }) => {
    await page.goto('/');
    const trigger = page.getByRole('button', { name: 'Betting Tools' });
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    const item = page.getByRole('menuitem', { name: 'Arbitrage Finder' });
    await expect(item).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(trigger).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(item).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/betting-tools\/arbitrage$/);
  });

  test('the pricing page offers API documentation and subscription management, by arrow keys', async ({
    page,
  }) => {
    await page.goto('/sports-betting-api');
    await expect(page.getByRole('button', { name: 'Betting Tools' })).toHaveCount(0);
    const trigger = page.getByRole('button', { name: 'Sports Betting API' });
    await trigger.focus();
    await page.keyboard.press('Space');
    const docs = page.getByRole('menuitem', { name: 'API Documentation' });
    const portal = page.getByRole('menuitem', { name: 'Manage Subscription' });
    await expect(docs).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(portal).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(docs).toBeFocused();
    await page.keyboard.press('End');
    await expect(portal).toBeFocused();
    await expect(docs).toHaveAttribute('href', '/docs');
    await expect(portal).toHaveAttribute('href', /^https:\/\//);
  });

  test('a click outside closes an open menu', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Betting Tools' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await page.getByRole('heading', { level: 1 }).click();
    await expect(page.getByRole('menu')).toHaveCount(0);
  });
});

test.describe('trial form', () => {
  test('a visitor requests a trial key and sees the success banner; the form clears', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'promotekit_referral', value: 'ref-123', url: baseURL! }]);
    let payload: Record<string, unknown> | undefined;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/trial-requests', async (route: Route) => {
      payload = route.request().postDataJSON() as Record<string, unknown>;
      await held;
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":true}' });
    });
    await page.goto('/');
    await fillTrialForm(page);
    await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
    const busy = page.getByRole('button', { name: 'Submitting Request...' });
    await expect(busy).toBeDisabled();
    release();
    await expect(page.getByRole('status')).toContainText(SUCCESS);
    await expect(page.getByLabel('Full Name')).toHaveValue('');
    await expect(page.getByLabel('Email')).toHaveValue('');
    await expect(page.getByLabel(/Company/)).toHaveValue('');
    expect(payload).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: 'Analytical Engines Ltd',
      useCase: '',
      expectedVolume: '',
      message: '',
      referrer: 'Direct',
      promotekit_referral: 'ref-123',
    });
    expect(typeof payload?.userAgent).toBe('string');
    expect(new Date(String(payload?.timestamp)).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(payload).not.toHaveProperty('website');
    await page.getByRole('button', { name: 'Dismiss message' }).click();
    await expect(page.getByRole('status')).toHaveCount(0);
  });

  const failures: [string, (route: Route) => Promise<void>][] = [
    [
      'a server error',
      (route) =>
        route.fulfill({ status: 500, contentType: 'application/problem+json', body: '{"status":500}' }),
    ],
    ['a network error', (route) => route.abort('connectionrefused')],
    [
      'success false',
      (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":false}' }),
    ],
    [
      'a body that is not JSON',
      (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<html>ok</html>' }),
    ],
  ];
  for (const [name, respond] of failures) {
    test(`a visitor sees the failure banner after ${name}, and keeps what they typed`, async ({ page }) => {
      await page.route('**/api/trial-requests', respond);
      await page.goto('/');
      await fillTrialForm(page);
      await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
      await expect(page.getByRole('alert')).toHaveText(FAILURE);
      await expect(page.getByLabel('Email')).toHaveValue('ada@example.com');
      await expect(page.getByRole('button', { name: 'Get Free Trial Key' })).toBeEnabled();
      await page.getByRole('button', { name: 'Dismiss message' }).click();
      await expect(page.getByRole('alert')).toHaveCount(0);
    });
  }

  test('the browser refuses an empty name and a malformed email before anything is sent', async ({
    page,
  }) => {
    let posts = 0;
    await page.route('**/api/trial-requests', async (route) => {
      posts += 1;
      await route.fulfill({ status: 200, body: '{"success":true}' });
    });
    await page.goto('/');
    await expect(page.getByLabel('Full Name')).toHaveAttribute('required', '');
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
    await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
    await page.getByLabel('Full Name').fill('Ada');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
    expect(await page.getByLabel('Email').evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(
      false,
    );
    await page.getByLabel('Email').fill('ada@localhost');
    await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
    expect(posts).toBe(0);
  });
});

test.describe('home page', () => {
  test('shows the hero, 50 twinkling dots, the odds strip, four features and a link to the API page', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('twinkling-dots').locator('span')).toHaveCount(50);
    for (const title of [
      'Standardized data',
      'Same-game-parlay builder',
      'Push via SSE or pull via REST',
      'Full coverage',
    ]) {
      await expect(page.getByRole('heading', { level: 3, name: new RegExp(title) })).toBeVisible();
    }
    await page.getByRole('link', { name: /Compare the Sports Betting API plans/ }).click();
    await expect(page).toHaveURL(/\/sports-betting-api$/);
  });

  test('the dots stay still when the visitor prefers reduced motion', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto('/');
    const animation = await page
      .getByTestId('twinkling-dots')
      .locator('span')
      .first()
      .evaluate((dot) => getComputedStyle(dot).animationName);
    expect(animation).toBe('none');
    await context.close();
  });
});

test.describe('pricing page', () => {
  test('lists the four plans with their prices and checkout links', async ({ page }) => {
    await page.goto('/sports-betting-api');
    const expected = [
      ['Starter', '$29'],
      ['Pro', '$99'],
      ['Elite', '$249'],
      ['Enterprise', '$999'],
    ] as const;
    for (const [name, price] of expected) {
      const card = page.getByRole('article', { name });
      await expect(card).toContainText(price);
      await expect(card).toContainText('/month');
      await expect(card.getByRole('link', { name: `Choose ${name}` })).toHaveAttribute('href', /^https:\/\//);
    }
    await expect(page.getByRole('article', { name: 'Starter' })).toContainText(
      'Not included: Historical odds',
    );
    await expect(page.getByRole('article', { name: 'Enterprise' })).toContainText(
      '100K same-game-parlay credits',
    );
  });
});

test.describe('every page', () => {
  for (const path of PAGES) {
    test(`${path} has no axe violations and no horizontal scroll at 320 px`, async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 800 });
      await page.goto(path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      await page.setViewportSize({ width: 1280, height: 900 });
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    });

    test(`${path} carries its head tags in the raw HTML`, async ({ request, baseURL }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(html).toContain('<meta name="description"');
      expect(html).toContain('<meta name="keywords"');
      expect(html).toContain(`<link rel="canonical" href="${baseURL}${path}"`);
      expect(html).toContain('<meta property="og:image"');
      expect(html).toContain('<meta name="twitter:card"');
      expect(html).toContain('<script type="application/ld+json">');
    });
  }

  test('an unknown path shows the 404 page with status 404', async ({ page }) => {
    const response = await page.goto('/this/does/not/exist');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
  });
});
