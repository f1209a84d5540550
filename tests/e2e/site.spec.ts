import AxeBuilder from '@axe-core/playwright';
import { expect, hydrating, test, type Page, type Route } from '../support/e2e.ts';

const SUCCESS =
  'Check your email. We have sent your trial key to this address, or, if this address has already had its free trial, an email explaining why no new key was sent.';
const FAILURE = 'Failed to send trial request. Please try again.';
const PAGES = [
  '/',
  '/betting-tools/arbitrage',
  '/betting-tools/middles',
  '/betting-tools/bet-tracker',
  '/sports-betting-api',
];

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

  // Issue 34: one header on every page, the tools, API pricing and the docs all on screen at 390 px (the pricing link
  // used to disappear on phones, and the pricing page had another header).
  for (const path of [...PAGES, '/this/does/not/exist']) {
    test(`${path} has the one header: Betting Tools (the finders, the bet tracker and the calibration report), API Pricing and Docs, all on a 390 px screen`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(path);
      const nav = page.getByRole('navigation', { name: 'Main' });
      const items = [
        nav.getByRole('link', { name: 'Sharpline home' }),
        nav.getByRole('button', { name: 'Betting Tools' }),
        nav.getByRole('link', { name: 'API Pricing' }),
        nav.getByRole('link', { name: 'Docs' }),
        nav.getByRole('link', { name: 'Your Account' }),
      ];
      for (const item of items) await expect(item).toBeInViewport({ ratio: 1 });
      await expect(nav.getByRole('link', { name: 'API Pricing' })).toHaveAttribute(
        'href',
        '/sports-betting-api',
      );
      await expect(nav.getByRole('link', { name: 'Docs' })).toHaveAttribute('href', '/docs');
      await expect(nav.getByRole('link', { name: 'Your Account' })).toHaveAttribute('href', '/account');
      await nav.getByRole('button', { name: 'Betting Tools' }).click();
      await expect(page.getByRole('menuitem', { name: 'Arbitrage Finder' })).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole('menuitem', { name: 'Positive EV Finder' })).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole('menuitem', { name: 'Middles Finder' })).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole('menuitem', { name: 'Bet Tracker' })).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole('menuitem', { name: 'Calibration Report' })).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole('menuitem')).toHaveText([
        'Arbitrage Finder',
        'Positive EV Finder',
        'Middles Finder',
        'Bet Tracker',
        'Calibration Report',
      ]);
    });
  }

  test('on a server that manages no subscriptions, no page offers Manage Subscription', async ({ page }) => {
    // This server runs without Stripe (tests/e2e/checkout.spec.ts follows Manage Subscription from the footer).
    await page.goto('/sports-betting-api');
    // The page has read the server's configuration once the plan buttons say so.
    await expect(page.getByRole('link', { name: /^Purchases not open: start a free trial$/i })).toHaveCount(
      4,
    );
    await expect(page.getByRole('link', { name: 'Manage Subscription' })).toHaveCount(0);
    // …nor speaks of a subscription portal it does not have.
    await expect(page.getByText('Billed monthly.', { exact: false })).toBeVisible();
    await expect(page.getByText(/subscription portal/)).toHaveCount(0);
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
      'Same-game-parlay pricing API',
      'Push via SSE or pull via REST',
      'Full coverage',
    ]) {
      await expect(page.getByRole('heading', { level: 3, name: new RegExp(title) })).toBeVisible();
    }
    await page.getByRole('link', { name: /Compare the Sports Betting API plans/ }).click();
    await expect(page).toHaveURL(/\/sports-betting-api$/);
  });

  // Issue 34: the site tells the truth.
  test('says what a trial key gets, what the SGP card offers, three 1X2 prices, and which books are offshore', async ({
    page,
  }) => {
    await page.goto('/');
    const trial = page.getByRole('form', { name: 'Get your free trial API key' });
    await expect(trial).toContainText(
      '7 days with Pro plan limits: odds delayed up to 15 seconds, 100 requests per minute.',
    );
    await expect(trial).not.toContainText(/real-time/i);
    await expect(page.getByText('builder', { exact: false })).toHaveCount(0);
    await expect(
      page.getByRole('listitem').filter({ hasText: 'Same-game-parlay pricing API' }),
    ).toContainText('Elite and Enterprise');
    // The 1X2 card: home, draw and away.
    const oneXTwo = page.getByTestId('odds-card-prices').filter({ hasText: '+240' });
    await expect(oneXTwo.locator('span')).toHaveText(['+125', '+240', '+210']);
    await expect(page.locator('body')).not.toContainText('15 US sportsbooks');
    const books = page.getByTestId('sportsbook-coverage');
    await expect(books.getByRole('term')).toHaveText([
      'US state-licensed (11)',
      'Sweepstakes (1)',
      'Offshore (2)',
    ]);
    await expect(books.getByRole('definition').nth(4)).toHaveText('BetOnline, Bovada');
    // Issue 56: Hard Rock and Hard Rock Indiana are one book in two markets; "college" was NCAAB only.
    await expect(books.getByRole('definition').first()).toContainText(
      'Hard Rock (two markets: Hard Rock and Hard Rock Indiana)',
    );
    await expect(page.locator('main')).toContainText(
      "NBA, NCAAB (men's college basketball), NFL, MLB, NHL, Premier League and MLS",
    );
    await expect(page.locator('main')).not.toContainText(/\b15 sportsbooks|, college and soccer/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      /^Odds from 14 sportsbooks \(US state-licensed, sweepstakes and offshore\) over 7 leagues:/,
    );
    await page.goto('/sports-betting-api');
    await expect(page.locator('main')).toContainText(
      'Odds from 14 sportsbooks (11 US state-licensed, 1 sweepstakes, 2 offshore; Hard Rock in two markets) over 7 leagues by REST or server-sent events (which books are which).',
    );
    await expect(page.locator('body')).not.toContainText('15 US sportsbooks');
  });

  // What the home page says is what the product does (a review as a newcomer bettor).
  test("the free-tools paragraph says the values are as old as the free tier's delay and that each of the three finders takes a key", async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.locator('main')).toContainText(
      'the positive-EV and middles finders show prices 2 minutes old. An API key pasted on any of the three finders shows what its plan gets.',
    );
    for (const name of ['Arbitrage finder', 'Positive EV finder', 'Middles finder']) {
      await page.goto('/');
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page.getByRole('button', { name: 'paste your API key' })).toBeVisible();
    }
  });

  test('the free tools have a card each, the bet tracker and the calibration report too, each leading to its page (decision 298)', async ({
    page,
  }) => {
    for (const [name, heading] of [
      ['Bet tracker', /bet tracker/i],
      ['Calibration report', /calibration report/i],
    ] as const) {
      await page.goto('/');
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
  });

  test("the arbitrage finder's card says it refreshes every second with Auto on, which is off on a first visit", async ({
    page,
  }) => {
    await page.goto('/');
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'Arbitrage finder', exact: true }) });
    await expect(card).toContainText('Refreshed every second with Auto on.');
    await expect(card.getByRole('link', { name: 'Arbitrage finder', exact: true })).toHaveAttribute(
      'href',
      '/betting-tools/arbitrage',
    );
    await page.goto('/betting-tools/arbitrage');
    await expect(page.getByRole('switch', { name: 'Auto' })).toHaveAttribute('aria-checked', 'false');
  });

  test('sub-second latency is said of the real-time plans only', async ({ page }) => {
    await page.goto('/');
    await expect(
      page.getByRole('listitem').filter({ hasText: 'Standardized data, sub-second latency' }),
    ).toContainText('delivered in under a second on the Elite and Enterprise plans.');
  });

  test('the odds strip says its prices are examples, not live odds', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('odds-strip-note')).toHaveText('Example prices, not live odds.');
    await expect(page.getByTestId('odds-strip-note')).toBeVisible();
  });

  test('the dots stay still when the visitor prefers reduced motion', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = hydrating(await context.newPage());
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
  test('lists the four plans with their prices; on a server that sells nothing each offers the free trial', async ({
    page,
  }) => {
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
      // No Payment Link and no Stripe on this server (tests/e2e/checkout.spec.ts buys on one with Stripe).
      await expect(
        card.getByRole('link', { name: /^Purchases not open: start a free trial$/i }),
      ).toHaveAttribute('href', '/#trial');
      await expect(card.getByRole('button', { name: `Choose ${name}` })).toHaveCount(0);
    }
    await expect(page.getByRole('article', { name: 'Starter' })).toContainText(
      'Not included: Historical odds',
    );
    await expect(page.getByRole('article', { name: 'Enterprise' })).toContainText(
      '100K same-game-parlay credits',
    );
    await expect(page.getByRole('region', { name: 'Manage your subscription' })).toHaveCount(0);
    await page
      .getByRole('article', { name: 'Pro' })
      .getByRole('link', { name: /Purchases not open/ })
      .click();
    await expect(page).toHaveURL(/\/#trial$/);
    await expect(page.getByRole('button', { name: 'Get Free Trial Key' })).toBeInViewport();
  });

  // On a phone the home page's trial form is under the hero: "Start a free trial" must land on it, not on the top.
  test('"Not sure which plan fits?" Start a free trial lands on the trial form on a 390 px screen', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 700 });
    await page.goto('/sports-betting-api');
    await page
      .getByRole('heading', { name: 'Not sure which plan fits?' })
      .locator('xpath=../..')
      .getByRole('link', { name: 'Start a free trial' })
      .click();
    await expect(page).toHaveURL(/\/#trial$/);
    await expect(page.getByRole('button', { name: 'Get Free Trial Key' })).toBeInViewport();
  });

  test('without JavaScript the plan buttons still post, and the server says purchases are not open here', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: baseURL! });
    const page = hydrating(await context.newPage());
    await page.goto('/sports-betting-api');
    const notice = page.locator('#purchases-closed');
    await expect(notice).toBeHidden();
    await page.getByRole('button', { name: 'Choose Pro' }).click();
    await expect(page).toHaveURL(/\/sports-betting-api\?checkout=closed#purchases-closed$/);
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Purchases are not open on this server yet.');
    await context.close();
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

    // Decision 186: the page is drawn from its HTML alone, and its scripts are asked for once the first frame is done.
    test(`${path} asks for no script before its first frame, then hydrates`, async ({ page }) => {
      await page.addInitScript(() => {
        requestAnimationFrame(() => {
          (window as unknown as { firstFrameAt: number }).firstFrameAt = performance.now();
        });
      });
      await page.goto(path);
      // The header's menu opens only once React has hydrated the page.
      await page.getByRole('button', { name: 'Betting Tools' }).click();
      await expect(page.getByRole('menuitem', { name: 'Arbitrage Finder' })).toBeVisible();
      const timing = await page.evaluate(() => ({
        firstFrameAt: (window as unknown as { firstFrameAt: number }).firstFrameAt,
        scripts: performance
          .getEntriesByType('resource')
          .filter((entry) => /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
          .map((entry) => ({ name: entry.name, startTime: entry.startTime })),
      }));
      expect(timing.scripts.length).toBeGreaterThan(3);
      for (const script of timing.scripts)
        expect(script.startTime, script.name).toBeGreaterThanOrEqual(timing.firstFrameAt);
    });
  }

  // Decision 186: a finder's first rows come from a request its script loader sends with the page's chunks, after the
  // first frame, not once React has hydrated the page.
  for (const [path, feed] of [
    ['/betting-tools/arbitrage', '/tools/arbs.json'],
    ['/betting-tools/positive-ev', '/tools/ev.json'],
    ['/betting-tools/middles', '/tools/middles.json'],
  ] as const) {
    test(`${path} reads its first rows from one ${feed} request, sent after the first frame and before React's entry chunk arrived`, async ({
      page,
    }) => {
      await page.addInitScript(() => {
        requestAnimationFrame(() => {
          (window as unknown as { firstFrameAt: number }).firstFrameAt = performance.now();
        });
      });
      const requests: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === feed) requests.push(request.url());
      });
      // Hydrated: the finder's first read has run (its effect comes before the root's mark) and found the answer.
      await page.goto(path);
      await page.waitForFunction(
        (feedPath) =>
          performance
            .getEntriesByType('resource')
            .some(
              (entry) =>
                new URL(entry.name).pathname === feedPath &&
                (entry as PerformanceResourceTiming).responseEnd > 0,
            ),
        feed,
      );
      const timing = await page.evaluate((feedPath) => {
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const feedEntry = resources.find((entry) => new URL(entry.name).pathname === feedPath);
        const entry = resources.find((resource) => /\/assets\/entry\.client-[^/]+\.js$/.test(resource.name));
        return {
          firstFrameAt: (window as unknown as { firstFrameAt: number }).firstFrameAt,
          feedStart: feedEntry!.startTime,
          entryEnd: entry!.responseEnd,
        };
      }, feed);
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatch(new RegExp(`${feed.replace('.', '\\.')}\\?t=\\d+$`));
      expect(timing.feedStart).toBeGreaterThanOrEqual(timing.firstFrameAt);
      expect(timing.feedStart).toBeLessThan(timing.entryEnd);
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
