import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../support/e2e.ts';
import { E2E_REPLAY_ORIGIN } from '../support/browser.ts';
import { withPastedKey } from '../support/e2e-paid-key.ts';

// The arbitrage rows' issue-14 tools against the replayed feed (tests/fixtures/arbitrage-e2e.jsonl, port 3101): prices
// in each odds format, the bettor's total and rounding with the guaranteed profit, the arb's age and Hide. Celtics @
// Lakers is FanDuel +155 (2.55) / DraftKings −140 (1.7142); Yankees @ Red Sox is Bovada 2.05 / BetRivers 2.00.
test.use({ baseURL: E2E_REPLAY_ORIGIN });

const PATH = '/betting-tools/arbitrage';
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const arbRow = (page: Page, teams: RegExp) => page.getByRole('row').filter({ hasText: teams });

async function open(page: Page) {
  // As a customer (every arb of the fixture in real time): the free view shows only arbs up to 1 % (issue 56).
  await withPastedKey(page, E2E_REPLAY_ORIGIN);
  await page.goto(PATH);
  await expect(page.getByRole('table')).toBeVisible();
}

async function setTotal(page: Page, dollars: string) {
  const total = page.getByRole('spinbutton', { name: 'Total stake' });
  await total.fill(dollars);
  await total.press('Enter');
}

test('prices follow the odds format; stakes and payouts do not', async ({ page }) => {
  await open(page);
  const row = arbRow(page, /BOS @ LAL/);
  const format = page.getByRole('combobox', { name: 'Odds format' });
  const prices = row.locator('li > span.font-mono');
  await expect(prices).toHaveText(['+155', '-140']);
  for (const [value, texts] of [
    ['decimal', ['2.55', '1.71']],
    ['fractional', ['31/20', '5/7']],
    ['probability', ['39.3%', '58.4%']],
    ['american', ['+155', '-140']],
  ] as const) {
    await format.selectOption(value);
    await expect(prices).toHaveText([...texts]);
    await expect(page.getByRole('spinbutton', { name: /stake on boston celtics/i })).toHaveValue('80.40');
    // At the book's exact −140 (12/7, docs/decisions/160): 119.60 × 12/7 = 205.028… → 205.02 = 80.40 × 2.55.
    await expect(row).toContainText('Profit $5.02');
  }
});

test('the total and rounding set the split, and the row shows the worst case and a losing outcome', async ({
  page,
}) => {
  await open(page);
  await setTotal(page, '500');
  await page.getByRole('combobox', { name: 'Round stakes to' }).selectOption('5');
  const celtics = page.getByRole('spinbutton', { name: /stake on boston celtics/i });
  const lakers = page.getByRole('spinbutton', { name: /stake on los angeles lakers/i });
  await expect(celtics).toHaveValue('200.00');
  await expect(lakers).toHaveValue('300.00');
  // 200 × 2.55 = 510.00 and 300 × 12/7 (−140 exactly) = 514.285… → 514.28: the guaranteed profit is 510 − 500,
  // 2.00 % of the total, shown beside the 2.51 % badge (docs/decisions/160).
  const row = arbRow(page, /BOS @ LAL/);
  await expect(row).toContainText('Pays $510.00');
  await expect(row).toContainText('Pays $514.28');
  await expect(row).toContainText('Staked $500.00');
  await expect(row).toContainText('Profit $10.00');
  await expect(row.locator('[data-split-return]')).toHaveText('$5 split guaranteed: $10.00 (2.00%)');
  // Typing still moves the other side (docs/product.md §5), and an emptied field goes back to the rounded split.
  await celtics.fill('100');
  await expect(lakers).toHaveValue('149.12');
  await celtics.fill('');
  await celtics.blur();
  await expect(celtics).toHaveValue('200.00');

  // $50 in $10 steps on 2.05 / 2.00 is 20 / 30: 41.00 back if the first side wins, $9.00 down.
  await setTotal(page, '50');
  await page.getByRole('combobox', { name: 'Round stakes to' }).selectOption('10');
  const yankees = arbRow(page, /NYY @ BOS/);
  await expect(yankees).toContainText('Profit -$9.00');
  // Beside its positive badge, the $10 split's own return: −900 / 5,000 = −18.00 %.
  await expect(yankees.locator('[data-split-return]')).toHaveText('$10 split guaranteed: -$9.00 (-18.00%)');
  await expect(yankees.getByText(/^Loses \$9\.00 if .+ wins$/)).toBeVisible();
});

test('each row says when its arb was found, and Hide hides it until Show hidden', async ({ page }) => {
  await open(page);
  const row = arbRow(page, /BOS @ LAL/);
  await expect(row.getByText(/^found \d+ (s|min) ago$/)).toBeVisible();
  const hide = row.getByRole('button', { name: /^Hide Boston Celtics @ Los Angeles Lakers/ });
  await hide.focus();
  await page.keyboard.press('Enter');
  await expect(arbRow(page, /BOS @ LAL/)).toHaveCount(0);
  // The focus lands on the next row's Hide button, not on the page.
  await expect(page.locator(':focus')).toHaveAttribute('data-hide', /.+/);
  await page.getByRole('button', { name: /show hidden \(1\)/i }).click();
  await expect(arbRow(page, /BOS @ LAL/)).toHaveCount(1);
});

for (const width of [320, 390, 1280]) {
  test(`rows fit ${width} px with every tool in use, axe clean`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await open(page);
    // Phones fold the toolbar under one button (issue 34).
    if (width < 640) await page.getByRole('button', { name: 'Filters and settings' }).click();
    await page.getByRole('combobox', { name: 'Odds format' }).selectOption('fractional');
    await setTotal(page, '50');
    await page.getByRole('combobox', { name: 'Round stakes to' }).selectOption('10');
    await expect(arbRow(page, /NYY @ BOS/)).toContainText('Loses');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await page.screenshot({ path: testInfo.outputPath(`rows-${width}.png`), fullPage: true });
    expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
  });
}
