import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { betId, TrackedBetSchema, type TrackedBet } from '#domain/bet-tracker.ts';
import { gradeGameMarket, settle, settleTicket } from '#domain/grading.ts';
import type { Cents } from '#domain/odds.ts';
import { PROP_CATALOGUE, type PropStatKey } from '#domain/props.ts';
import { ResultsFeedSchema } from '#domain/schemas/results-feed.ts';
import { FixtureCalendar } from '#engine/sources/simulation/calendar.ts';
import { E2E_TRACKER_ORIGIN, E2E_TRACKER_PORT } from '../support/browser.ts';
import { createE2eKey } from '../support/e2e-paid-key.ts';
import { homeMoneylineOf } from '../support/tracked-bets.ts';
import { expect, test, type Page } from '../support/e2e.ts';

// The bet tracker (issue 57, decision 257) against a real server of its own: the seeded simulator pinned (SIM_START,
// decision 230) at 21:13 UTC on the pinned Sunday, two minutes before the NFL's early games (kick-off 18:00, 195
// minutes) end. A middle of one of those games is tracked from its row on the middles page, and the tracker grades both
// legs from the public results once the simulator has played the game to its final. Then the bets go out as CSV and
// JSON and come back in, once.

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SIM_START = '2026-11-22T21:13:00Z';
const origin = E2E_TRACKER_ORIGIN;
let server: ChildProcess | undefined;
/** The home teams of the NFL's early games on the pinned calendar (kick-off 18:00 UTC): they end at 21:15. */
const EARLY_HOMES = new FixtureCalendar(7)
  .between(Date.parse('2026-11-22T17:00:00Z'), Date.parse('2026-11-22T19:00:00Z'))
  .filter((fixture) => fixture.league === 'nfl' && fixture.startsAt === Date.parse('2026-11-22T18:00:00Z'))
  .map((fixture) => fixture.home[0]);

