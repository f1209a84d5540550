import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betId, gradeRequestBet, legClvPct, type ParlayLeg, type TrackedBet } from '#domain/bet-tracker.ts';
import { GradeResponseSchema, type GradeResponse } from '#domain/schemas/api/scores.ts';
import { ResultsFeedSchema, type ResultsFeedGame } from '#domain/schemas/results-feed.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/support/browser.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { testConfig } from '#tests/support/server/config.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { homeMoneylineOf } from '#tests/support/tracked-bets.ts';

// The bet tracker page grading bets with CLV (issue 57, decision 289) against a real server: the app is built with the
// real site, prices and a final go through the engine's intake, the app's own history writer keeps the closing lines,
// and Chromium opens /betting-tools/bet-tracker over HTTP with three open bets in its storage (as tracked from a
// finder row, and one prop typed with a misspelt player). The page reads /tools/results.json and /tools/closing.json
// and must show each graded bet with the CLV POST /v1/grade answers for it, "no close" for the one without a close,
// and the misspelt player's message, at a phone's width and a desktop's, nothing scrolling sideways, axe clean.
// (tests/e2e/bet-tracker.spec.ts runs the simulator, whose server has no history and so no close.)

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let browser: Browser;
let origin: string;
let bets: TrackedBet[];
let graded: GradeResponse['results'];
let board: HandBoard;
/** `later`: priced (moneyline −110 both ways at both books: its fair close 0.5), started, final only in the last test. */
let later: BoardEvent;
/** A parlay lost on its first leg (`game`'s away side) while `later` is in play (decision 297). */
let lostEarly: TrackedBet;

