import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../support/e2e.ts';
import { OddsEngine } from '../../src/engine/engine.ts';
import { parseReplay } from '../../src/engine/sources/replay.ts';
import { E2E_REPLAY_ORIGIN } from '../support/browser.ts';

// Player props on the arbitrage page (issue 15, decision 126). The feed is the engine's own: the messages of
// tests/fixtures/arbitrage-props-e2e.jsonl (rosters, over/under and yes/no props, first-quarter lines, long names, two
// game lines) go through an OddsEngine here, and its feed is served to the page in place of the replay server's.
// Screenshots at 375 and 1280 px land in PROPS_SHOTS (default test-results/arbitrage-props) for a person to look at.
test.use({ baseURL: E2E_REPLAY_ORIGIN });

const PATH = '/betting-tools/arbitrage';
const SHOTS = process.env.PROPS_SHOTS ?? 'test-results/arbitrage-props';
const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The engine's feed for the fixture, built once (prices stamped now: fresh for the engine's 60 s pre-match limit). */
function propsFeed(): string {
  const replay = parseReplay(readFileSync('tests/fixtures/arbitrage-props-e2e.jsonl', 'utf8'));
  const now = Date.now();
  const engine = new OddsEngine({ source: 'replay', now: () => now });
  for (const { message } of replay.lines) {
    const accepted = engine.ingest(
      message.kind === 'event' && typeof message.startsIn === 'number'
        ? { ...message, startsAt: now + message.startsIn }
        : message,
    );
    expect(accepted, JSON.stringify(message)).toBe(true);
  }
  engine.markReady();
  engine.tick();
  return engine.latest!.body.toString('utf8');
}

let body: string;
test.beforeAll(() => {
  body = propsFeed();
  const arbs = (JSON.parse(body) as { arbs: { market: string; market_type?: string }[] }).arbs;
  expect(
    arbs
      .filter((arb) => arb.market_type === 'prop')
      .map((arb) => arb.market)
      .sort(),
  ).toEqual([
    'Giannis Antetokounmpo 1st Quarter Rebounds Over/Under 3.5',
    'LeBron James 1st Quarter Points Over/Under 7.5',
    'LeBron James Points Over/Under 27.5',
    'Patrick Mahomes 1st Quarter Passing Yards Over/Under 72.5',
    'Shai Gilgeous-Alexander Pts + Reb + Ast Over/Under 45.5',
    'Travis Kelce Anytime TD',
  ]);
});

async function open(page: Page, query = '') {
  await page.route('**/tools/arbs.json*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body }),
  );
  await page.goto(`${PATH}${query}`);
  await expect(page.getByRole('table')).toBeVisible();
  await expect(page.getByText('Error Loading Data')).toHaveCount(0);
}

const arbRows = (page: Page) => page.locator('tbody tr');
const rowOf = (page: Page, market: string) => arbRows(page).filter({ hasText: market });

async function noHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
}

/**
 * Every side's name is shown whole (its box holds its text: nothing cut or spilling into the price), and its pick
 * ("Over 27.5", "— Yes") sits on one line inside it.
 */
async function sidesWhole(page: Page) {
  const problems = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('tbody li > span[title]')].flatMap((name) => {
      const box = name.getBoundingClientRect();
      const pick = name.querySelector('span')?.getBoundingClientRect();
      const cut = name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1;
      const pickOut = pick && (pick.right > box.right + 1 || pick.height > 24);
      return cut || pickOut ? [name.title] : [];
    }),
  );
  expect(problems).toEqual([]);
}

for (const { name, viewport } of [
  { name: 'phone', viewport: { width: 375, height: 812 } },
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
]) {
  test(`prop arbs show like any other arb, their player, stat, side and line readable (${name})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await open(page);
    const lebron = rowOf(page, 'LeBron James Points Over/Under 27.5');
    await expect(lebron).toHaveCount(1);
    await expect(lebron.getByText('LeBron James Points Over 27.5', { exact: true })).toBeVisible();
    await expect(lebron.getByText('LeBron James Points Under 27.5', { exact: true })).toBeVisible();
    await expect(lebron.getByRole('link', { name: /bet at fanduel/i })).toBeVisible();
    const kelce = rowOf(page, 'Travis Kelce Anytime TD');
    await expect(kelce.getByText('Travis Kelce Anytime TD — Yes', { exact: true })).toBeVisible();
    await expect(kelce.getByText('Travis Kelce Anytime TD — No', { exact: true })).toBeVisible();
    await expect(rowOf(page, 'Moneyline')).toHaveCount(1);
    await noHorizontalScroll(page);
    await sidesWhole(page);
    await page.screenshot({ path: `${SHOTS}/props-${name}.png`, fullPage: true });
    for (const [file, market] of [
      ['longest', 'Shai Gilgeous-Alexander Pts + Reb + Ast Over/Under 45.5'],
      ['first-quarter', 'LeBron James 1st Quarter Points Over/Under 7.5'],
      ['yes-no', 'Travis Kelce Anytime TD'],
    ]) {
      await rowOf(page, market!).screenshot({ path: `${SHOTS}/props-${name}-${file}-row.png` });
    }
    expect((await new AxeBuilder({ page }).withTags(tags).analyze()).violations).toEqual([]);
  });
}

test('choosing Player props leaves only prop arbs, in the URL and after a reload', async ({ page }) => {
  await open(page);
  await expect(arbRows(page)).toHaveCount(8);
  await page.getByRole('button', { name: 'Markets' }).click();
  await page.getByRole('group', { name: 'Markets' }).getByRole('checkbox', { name: 'Player props' }).check();
  await expect(arbRows(page)).toHaveCount(6);
  await expect(rowOf(page, 'Moneyline')).toHaveCount(0);
  await expect(rowOf(page, 'Total 47.5')).toHaveCount(0);
  await expect(rowOf(page, 'Travis Kelce Anytime TD')).toHaveCount(1);
  await expect(page).toHaveURL(/\?markets=props$/);

  await page.reload();
  await expect(page.getByRole('table')).toBeVisible();
  await expect(arbRows(page)).toHaveCount(6);
  await expect(rowOf(page, 'Moneyline')).toHaveCount(0);

  // Total keeps the game's total only: a prop's "Over/Under" label does not make it a total.
  await page.getByRole('button', { name: 'Markets' }).click();
  const markets = page.getByRole('group', { name: 'Markets' });
  await markets.getByRole('checkbox', { name: 'Player props' }).uncheck();
  await markets.getByRole('checkbox', { name: 'Total' }).check();
  await expect(arbRows(page)).toHaveCount(1);
  await expect(rowOf(page, 'Total 47.5')).toHaveCount(1);
  await expect(page).toHaveURL(/\?markets=total$/);
});
