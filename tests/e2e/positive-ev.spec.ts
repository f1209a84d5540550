import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../support/e2e.ts';
import { layoutShifts, recordLayoutShifts } from '../support/layout-shifts.ts';

// The positive-EV page (issue 36) against the real server and its simulator, whose public EV feed runs without its
// delay here (EV_PUBLIC_DELAY_S=0 in playwright.config.ts).

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const rows = (page: Page) =>
  page.getByRole('list', { name: 'Prices with positive EV, best first' }).getByRole('listitem');

// The first reading of the board takes seconds on a loaded machine.
const FIRST_ROWS = { timeout: 20_000 };

const dollars = (text: string | null) => Number((text ?? '').replace(/[$,]/g, ''));

test.describe('positive EV page', () => {
  // A loaded machine (other suites beside this one) takes seconds for the first board and for axe on 100 rows.
  test.describe.configure({ timeout: 90_000 });

  test("a visitor reaches it from the header's Betting Tools and from the home page", async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Betting Tools' }).click();
    await page.getByRole('menuitem', { name: 'Positive EV Finder' }).click();
    await expect(page).toHaveURL(/\/betting-tools\/positive-ev$/);
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    await page.goto('/');
    await page.getByRole('link', { name: 'Positive EV finder', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Positive EV finder' })).toBeVisible();
  });

  test('shows prices above fair with their fair price, EV and a Kelly stake, and says EV is no guarantee', async ({
    page,
  }) => {
    await page.goto('/betting-tools/positive-ev');
    await expect(page.getByRole('heading', { level: 1, name: 'Positive EV finder' })).toBeVisible();
    await expect(page.getByRole('note')).toContainText('EV is an expectation, not a guarantee.');
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    const first = rows(page).first();
    await expect(first.getByText(/^\+\d+\.\d%$/)).toBeVisible();
    await expect(first.getByText(/\d+\.\d% · \d+ books/)).toBeVisible();
    // Best EV first.
    const evs = (await page.getByText(/^\+\d+\.\d%$/).allTextContents()).map((text) =>
      Number(text.slice(1, -1)),
    );
    expect(evs.length).toBeGreaterThan(0);
    expect(evs).toEqual([...evs].sort((a, b) => b - a));
    expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
  });

  test('the filters and the bankroll land in the URL, change the rows and stakes, and survive a reload', async ({
    page,
  }) => {
    await page.goto('/betting-tools/positive-ev');
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    const stake = dollars(await rows(page).first().getByTestId('stake').textContent());

    await page.getByLabel('Stake rule').selectOption({ label: '½ Kelly' });
    await expect(page).toHaveURL(/kelly=0\.5/);
    await page.getByLabel('Bankroll ($)').fill('4000');
    await expect(page).toHaveURL(/bankroll=4000/);
    // The bankroll, typed right after the stake rule, keeps it (the second change once overwrote the first).
    await expect(page).toHaveURL(/kelly=0\.5/);
    // $1,000 at ¼ Kelly → $4,000 at ½ Kelly: eight times the stake, within the cents each rounds down.
    // The URL changes before the rows are drawn again: wait for the stake.
    const firstStake = async () => dollars(await rows(page).first().getByTestId('stake').textContent());
    await expect.poll(firstStake).toBeGreaterThanOrEqual(stake * 8 - 0.09);
    expect(await firstStake()).toBeLessThanOrEqual(stake * 8 + 0.09);

    await page.getByLabel('Market').selectOption('prop');
    await expect(page).toHaveURL(/market=prop/);
    await page.getByLabel('Minimum EV (%)').fill('2');
    await expect(page).toHaveURL(/min_ev=2/);
    const count = await page.getByTestId('ev-count').textContent();
    await page.reload();
    // The prerendered page has the default view; the URL's is drawn once the page has hydrated and read the feed.
    await expect(page.getByTestId('ev-count')).toBeVisible();
    await expect(page.getByLabel('Market')).toHaveValue('prop');
    await expect(page.getByLabel('Minimum EV (%)')).toHaveValue('2');
    await expect(page.getByLabel('Bankroll ($)')).toHaveValue('4000');
    await expect(page.getByLabel('Stake rule')).toHaveValue('0.5');
    expect(count).toMatch(/^\d+ prices? with positive EV shown/);
    for (const text of await page.getByText(/^\+\d+\.\d%$/).allTextContents())
      expect(Number(text.slice(1, -1))).toBeGreaterThanOrEqual(2);
  });

  test("the visitor's sportsbooks, chosen as on the arbitrage page, narrow the rows", async ({ page }) => {
    await page.goto('/betting-tools/positive-ev');
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    await page.evaluate(() => localStorage.setItem('selectedSportsbooks', JSON.stringify(['fanduel'])));
    await page.reload();
    await expect(page.getByRole('button', { name: /Sportsbooks/ })).toContainText('1/14');
    const books = await page.getByTestId('ev-count').textContent();
    expect(books).toMatch(/prices? with positive EV shown/);
    for (const row of await rows(page).all()) await expect(row).toContainText('FanDuel');
  });

  test('at 390 px nothing moves when the data comes and nothing scrolls sideways', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await recordLayoutShifts(page);
    await page.goto('/betting-tools/positive-ev');
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    // The feed's badge and time come with the data into space kept for them: nothing on screen moves (decision 175).
    expect(await layoutShifts(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
  });
});