test.describe.configure({ mode: 'serial', timeout: 360_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = spawn('node', ['--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...process.env,
      PORT: String(E2E_TRACKER_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: `./data/e2e-${E2E_TRACKER_PORT}`,
      SIM_SEED: '7',
      SIM_START,
      EV_PUBLIC_DELAY_S: '0',
      HISTORY_RECORD: 'false',
      LOG_LEVEL: 'warn',
      SITE_URL: origin,
    },
    stdio: 'ignore',
    detached: true,
  });
  const until = Date.now() + 280_000;
  for (;;) {
    const ok = await fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until || server.exitCode !== null) throw new Error('The tracker’s server did not start');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(() => {
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
});

const storedBets = async (page: Page): Promise<TrackedBet[]> =>
  (
    (await page.evaluate(() =>
      JSON.parse(localStorage.getItem('sharpline.trackedBets') ?? '[]'),
    )) as unknown[]
  ).map((bet) => TrackedBetSchema.parse(bet));
const betItems = (page: Page) =>
  page.getByRole('list', { name: 'Tracked bets, newest first' }).getByRole('listitem');

test('a middle tracked from its row grades itself when its game ends; CSV and JSON go out and come back once', async ({
  page,
}) => {
  // The middles page, NFL only: a live middle of an early game (one that ends within two minutes).
  await page.goto(`${origin}/betting-tools/middles?league=nfl`);
  const rows = page.getByRole('list', { name: 'Middles, best EV first' }).getByRole('listitem');
  const live = rows
    .filter({ hasText: 'Live' })
    .filter({ hasText: new RegExp(`${EARLY_HOMES.join('|')}`) })
    .filter({ has: page.getByRole('button', { name: /^Track / }) })
    .first();
  await expect(live).toBeVisible({ timeout: 30_000 });
  await live.getByRole('button', { name: /^Track .* in the bet tracker$/ }).click();
  await expect.poll(async () => (await storedBets(page)).length).toBe(2);
  // The row's button is now a link to the tracker (rows may reorder as the board moves: any row's).
  const trackedLink = page.getByRole('link', { name: /^Tracked: .*\. Open the bet tracker$/ }).first();
  await expect(trackedLink).toHaveAttribute('href', '/betting-tools/bet-tracker');
  const tracked = await storedBets(page);
  expect(tracked).toHaveLength(2);
  expect(tracked.map((bet) => bet.kind)).toEqual(['middle', 'middle']);
  expect(tracked[0]!.group).toBe(tracked[1]!.group);
  expect(new Set(tracked.map((bet) => bet.event_id)).size).toBe(1);

  // The tracker: two open legs, graded from the results once the game is final.
  await trackedLink.click();
  await expect(page).toHaveURL(/\/betting-tools\/bet-tracker$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bet tracker' })).toBeVisible();
  await expect(betItems(page)).toHaveCount(2);
  await expect(page.getByText('Demo: these games and scores come from the simulator')).toBeVisible();
  await expect(async () => {
    await page.getByRole('button', { name: 'Check results now' }).click();
    await expect(page.getByTestId('bet-status').filter({ hasText: 'Open' })).toHaveCount(0, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 240_000, intervals: [10_000] });

  // Each leg graded as the rules grade it against the final the public feed carries.
  const settled = await storedBets(page);
  const feed = ResultsFeedSchema.parse(await (await page.request.get(`${origin}/tools/results.json`)).json());
  const game = feed.games.find((candidate) => candidate.event_id === settled[0]!.event_id)!;
  expect(game).toBeDefined();
  let profit = 0;
  for (const bet of settled) {
    const homeLine = bet.outcome === 'away' && bet.line !== null ? -bet.line : bet.line;
    // A middle's legs are spreads or totals of the game.
    const type = bet.market as 'spread' | 'total';
    const result = gradeGameMarket({ type, period: bet.period, point: homeLine }, bet.outcome!, {
      periods: game.periods,
    });
    const money = settle(bet.stake as Cents, bet.decimal_odds, result);
    expect(bet.settlement).toMatchObject({
      result,
      payout: money.payout,
      profit: money.profit,
      settled_by: 'results',
    });
    profit += money.profit;
  }
  const summary = page.getByTestId('summary');
  const signed = (cents: number) =>
    `${cents > 0 ? '+' : cents < 0 ? '−' : ''}${(Math.abs(cents) / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' })}`;
  await expect(summary).toContainText(`Profit${signed(profit)}`);
  await expect(summary).toContainText('2 settled');
  await expect(page.getByRole('img', { name: /Cumulative profit of the settled bets/ })).toBeVisible();
  expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);

  // Export both files.
  const exported = async (name: string) => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name }).click(),
    ]);
    return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
  };
  const csv = await exported('Export CSV');
  const json = await exported('Export JSON');
  expect(csv.name).toMatch(/^sharpline-bets-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(json.name).toMatch(/\.json$/);

  // A cleared browser gets them back from the CSV, as they were; the JSON then adds nothing twice.
  await page.evaluate(() => localStorage.removeItem('sharpline.trackedBets'));
  await page.reload();
  await expect(page.getByText('No bets tracked yet.')).toBeVisible();
  const input = page.getByTestId('import-file');
  await input.setInputFiles({ name: csv.name, mimeType: 'text/csv', buffer: Buffer.from(csv.text) });
  await expect(
    page.getByRole('status').filter({ hasText: `Imported 2 bets from ${csv.name}.` }),
  ).toBeVisible();
  expect(await storedBets(page)).toEqual(settled);
  await input.setInputFiles({
    name: json.name,
    mimeType: 'application/json',
    buffer: Buffer.from(json.text),
  });
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `Imported 0 bets from ${json.name}; 2 already tracked, not added again.` }),
  ).toBeVisible();
  await expect(betItems(page)).toHaveCount(2);

  // A bad file says why and changes nothing.
  const broken = json.text.replace(/"decimal_odds": [\d.]+/, '"decimal_odds": 0.5');
  await input.setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(broken),
  });
  await expect(
    page.getByRole('alert').filter({
      hasText:
        'Nothing imported from broken.json: Bet 1: decimal_odds is not valid (it must be more than 1).',
    }),
  ).toBeVisible();
  expect(await storedBets(page)).toEqual(settled);
});