beforeAll(async () => {
  app = await buildTestApp({ config: testConfig(), now: clock.now });
  await app.ready();
  board = new HandBoard(app, clock, 'bt');
  const game = board.addEvent({ startsInMs: 60_000 });
  later = board.addEvent({ startsInMs: 60_000 });
  board.roster(game, [{ id: 'bt-hale', name: 'Marcus Hale', team: 'home' }]);
  for (const [book, home, away] of [
    ['fanduel', -150, 130],
    ['draftkings', -160, 136],
  ] as const) {
    board.price(game, book, 'moneyline', 'home', home);
    board.price(game, book, 'moneyline', 'away', away);
    board.price(later, book, 'moneyline', 'home', -110);
    board.price(later, book, 'moneyline', 'away', -110);
    board.price(game, book, 'spread', 'home', -112, { point: -3.5 });
    board.price(game, book, 'spread', 'away', -108, { point: 3.5 });
    for (const [outcome, american] of [
      ['over', -125],
      ['under', 105],
    ] as const)
      board.price(game, book, 'prop', outcome, american, {
        stat: 'player_points',
        player: { id: 'bt-hale' },
        point: 25.5,
      });
  }
  clock.advance(61_000);
  board.start(game);
  board.start(later);
  clock.advance(1_000);
  expect(
    app.engine.ingest({
      kind: 'score',
      sourceEventId: game.source,
      status: 'final',
      home: 110,
      away: 104,
      periods: { h1: { home: 55, away: 50 }, full: { home: 110, away: 104 } },
      players: { 'bt-hale': { full: { player_points: 28 } } },
    }),
  ).toBe(true);
  board.end(game);
  await board.flush();
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const feed = ResultsFeedSchema.parse(await (await fetch(`${origin}/tools/results.json`)).json());
  const final = feed.games.find((one) => one.event_id === game.id)!;
  bets = [
    tracked(final, { selection: `${final.home_team} moneyline`, decimal_odds: 1.7, american_odds: '-143' }),
    tracked(final, {
      market: 'prop',
      line: 25.5,
      outcome: 'over',
      selection: 'Marcus Hale Points Over 25.5',
      prop: { stat: 'player_points', player: 'Marcus Hale', player_id: 'bt-hale' },
      decimal_odds: 1.9,
      american_odds: '-111',
    }),
    // A line no book hung: graded, no close.
    tracked(final, {
      market: 'spread',
      line: -6.5,
      selection: `${final.home_team} -6.5`,
      decimal_odds: 2.4,
      american_odds: '+140',
    }),
    // Typed by hand with the player misspelt: stays open, with the message.
    tracked(final, {
      kind: 'manual',
      event_id: null,
      market: 'prop',
      line: 25.5,
      outcome: 'over',
      selection: 'Marcus Hail Points Over 25.5',
      prop: { stat: 'player_points', player: 'Marcus Hail', player_id: null },
      decimal_odds: 1.9,
      american_odds: '-111',
    }),
  ];
  const laterEvent = app.engine.store.event(later.id)!;
  const legOf = (bet: TrackedBet, decimal: number): ParlayLeg => ({
    ...homeMoneylineOf(final),
    event_id: bet.event_id,
    home: bet.home,
    away: bet.away,
    starts_at: bet.starts_at,
    outcome: bet.outcome!,
    selection: bet.selection,
    decimal_odds: decimal,
    result: null,
  });
  const awaySide = tracked(final, { outcome: 'away', selection: final.away_team });
  const laterHome = tracked(final, {
    event_id: later.id,
    home: laterEvent.home.name,
    away: laterEvent.away.name,
    starts_at: new Date(later.startsAt).toISOString(),
    selection: laterEvent.home.name,
  });
  lostEarly = tracked(final, {
    kind: 'parlay',
    market: 'parlay',
    event_id: null,
    home: '',
    away: '',
    starts_at: null,
    outcome: null,
    selection: '2-leg parlay',
    decimal_odds: 5.2,
    american_odds: '+420',
    legs: [legOf(awaySide, 2.6), legOf(laterHome, 1.95)],
  });
  // What the API answers a Pro key for the first three (the fourth has no event id: the API cannot be sent it).
  const answer = await fetch(`${origin}/v1/grade`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': await createKey(app, 'pro') },
    body: JSON.stringify({ bets: bets.slice(0, 3).map(gradeRequestBet) }),
  });
  graded = GradeResponseSchema.parse(await answer.json()).results;
  lostAnswer = await gradeLostEarly();
  // Chromium's singleton socket goes under its TMPDIR: a worker's nested test temp folders make that path longer than
  // a socket's may be (it aborts, "Socket path too long") when this file runs after others in one worker.
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    env: { ...process.env, TMPDIR: '/tmp' },
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

function tracked(game: ResultsFeedGame, extra: Partial<TrackedBet>): TrackedBet {
  const base: Omit<TrackedBet, 'id'> = {
    group: null,
    kind: 'ev',
    placed_at: '2026-11-22T11:00:00.000Z',
    ...homeMoneylineOf(game),
    selection: 'a side',
    book: 'fanduel',
    decimal_odds: 2,
    american_odds: '+100',
    stake: 10_000,
    settlement: null,
    ...extra,
  };
  return { id: betId(base), ...base };
}

const pct = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(2)}%`;

/** What POST /v1/grade answered for the parlay lost early (read in beforeAll). */
let lostAnswer: GradeResponse['results'][number] | undefined;
const lostApi = () => lostAnswer!;

async function gradeLostEarly(): Promise<GradeResponse['results'][number]> {
  const answer = await fetch(`${origin}/v1/grade`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': await createKey(app, 'pro') },
    body: JSON.stringify({ bets: [gradeRequestBet(lostEarly)] }),
  });
  return GradeResponseSchema.parse(await answer.json()).results[0]!;
}

describe('the bet tracker page grading with CLV from the public close', () => {
  it('the API gave the first two a CLV (not round), the third none', () => {
    expect(graded.map((r) => r.status)).toEqual(['graded', 'graded', 'graded']);
    expect(graded[0]!.clv_pct).not.toBeNull();
    expect(graded[1]!.clv_pct).not.toBeNull();
    expect(graded[2]!.clv_pct).toBeNull();
  });

  for (const width of [390, 1280]) {
    it(`at ${width} px: each graded bet shows the API's CLV, "no close" when none, the misspelt player's message; axe clean`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await context.addInitScript(
        (stored) => {
          if (!localStorage.getItem('sharpline.trackedBets'))
            localStorage.setItem('sharpline.trackedBets', stored);
        },
        JSON.stringify([...bets, lostEarly]),
      );
      const page = await context.newPage();
      try {
        await page.goto(`${origin}/betting-tools/bet-tracker`);
        await page.getByRole('heading', { level: 1, name: 'Bet tracker' }).waitFor();
        const item = (bet: TrackedBet) => page.locator(`[data-bet="${bet.id}"]`);
        for (const [k, result] of graded.entries()) {
          const status = item(bets[k]!).getByTestId('bet-status');
          await expect
            .poll(() => status.innerText(), { timeout: 30_000 })
            .toContain(result.clv_pct === null ? 'CLV: no close' : `CLV ${pct(result.clv_pct)}`);
          expect(await status.innerText()).toContain(result.result === 'won' ? 'Won' : 'Lost');
        }
        // The misspelt player: open, with the message naming the player close to it.
        const typo = item(bets[3]!);
        expect(await typo.getByTestId('bet-status').innerText()).toBe('Open');
        expect(await typo.getByTestId('bet-issue').innerText()).toBe(
          'No player named “Marcus Hail” in this game’s box score — check the spelling (close: Marcus Hale); the bet stays open.',
        );
        // The parlay lost early: lost at once; its first leg shows its close and its own CLV, as the API's leg; the
        // ticket has the API's CLV already, `later` having started (decision 310: its close is public once in play).
        const parlay = item(lostEarly);
        await expect
          .poll(() => parlay.getByTestId('bet-status').innerText())
          .toContain(`CLV ${pct(lostApi().clv_pct!)}`);
        expect(await parlay.getByTestId('bet-status').innerText()).toContain('Lost');
        // The summary averages the three CLVs known.
        const average = (graded[0]!.clv_pct! + graded[1]!.clv_pct! + lostApi().clv_pct!) / 3;
        const summary = await page.getByTestId('summary').innerText();
        expect(summary).toContain(pct(Math.round(average * 100) / 100));
        expect(summary).toContain('of 3 bets with a close');
        const legs = parlay.getByRole('list', { name: 'Legs of 2-leg parlay' }).getByRole('listitem');
        const firstClose = lostApi().legs[0]!;
        expect(await legs.nth(0).innerText()).toContain(
          `Lost · close ${(firstClose.fair_closing_probability! * 100).toFixed(1)}% · CLV ${pct(firstClose.clv_pct!)}`,
        );
        expect(await legs.nth(1).innerText()).toMatch(/ · Open$/);
        await page.screenshot({
          path: `${process.env.TRACKER_SHOTS ?? '/tmp'}/bet-tracker-clv-${width}.png`,
          fullPage: true,
        });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        expect((await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('the parlay lost early keeps the ticket’s CLV once its other game has ended, the API’s to the digit', async () => {
    // The API: lost, the first leg's close and CLV, and (the other game having started) the ticket's CLV already.
    expect(lostApi()).toMatchObject({ status: 'graded', result: 'lost' });
    expect(lostApi().legs[1]).toMatchObject({ status: 'pending', fair_closing_probability: 0.5 });
    expect(lostApi().clv_pct).not.toBeNull();
    board.final(later, 99, 97);
    board.end(later);
    await board.flush();
    clock.advance(16_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(
      (stored) => {
        if (!localStorage.getItem('sharpline.trackedBets'))
          localStorage.setItem('sharpline.trackedBets', stored);
      },
      JSON.stringify([lostEarly]),
    );
    const page = await context.newPage();
    try {
      await page.goto(`${origin}/betting-tools/bet-tracker`);
      const parlay = page.locator(`[data-bet="${lostEarly.id}"]`);
      const again = await gradeLostEarly();
      await expect
        .poll(() => parlay.getByTestId('bet-status').innerText(), { timeout: 30_000 })
        .toContain(`CLV ${pct(again.clv_pct!)}`);
      expect(again.clv_pct).toBe(lostApi().clv_pct);
      const legs = parlay.getByRole('list', { name: 'Legs of 2-leg parlay' }).getByRole('listitem');
      // The home side won 99–97 and closed at 0.5: 1.95 × 0.5 − 1 = −2.5 %, the API's leg CLV.
      expect(again.legs[1]).toMatchObject({ result: 'won', clv_pct: -2.5 });
      expect(await legs.nth(1).innerText()).toContain('Won · close 50.0% · CLV -2.50%');
      const stored = (await page.evaluate(() => localStorage.getItem('sharpline.trackedBets')))!;
      const [kept] = JSON.parse(stored) as TrackedBet[];
      expect(kept!.settlement).toMatchObject({
        result: 'lost',
        clv_pct: again.clv_pct,
        settled_by: 'results',
      });
      expect(kept!.legs!.map(legClvPct)).toEqual(again.legs.map((leg) => leg.clv_pct));
      expect(await page.getByTestId('summary').innerText()).toContain('of 1 bet with a close');
      await page.screenshot({
        path: `${process.env.TRACKER_SHOTS ?? '/tmp'}/bet-tracker-parlay-closed-1280.png`,
        fullPage: true,
      });
    } finally {
      await context.close();
    }
  });
});
