import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Route } from '../support/e2e.ts';
import { E2E_REPLAY_ORIGIN } from '../support/browser.ts';
import { withPastedKey } from '../support/e2e-paid-key.ts';

// An arb row's price history (issue 13) on the real built server replaying tests/fixtures/arbitrage-e2e.jsonl (port
// 3101): the row's "Price history" button loads the chart chunk and GET /tools/history.json only when opened. Arb A:
// Celtics @ Lakers, FanDuel Boston Celtics +155 / DraftKings Los Angeles Lakers -140.
test.use({ baseURL: E2E_REPLAY_ORIGIN });

const PATH = '/betting-tools/arbitrage';
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

function celticsRow(page: Page) {
  return page.getByRole('row').filter({ hasText: /BOS @ LAL/ });
}

async function open(page: Page) {
  // As a customer (every arb of the fixture in real time): the free view shows only arbs up to 1 % (issue 56).
  await withPastedKey(page, E2E_REPLAY_ORIGIN);
  await page.goto(PATH);
  await expect(page.getByRole('table')).toBeVisible();
}

/** An hour of minutes ending at the current minute: FanDuel +150 → +155 with a five-minute suspension, DraftKings -150 → -140. */
async function fulfilHour(route: Route) {
  const url = new URL(route.request().url());
  const to = Math.floor(Date.now() / 60_000) * 60;
  const from = to - 3600;
  const [fanduel, draftkings] = (url.searchParams.get('sides') ?? '').split(',');
  const minutes = (price: (minute: number) => number | null) =>
    Array.from({ length: 61 }, (_, minute) => {
      const american = price(minute);
      const decimal = american === null ? null : american > 0 ? 1 + american / 100 : 1 + 100 / -american;
      return [from + minute * 60, american, decimal];
    });
  await route.fulfill({
    status: 200,
    contentType: 'application/json',
    headers: { 'cache-control': 'public, max-age=30' },
    body: JSON.stringify({
      event: url.searchParams.get('event'),
      from,
      to,
      interval_s: 60,
      sides: [
        {
          id: fanduel,
          book: 'fanduel',
          outcome: 'away',
          points: minutes((m) => (m >= 20 && m < 25 ? null : m < 35 ? 150 : m < 48 ? 165 : 155)),
        },
        {
          id: draftkings,
          book: 'draftkings',
          outcome: 'home',
          points: minutes((m) => (m < 12 ? -155 : m < 40 ? -150 : -140)),
        },
      ],
    }),
  });
}

test('a bettor opens an arb’s price history from the real history endpoint and closes it again', async ({
  page,
}) => {
  await open(page);
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') chunks.push(request.url());
  });
  const button = celticsRow(page).getByRole('button', { name: 'Price history' });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  expect(chunks).toEqual([]);

  const answer = page.waitForResponse((response) => response.url().includes('/tools/history.json'));
  await button.click();
  const response = await answer;
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('public, max-age=30');
  expect(new URL(response.url()).searchParams.get('sides')?.split(',')).toHaveLength(2);
  expect(chunks.length).toBeGreaterThan(0); // the chart chunk, loaded on opening

  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('region', { name: /^Price history: Boston Celtics @ Los Angeles Lakers/ });
  await expect(panel).toBeVisible();
  // A server started moments ago may not have a price at a minute boundary yet: each side is named either way.
  await expect(panel.getByRole('listitem')).toHaveText([
    /^FanDuel Boston Celtics: (.*\+155 now|no price)/,
    /^DraftKings Los Angeles Lakers: (.*-140 now|no price)/,
  ]);
  await expect(panel.getByText('Price history unavailable')).toHaveCount(0);
  expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);

  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(panel).toHaveCount(0);
});

test('the chart draws an hour of prices with its gap, and the panel fits a desktop', async ({
  page,
}, testInfo) => {
  await page.route('**/tools/history.json*', fulfilHour);
  await page.setViewportSize({ width: 1280, height: 900 });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await open(page);
  const button = celticsRow(page).getByRole('button', { name: 'Price history' });
  await button.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('region', { name: /^Price history: Boston Celtics/ });
  await expect(panel.getByRole('listitem')).toHaveText([
    'FanDuel Boston Celtics: +150 an hour ago, +155 now (best +165; no price for 5 minutes)',
    'DraftKings Los Angeles Lakers: -155 an hour ago, -140 now',
  ]);
  await expect(panel.locator('canvas')).toBeVisible();
  // uPlot's stylesheet came with the chart chunk and the page's CSP let it apply (its overlay is positioned).
  await expect(panel.locator('.u-over')).toHaveCSS('position', 'absolute');
  expect(violations).toEqual([]);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('price-history-1280.png') });
  expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the history opens under the arb’s card and nothing overflows', async ({ page }, testInfo) => {
    await page.route('**/tools/history.json*', fulfilHour);
    await open(page);
    const button = celticsRow(page).getByRole('button', { name: 'Price history' });
    await button.tap();
    const panel = page.getByRole('region', { name: /^Price history: Boston Celtics/ });
    await expect(panel.locator('canvas')).toBeVisible();
    await expect(panel.getByRole('listitem').first()).toHaveText(
      /^FanDuel Boston Celtics: \+150 an hour ago/,
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    const box = (await panel.locator('canvas').boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('price-history-390.png') });
    await button.tap();
    await expect(panel).toHaveCount(0);
  });
});

test('the panel says "Price history unavailable" when the history cannot be had', async ({ page }) => {
  await page.route('**/tools/history.json*', (route) =>
    route.fulfill({ status: 404, contentType: 'application/problem+json', body: '{"status":404}' }),
  );
  await open(page);
  await celticsRow(page).getByRole('button', { name: 'Price history' }).click();
  await expect(page.getByRole('alert')).toHaveText(/Price history unavailable/);
});