test('a bet typed by hand is checked, added as open, and the page is axe clean at 390 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${origin}/betting-tools/bet-tracker`);
  await page.getByText('Add a bet by hand').click();
  await page.getByLabel('Away team', { exact: true }).fill('Buffalo Bills');
  await page.getByLabel('Home team', { exact: true }).fill('Kansas City Chiefs');
  await page.getByLabel('Game date', { exact: true }).fill('2026-11-22');
  await page.getByLabel('Market', { exact: true }).selectOption('total');
  await page.getByLabel('Side', { exact: true }).selectOption('over');
  await page.getByLabel('Line of your side', { exact: true }).fill('44.5');
  await page.getByLabel(/^Price/).fill('abc');
  await page.getByLabel('Stake ($)', { exact: true }).fill('50');
  await page.getByRole('button', { name: 'Add bet' }).click();
  await expect(page.getByRole('alert')).toHaveText('Type the price as American, e.g. -110 or +150.');
  await page.getByLabel(/^Price/).fill('-110');
  await page.getByRole('button', { name: 'Add bet' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Added: Over 44.5, Buffalo Bills @ Kansas City Chiefs.' }),
  ).toBeVisible();
  const item = betItems(page).filter({ hasText: 'Over 44.5' });
  await expect(item).toContainText('Open');
  await expect(item).toContainText('$50.00');
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(390);
  expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
});

