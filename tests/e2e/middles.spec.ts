import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '../support/e2e.ts';
import { layoutShifts, recordLayoutShifts } from '../support/layout-shifts.ts';

// The middles page (issue 36, decision 169) against the real server and its simulator, whose public middles feed runs
// without its delay here (EV_PUBLIC_DELAY_S=0 in playwright.config.ts).

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const rows = (page: Page) => page.getByRole('list', { name: 'Middles, best EV first' }).getByRole('listitem');
// The first reading of the board (every middle priced on the score model) takes seconds on a loaded machine.
const FIRST_ROWS = { timeout: 20_000 };

const dollars = (text: string | null) => Number((text ?? '').replace(/[$,+]/g, '').replace('−', '-'));
const stakes = async (row: Locator) =>
  (await row.getByTestId('stake').allTextContents()).map((text) => dollars(text));

test.describe('middles page', () => {
  // A loaded machine (other suites beside this one) takes seconds for the first board and for axe.
  test.describe.configure({ timeout: 90_000 });

  test("a visitor reaches it from the header's Betting Tools and from the home page", async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Betting Tools' }).click();
    await page.getByRole('menuitem', { name: 'Middles Finder' }).click();
    await expect(page).toHaveURL(/\/betting-tools\/middles$/);
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    await page.goto('/');
    await page.getByRole('link', { name: 'Middles finder', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Middles finder' })).toBeVisible();
  });

  test('shows middles with both sides, the chance, EV, worst case and stakes, says a middle is a chance; axe clean', async ({
    page,
  }) => {
    await page.goto('/betting-tools/middles');
    await expect(page.getByRole('note')).toContainText('A middle is a chance, not a guarantee.');
    await expect(page.getByRole('note')).toContainText('worst case');
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    const first = rows(page).first();
    await expect(first.getByTestId('chance')).toHaveText(/^\d+\.\d%$/);
    await expect(first.getByTestId('price')).toHaveCount(2);
    await expect(first.getByTestId('if-miss')).toHaveText(/^[−+]?\$[\d,]+\.\d\d$/);
    // The two stakes split the default $200.
    const split = await stakes(first);
    expect(split).toHaveLength(2);
    expect(split[0]! + split[1]!).toBeCloseTo(200, 2);
    // Best EV first.
    const evs = (await page.getByTestId('ev').allTextContents()).map((text) => Number(text.slice(0, -1)));
    expect(evs.length).toBeGreaterThan(0);
    expect(evs).toEqual([...evs].sort((a, b) => b - a));
    expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
  });

  test('the total stake changes the stakes; filters and the format land in the URL and survive a reload', async ({
    page,
  }) => {
    await page.goto('/betting-tools/middles');
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    const before = await stakes(rows(page).first());
    const id = async () => (await rows(page).first().textContent()) ?? '';
    const firstText = await id();

    await page.getByLabel('Total stake ($)').fill('1000');
    await expect(page).toHaveURL(/stake=1000/);
    // The same first middle (the feed refreshes every 15 s: compare only when it has not moved), five times the stakes.
    await expect
      .poll(async () => (await stakes(rows(page).first()))[0]! + (await stakes(rows(page).first()))[1]!)
      .toBeCloseTo(1000, 2);
    if ((await id()).includes(firstText.slice(0, 20))) {
      const after = await stakes(rows(page).first());
      expect(Math.abs(after[0]! - before[0]! * 5)).toBeLessThanOrEqual(0.05);
    }

    await page.getByLabel('Market').selectOption('total');
    await expect(page).toHaveURL(/market=total/);
    await page.getByLabel('Odds').selectOption('decimal');
    await expect(page).toHaveURL(/format=decimal/);
    // The stake typed before the market and the format is kept (each change merges into the URL as it is).
    await expect(page).toHaveURL(/stake=1000/);
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    for (const text of await page.getByTestId('price').allTextContents()) expect(text).toMatch(/^\d+\.\d\d$/);
    for (const row of await rows(page).all()) await expect(row).toContainText('a total of');

    await page.reload();
    await expect(page.getByTestId('middles-count')).toBeVisible(FIRST_ROWS);
    await expect(page.getByLabel('Market')).toHaveValue('total');
    await expect(page.getByLabel('Odds')).toHaveValue('decimal');
    await expect(page.getByLabel('Total stake ($)')).toHaveValue('1000');
    await expect(page.getByTestId('middles-count')).toContainText('stakes for $1,000.00');
    // 25 rows are drawn at first; "Show more" draws the next.
    const shown = await rows(page).count();
    expect(shown).toBeLessThanOrEqual(25);
    const more = page.getByRole('button', { name: /^Show \d+ more$/ });
    if (await more.isVisible()) {
      await more.click();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(shown);
    }
    for (const row of await rows(page).all()) await expect(row).toContainText('a total of');
  });

  test("player props: the market filter leaves a player's over and under, with his stat and the figures both win on", async ({
    page,
  }) => {
    await page.goto('/betting-tools/middles?market=prop');
    await expect(page.getByLabel('Market')).toHaveValue('prop');
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    for (const row of await rows(page).all()) {
      await expect(row).toContainText('Player prop');
      // "LeBron James Points: 25 to 26", and both sides name the player's over and under.
      await expect(row).toContainText(/: \d+( to \d+)?/);
      await expect(row).toContainText(/ Over \d+(\.5)?/);
      await expect(row).toContainText(/ Under \d+(\.5)?/);
    }
  });

  test('a minimum chance leaves only middles at least that likely', async ({ page }) => {
    await page.goto('/betting-tools/middles?min_prob=10');
    await expect(page.getByTestId('middles-count')).toBeVisible(FIRST_ROWS);
    await expect(page.getByLabel('Minimum chance (%)')).toHaveValue('10');
    for (const text of await page.getByTestId('chance').allTextContents())
      expect(Number(text.slice(0, -1))).toBeGreaterThanOrEqual(10);
  });

  test("the visitor's sportsbooks, chosen as on the arbitrage page, narrow the rows", async ({ page }) => {
    await page.goto('/betting-tools/middles');
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    await page.evaluate(() =>
      localStorage.setItem('selectedSportsbooks', JSON.stringify(['fanduel', 'draftkings', 'betmgm'])),
    );
    await page.reload();
    await expect(page.getByRole('button', { name: /Sportsbooks/ })).toContainText('3/14');
    await expect(page.getByTestId('middles-count')).toBeVisible(FIRST_ROWS);
    for (const row of await rows(page).all()) {
      const text = (await row.textContent()) ?? '';
      const named = ['FanDuel', 'DraftKings', 'BetMGM'].filter((book) => text.includes(book)).length;
      expect(named, text).toBeGreaterThanOrEqual(1);
    }
  });

  test('at 390 px nothing moves when the data comes, nothing scrolls sideways; axe clean', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await recordLayoutShifts(page);
    await page.goto('/betting-tools/middles');
    await expect(rows(page).first()).toBeVisible(FIRST_ROWS);
    // The feed's badge and time come with the data into space kept for them: nothing on screen moves (decision 175).
    expect(await layoutShifts(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
  });
});
