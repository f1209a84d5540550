import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../support/e2e.ts';
import { hoursAndMinutes } from '#domain/simulated-games.ts';
import { MODELS } from '#engine/sources/simulation/models.ts';

// The calibration report page (issue 57, decisions 266 and 283). The e2e server records no odds history
// (HISTORY_RECORD=false in playwright.config.ts) and its simulated games take hours to finish, so against it the page
// shows its empty state. The page with figures is tested against a server whose history holds finished games, in
// Chromium, by src/server/calibration/calibration-page.test.ts (a site test: the real app, its own history writer, the
// report the server computed; nothing stands in for /tools/calibration.json).

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

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
    // …and says when results will come, and why not yet, rather than "0 finished games" (decision 298).
    await expect(page.getByRole('status')).toContainText('The first results come when the first games');
    // …from the simulator's own game lengths (its models: decision 306), not from figures written in the page.
    const lengths = Object.values(MODELS).map((model) => model.durationMinutes);
    await expect(page.getByRole('status')).toContainText(
      `have ended, ${hoursAndMinutes(Math.min(...lengths))} to ${hoursAndMinutes(Math.max(...lengths))} after that start`,
    );
    await expect(page.getByText('No finished games yet, last 30 days')).toBeVisible();
    await expect(page.getByText('Demo data')).toBeVisible();
    expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
  });
});