test('a parlay typed by hand, with a player prop leg, grades itself from the results and their box score', async ({
  page,
}) => {
  // The early games are final by now (the first test waited for them): two of them, one with a box score.
  const feed = ResultsFeedSchema.parse(await (await page.request.get(`${origin}/tools/results.json`)).json());
  const early = feed.games.filter((game) => game.league === 'nfl' && EARLY_HOMES.includes(game.home_team));
  const boxed = early.find((game) =>
    game.players?.some((player) => player.periods?.full && overUnderStat(player.periods.full) !== undefined),
  );
  expect(boxed).toBeDefined();
  const other = early.find((game) => game.event_id !== boxed!.event_id)!;
  expect(other).toBeDefined();
  const player = boxed!.players!.find(
    (one) => one.periods?.full && overUnderStat(one.periods.full) !== undefined,
  )!;
  const stat = overUnderStat(player.periods!.full!)!;
  const figure = player.periods!.full![stat]!;

  await page.goto(`${origin}/betting-tools/bet-tracker`);
  await page.getByText('Add a bet by hand').click();
  await page.getByRole('radio', { name: /^Parlay/ }).check();
  // Leg 1: the player's stat over half a point under his figure (won), typed with his name in lower case.
  await page.getByLabel('League', { exact: true }).selectOption('nfl');
  await page.getByLabel('Game date', { exact: true }).fill(boxed!.commence_time.slice(0, 10));
  await page.getByLabel('Away team', { exact: true }).fill(boxed!.away_team);
  await page.getByLabel('Home team', { exact: true }).fill(boxed!.home_team);
  await page.getByLabel('Market', { exact: true }).selectOption('prop');
  await page.getByLabel('Player', { exact: true }).fill(player.name.toLowerCase());
  await page.getByLabel('Stat', { exact: true }).selectOption(stat);
  await page.getByLabel('Side', { exact: true }).selectOption('over');
  await page.getByLabel('Line of your side', { exact: true }).fill(String(figure - 0.5));
  await page.getByLabel('Leg price (optional)', { exact: true }).fill('-110');
  await page.getByRole('button', { name: 'Add leg' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Leg 1 added:/ })).toBeVisible();
  // Leg 2: the other game's moneyline, on the side that won it (a tie: a push, the leg drops out), at +120.
  const full = other.periods.full!;
  const side = full.home >= full.away ? 'home' : 'away';
  await page.getByLabel('Away team', { exact: true }).fill(other.away_team);
  await page.getByLabel('Home team', { exact: true }).fill(other.home_team);
  await page.getByLabel('Market', { exact: true }).selectOption('moneyline');
  await page.getByLabel('Side', { exact: true }).selectOption(side);
  await page.getByLabel('Leg price (optional)', { exact: true }).fill('+120');
  await page.getByRole('button', { name: 'Add leg' }).click();
  await expect(page.getByRole('list', { name: 'Parlay legs' }).getByRole('listitem')).toHaveCount(2);
  await page.getByLabel(/^Parlay price/).fill('+264');
  await page.getByLabel('Stake ($)', { exact: true }).fill('20');
  await page.getByRole('button', { name: 'Add parlay' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added: 2-leg parlay at +264.' })).toBeVisible();

  // It grades itself from the results (the page checks them when a bet is added).
  const item = betItems(page).filter({ hasText: '2-leg parlay' });
  await expect(item.getByTestId('bet-status')).not.toHaveText('Open', { timeout: 60_000 });
  const [ticket] = (await storedBets(page)).filter((bet) => bet.kind === 'parlay');
  const second = gradeGameMarket({ type: 'moneyline', period: 'full', point: null }, side, {
    periods: other.periods,
  });
  expect(second).not.toBe('lost');
  expect(ticket!.legs!.map((leg) => leg.result)).toEqual(['won', second]);
  const money = settleTicket(2_000 as Cents, 3.64, [
    { result: 'won', decimal: ticket!.legs![0]!.decimal_odds! },
    { result: second, decimal: 2.2 },
  ])!;
  expect(money.profit).toBeGreaterThan(0);
  expect(ticket!.settlement).toMatchObject({
    result: money.result,
    payout: money.payout,
    profit: money.profit,
    settled_by: 'results',
  });
  await expect(item.getByRole('list', { name: 'Legs of 2-leg parlay' })).toContainText('Won');
  await expect(page.getByRole('table', { name: 'By kind' })).toContainText('Parlay');
  expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
});

test('Grade with your API key: a refused key is said in words; a Pro key from the operators’ route grades', async ({
  page,
}) => {
  // A home moneyline of a final early game, tracked as from a row (with its event id).
  const feed = ResultsFeedSchema.parse(await (await page.request.get(`${origin}/tools/results.json`)).json());
  const game = feed.games.find((one) => one.league === 'nfl' && EARLY_HOMES.includes(one.home_team))!;
  const base: Omit<TrackedBet, 'id'> = {
    group: null,
    kind: 'ev',
    placed_at: game.commence_time,
    ...homeMoneylineOf(game),
    book: 'fanduel',
    decimal_odds: 2.1,
    american_odds: '+110',
    stake: 10_000,
    settlement: null,
  };
  const bet = { id: betId(base), ...base };
  await page.addInitScript(
    (stored) => {
      if (localStorage.getItem('sharpline.trackedBets') === null)
        localStorage.setItem('sharpline.trackedBets', stored);
    },
    JSON.stringify([bet]),
  );
  await page.goto(`${origin}/betting-tools/bet-tracker`);
  const status = page.getByTestId('bet-status');
  await expect(status).toContainText('by the results');
  const result = gradeGameMarket({ type: 'moneyline', period: 'full', point: null }, 'home', {
    periods: game.periods,
  });

  // A key the server does not know: the page says so, forgets it, and the bet stays as the results graded it.
  const useKey = async (key: string) => {
    await page.evaluate((value) => sessionStorage.setItem('sharpline.accountKey', value), key);
    await page.reload();
  };
  await useKey('sl_live_AbCdEf0123456789AbCdEf0123456789');
  await page.getByRole('button', { name: 'Grade with your API key' }).click();
  await expect(page.getByTestId('key-box')).toContainText(
    /Your key was not accepted: .+ The page shows the free view\./,
  );
  await expect(page.getByRole('button', { name: 'Grade with your API key' })).toHaveCount(0);
  // Graded by the results with the public close (decision 289): this server records no history, so the game has no
  // close, and the bet says so (never a CLV of 0); the API, below, gives the same null.
  expect((await storedBets(page))[0]!.settlement).toMatchObject({
    result,
    settled_by: 'results',
    clv_pct: null,
  });
  await expect(status).toContainText('CLV: no close');

  // A Pro key made as `npm run keys` makes one: the API grades the bet (no CLV here: this server records no history).
  await useKey(await createE2eKey(origin, 'pro'));
  await page.getByRole('button', { name: 'Grade with your API key' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The API graded 1 of 1 bet' })).toBeVisible();
  await expect(status).toContainText('by the API');
  await expect(status).toContainText('CLV: no close');
  const money = settle(10_000 as Cents, 2.1, result);
  expect((await storedBets(page))[0]!.settlement).toMatchObject({
    result,
    payout: money.payout,
    profit: money.profit,
    clv_pct: null,
    settled_by: 'api',
  });
});

/** The first over/under NFL prop stat of a player's figures. */
function overUnderStat(figures: Partial<Record<PropStatKey, number>>): PropStatKey | undefined {
  return (Object.keys(figures) as PropStatKey[]).find(
    (stat) => PROP_CATALOGUE.nfl.find((def) => def.key === stat)?.kind === 'over_under',
  );
}
