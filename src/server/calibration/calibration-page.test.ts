import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalibrationReportSchema, type CalibrationReport } from '#domain/schemas/calibration.ts';
import { isSportsbookKey, SPORTSBOOKS } from '#domain/sportsbooks.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/support/browser.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { testConfig } from '#tests/support/server/config.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';

// The calibration report page (issue 57, decisions 266 and 283) with the figures a real server computed: the app is
// built with the real site, prices and finals of 24 games go through the engine's intake, the app's own history writer
// keeps their closing lines and results, and Chromium opens /betting-tools/calibration over HTTP. The page must show
// the report the server answers at /tools/calibration.json (nothing stands in for it), at a phone's width and a
// desktop's, with nothing scrolling sideways and no axe violation. tests/e2e/calibration.spec.ts covers the menu and
// the empty state against the e2e server, which has no finished game.

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let browser: Browser;
let origin: string;
let report: CalibrationReport;

/** Home and away moneylines of a game, from the favourite's −300 to the underdog's +250 (a margin on each side). */
const MONEYLINES: [number, number][] = [
  [-300, 240],
  [-200, 170],
  [-150, 130],
  [-125, 105],
  [105, -125],
  [130, -150],
  [170, -200],
  [240, -300],
];

beforeAll(async () => {
  app = await buildTestApp({ config: testConfig(), now: clock.now });
  await app.ready();
  const board = new HandBoard(app, clock, 'cp');
  const games: { event: BoardEvent; home: number; away: number }[] = [];
  // 16 NBA games (moneyline, spread −4.5 and total 220.5) and 8 NHL games (moneyline): results spread over the outcomes.
  for (let n = 0; n < 24; n += 1) {
    const league = n < 16 ? 'nba' : 'nhl';
    const event = board.addEvent({ startsInMs: 60_000, league });
    const [home, away] = MONEYLINES[n % MONEYLINES.length]!;
    for (const [book, lean] of [
      ['fanduel', 0],
      ['draftkings', 5],
      ['betmgm', -5],
    ] as const) {
      board.price(event, book, 'moneyline', 'home', home + (home > 0 ? lean : -lean));
      board.price(event, book, 'moneyline', 'away', away + (away > 0 ? -lean : lean));
      if (league === 'nba') {
        board.price(event, book, 'spread', 'home', -110 + lean, { point: -4.5 });
        board.price(event, book, 'spread', 'away', -110 - lean, { point: 4.5 });
        board.price(event, book, 'total', 'over', -108 - lean, { point: 220.5 });
        board.price(event, book, 'total', 'under', -112 + lean, { point: 220.5 });
      }
    }
    const homeWins = (n * 7) % 10 < 6;
    const margin = 1 + ((n * 5) % 9);
    const base = league === 'nba' ? 100 + ((n * 13) % 30) : 1 + (n % 3);
    games.push({
      event,
      home: homeWins ? base + margin : base,
      away: homeWins ? base : base + (league === 'nba' ? margin : 1),
    });
  }
  clock.advance(61_000);
  for (const { event } of games) board.start(event);
  clock.advance(1_000);
  for (const { event, home, away } of games) board.final(event, home, away);
  for (const { event } of games) board.end(event);
  await board.flush();
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The report as the server computed it, and keeps for minutes: what the page is asked to show.
  const answer = await fetch(`${origin}/tools/calibration.json`);
  expect(answer.status).toBe(200);
  report = CalibrationReportSchema.parse(await answer.json());
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const MARKET_NAMES: Record<string, string> = { moneyline: 'Moneyline', spread: 'Spread', total: 'Total' };
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

describe('the calibration page against a server whose history holds finished games', () => {
  it('the server computed figures from the history: both leagues, every market type, every book', () => {
    expect(report.events).toBe(24);
    expect(report.groups.map((group) => `${group.league} ${group.market_type}`).sort()).toEqual([
      'nba moneyline',
      'nba spread',
      'nba total',
      'nhl moneyline',
    ]);
    for (const group of report.groups)
      expect(group.books.map((book) => book.book).sort()).toContain('fanduel');
  });

  for (const width of [390, 1280]) {
    it(`at ${width} px: the summary, the reliability table and the books show the server's report; nothing scrolls sideways; axe clean`, async () => {
      // A context of its own (axe runs in a page of its context).
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${origin}/betting-tools/calibration`);
        await page.getByRole('heading', { level: 1, name: 'Calibration report' }).waitFor();
        const summary = page.getByRole('region', { name: 'Summary by league and market' });
        await summary.getByRole('row').nth(report.groups.length).waitFor();
        const rows = await summary.getByRole('row').allInnerTexts();
        expect(rows).toHaveLength(report.groups.length + 1);
        report.groups.forEach((group, i) => {
          const cells = rows[i + 1]!.split('\t').map((cell) => cell.trim());
          expect(cells).toEqual([
            `${group.league_name} ${MARKET_NAMES[group.market_type]}`,
            String(group.markets),
            String(group.forecasts),
            group.brier.toFixed(4),
            group.log_loss.toFixed(4),
          ]);
        });
        expect(await page.getByText(`${report.events} finished games`).count()).toBe(1);

        // Each group's detail: its bins and its books, as the server computed them.
        for (const group of report.groups) {
          const name = `${group.league_name} ${MARKET_NAMES[group.market_type]}`;
          await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: name });
          await page.getByRole('heading', { name: `Detail: ${name}` }).waitFor();
          const bins = await page
            .getByRole('region', { name: `Reliability table, ${name}` })
            .getByRole('row')
            .allInnerTexts();
          expect(bins.slice(1).map((row) => row.split('\t').map((cell) => cell.trim()))).toEqual(
            group.bins.map((bin) => [
              `${Math.round(bin.from * 100)}–${Math.round(bin.to * 100)}%`,
              String(bin.forecasts),
              bin.forecasts > 0 ? pct(bin.mean_fair) : '–',
              bin.forecasts > 0 ? pct(bin.observed) : '–',
            ]),
          );
          const books = page.getByRole('region', {
            name: `Brier score and log loss by sportsbook, ${name}`,
          });
          const bookRows = await books.getByRole('row').allInnerTexts();
          expect(bookRows.slice(1).map((row) => row.split('\t').map((cell) => cell.trim()))).toEqual(
            group.books.map((book) => [
              isSportsbookKey(book.book) ? SPORTSBOOKS[book.book].displayName : book.book,
              String(book.forecasts),
              book.brier.toFixed(4),
              book.fair_brier.toFixed(4),
              book.log_loss.toFixed(4),
              book.fair_log_loss.toFixed(4),
            ]),
          );
        }

        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
