import AxeBuilder from '@axe-core/playwright';
import { calibrationGroups } from '#domain/calibration.ts';
import type { CalibrationReport } from '#domain/schemas/calibration.ts';
import { expect, test, type Page } from '../support/e2e.ts';

// The calibration report page (issue 57, decision 266). The e2e server records no odds history
// (HISTORY_RECORD=false in playwright.config.ts) and its simulated games take hours to finish, so against it the page
// shows its empty state; the report's figures are checked by the server tests (calibration-feed.test.ts). To see the
// page with figures at phone and desktop widths, one test answers /tools/calibration.json with a report the domain
// code computes from a fixed set of forecasts (as the server would from the history).

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** A demo report: NFL spreads and NBA totals, 400 forecasts each, fair probabilities spread over the bins. */
function demoReport(): CalibrationReport {
  const forecasts = [];
  for (const [league, marketType] of [
    ['nfl', 'spread'],
    ['nba', 'total'],
  ] as const) {
    for (let i = 0; i < 400; i += 1) {
      const fair = 0.05 + (0.9 * ((i * 37) % 100)) / 100;
      // Won about as often as said: the i-th of each 100 wins when its rank is under the probability.
      const result = (i * 61) % 100 < fair * 100 ? ('won' as const) : ('lost' as const);
      forecasts.push({
        market: `${league}-${i >> 1}`,
        league,
        marketType,
        result,
        fair,
        books: new Map([
          ['fanduel', Math.min(0.99, fair + 0.02)],
          ['draftkings', Math.max(0.01, fair - 0.015)],
          ['betmgm', fair],
        ]),
      });
    }
  }
  return {
    source: 'simulator',
    demo: true,
    as_of: Math.floor(Date.UTC(2026, 10, 22, 18) / 1000),
    window_days: 30,
    events: 400,
    fair: { reference: 'consensus', method: 'shin' },
    groups: calibrationGroups(forecasts),
  };
}

async function withReport(page: Page) {
  await page.route('**/tools/calibration.json', (route) => route.fulfill({ json: demoReport() }));
}

test.describe('calibration report page', () => {
  test.describe.configure({ timeout: 90_000 });

  test("a visitor reaches it from the header's Betting Tools; on the live server it says no game is graded yet", async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Betting Tools' }).click();
    await page.getByRole('menuitem', { name: 'Calibration Report' }).click();
    await expect(page).toHaveURL(/\/betting-tools\/calibration$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Calibration report' })).toBeVisible();
    // The real server's answer: no history recorded here, so no graded game, and the page says so.
    await expect(page.getByRole('status')).toContainText('No graded games yet');
    await expect(page.getByText('Demo data')).toBeVisible();
    expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
  });

  for (const width of [390, 1280]) {
    test(`at ${width} px: the summary, the reliability chart and table, the books; nothing scrolls sideways; axe clean`, async ({
      page,
    }, info) => {
      await page.setViewportSize({ width, height: 900 });
      await withReport(page);
      await page.goto('/betting-tools/calibration');
      const summary = page.getByRole('region', { name: 'Summary by league and market' });
      await expect(summary.getByRole('row')).toHaveCount(3);
      await expect(summary.getByRole('row').nth(1)).toContainText('NBA Total');
      await expect(page.getByText('Demo data')).toBeVisible();
      // The detail follows the choice of league and market.
      await expect(page.getByRole('heading', { name: 'Detail: NBA Total' })).toBeVisible();
      await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'NFL Spread' });
      await expect(page.getByRole('heading', { name: 'Detail: NFL Spread' })).toBeVisible();
      await expect(page.getByRole('img', { name: /^Reliability chart, NFL Spread: / })).toBeVisible();
      const bins = page.getByRole('region', { name: 'Reliability table, NFL Spread' }).getByRole('row');
      await expect(bins).toHaveCount(11);
      const books = page.getByRole('region', { name: 'Brier score and log loss by sportsbook, NFL Spread' });
      await expect(books.getByRole('row')).toHaveCount(4);
      await expect(books).toContainText('FanDuel');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: info.outputPath(`calibration-${width}.png`), fullPage: true });
      expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
    });
  }
});
