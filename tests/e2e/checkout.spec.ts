import AxeBuilder from '@axe-core/playwright';
import { expect, hydrating, test, type BrowserContext, type Page } from '../support/e2e.ts';
import { E2E_CHECKOUT_ORIGIN as ORIGIN, E2E_STRIPE_ORIGIN } from '../support/browser.ts';
import { StripeStandInClient } from '../support/server/stripe.ts';

// Buying a plan (issue 33, decision 151) in Chromium against the real built server, with Stripe's API stood in for on
// loopback. Both are Playwright web servers (playwright.config.ts): the site on E2E_CHECKOUT_PORT, and the stand-in
// (tests/support/stripe-stand-in.ts) on E2E_STRIPE_PORT, which this spec reads and drives over HTTP. The sessions the
// site creates point at Stripe's hosted checkout (https://checkout.stripe.com/c/pay/<id>): the browser's request there
// is answered by a stub page (page.route), so the test sees the browser arrive at the session's URL and nothing
// leaves the machine.

const standIn = new StripeStandInClient(E2E_STRIPE_ORIGIN);

// The stand-in's requests and its failing switch are shared: one test at a time.
test.describe.configure({ mode: 'serial' });

/** Stripe's hosted checkout, stubbed: the page a browser sent to a session's URL shows. */
async function stubStripeCheckout(context: BrowserContext) {
  await context.route('https://checkout.stripe.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Stripe Checkout</title><h1>Stripe Checkout (stand-in)</h1>',
    }),
  );
}

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
];

/** The Pro card's button once the page has read the server's configuration (a form either way). */
async function choosePro(page: Page) {
  const button = page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Choose Pro' });
  await button.scrollIntoViewIfNeeded();
  await button.click();
}

for (const viewport of VIEWPORTS) {
  test(`at ${viewport.width} px: "Choose Pro" sends the visitor to the Checkout Session's URL, with the trial's address`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport, baseURL: ORIGIN });
    await stubStripeCheckout(context);
    const page = hydrating(await context.newPage());
    const address = `e2e.${viewport.width}.${Date.now().toString(36)}@example.com`;
    // The link of a trial email: the address rides in the fragment.
    await page.goto(`/sports-betting-api#email=${encodeURIComponent(address)}`);
    // The page has read the server's configuration (no Enterprise price here): the other plans stay forms.
    await expect(
      page.getByRole('article', { name: 'Enterprise' }).getByRole('link', { name: /Purchases not open/ }),
    ).toBeVisible();
    await expect(page.locator('input[name="email"][type="hidden"]').first()).toHaveValue(address);
    const before = (await standIn.checkoutRequests()).length;
    await choosePro(page);
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    await expect(page.getByRole('heading', { name: 'Stripe Checkout (stand-in)' })).toBeVisible();
    const requests = await standIn.checkoutRequests();
    expect(requests).toHaveLength(before + 1);
    expect(requests.at(-1)).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: 'price_1ProMonthly', quantity: '1' }],
      metadata: { plan: 'pro' },
      customer_email: address,
      success_url: `${ORIGIN}/welcome?session_id={CHECKOUT_SESSION_ID}`,
    });
    const sessionId = /\/c\/pay\/(cs_test_\w+)$/.exec(page.url())![1]!;
    expect(page.url()).toBe((await standIn.checkoutSession(sessionId)).url);

    // Paid: Stripe returns the buyer to the success URL, which says so in words.
    await standIn.completeCheckout(sessionId);
    await page.goto(`/welcome?session_id=${sessionId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment received');
    await expect(page.getByRole('status')).toContainText(
      `Your API key is on its way to ${address.slice(0, 1)}***@example.com`,
    );
    await context.close();
  });

  test(`at ${viewport.width} px without JavaScript: the plan form posts and the browser follows to checkout`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport, baseURL: ORIGIN, javaScriptEnabled: false });
    await stubStripeCheckout(context);
    const page = hydrating(await context.newPage());
    await page.goto('/sports-betting-api');
    const before = (await standIn.checkoutRequests()).length;
    await choosePro(page);
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const requests = await standIn.checkoutRequests();
    expect(requests).toHaveLength(before + 1);
    expect(requests.at(-1)).toMatchObject({ metadata: { plan: 'pro' } });
    await context.close();
  });
}

test('without JavaScript, Stripe failing: back on the pricing page, told that checkout is unavailable and nothing was charged', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: ORIGIN, javaScriptEnabled: false });
  const page = hydrating(await context.newPage());
  await page.goto('/sports-betting-api');
  const notice = page.locator('#checkout-unavailable');
  await expect(notice).toBeHidden();
  await standIn.setFailing(true);
  try {
    await page.getByRole('button', { name: 'Choose Elite' }).click();
    await page.waitForURL(`${ORIGIN}/sports-betting-api?checkout=unavailable#checkout-unavailable`);
  } finally {
    await standIn.setFailing(false);
  }
  await expect(notice).toBeVisible();
  await expect(notice).toHaveText(
    'Checkout is unavailable right now; nothing was charged. Try again in a minute or start a free trial.',
  );
  await expect(notice.getByRole('link', { name: 'start a free trial' })).toHaveAttribute('href', '/#trial');
  await context.close();
});

test('a plan the server cannot sell offers the free trial; Manage Subscription leads to the portal-link form', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: ORIGIN });
  const page = hydrating(await context.newPage());
  await page.goto('/sports-betting-api');
  // STRIPE_PRICE_PLANS names no Enterprise price.
  const enterprise = page.getByRole('article', { name: 'Enterprise' });
  await expect(
    enterprise.getByRole('link', { name: /^Purchases not open: start a free trial$/i }),
  ).toHaveAttribute('href', '/#trial');
  await expect(
    page.getByRole('article', { name: 'Elite' }).getByRole('button', { name: 'Choose Elite' }),
  ).toBeVisible();

  // The footer's Manage Subscription (the one header has the tools, API pricing and docs: issue 34), by keyboard.
  const manage = page
    .getByRole('navigation', { name: 'Footer' })
    .getByRole('link', { name: 'Manage Subscription' });
  await expect(manage).toHaveAttribute('href', '/manage-subscription');
  await manage.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(`${ORIGIN}/sports-betting-api#manage-subscription`);
  const section = page.getByRole('region', { name: 'Manage your subscription' });
  await expect(section).toBeVisible();

  await section.getByLabel('Billing email').fill('nobody@example.com');
  await section.getByRole('button', { name: 'Email me a portal link' }).click();
  await page.waitForURL(`${ORIGIN}/sports-betting-api?portal=sent#portal-link-sent`);
  await expect(page.locator('#portal-link-sent')).toHaveText(
    'If that address has a Sharpline subscription, a link to manage it is on its way. The link works once, for 15 minutes.',
  );
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await context.close();
});
