import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { americanToDecimal, isValidAmerican, type AmericanOdds } from '#domain/odds.ts';
import { cdfAt, gameDistributions, probabilityOf } from '#domain/score-distributions.ts';
import { MODELS, plansFor } from './models.ts';
import { bookAmerican, bookOdds, fairProbabilities, mainLine } from './pricing.ts';

describe('bookAmerican', () => {
  it('rounds the exact American figure to an integer, or to fives beyond ±150 for books that do', () => {
    expect(bookAmerican(2.5, false)).toBe(150);
    expect(bookAmerican(1.5, false)).toBe(-200);
    expect(bookAmerican(1 + 100 / 110, true)).toBe(-110);
    expect(bookAmerican(3.53, false)).toBe(253);
    expect(bookAmerican(3.53, true)).toBe(255);
    expect(bookAmerican(1.66, true)).toBe(-150);
  });

  it('always quotes valid American odds', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.0001, max: 1000, noNaN: true }), fc.boolean(), (decimal, five) => {
        expect(isValidAmerican(bookAmerican(decimal, five))).toBe(true);
      }),
    );
  });
});

describe('fairProbabilities', () => {
  it("gives each market's outcomes probabilities that sum to one", () => {
    for (const league of ['nba', 'mlb', 'epl', 'nfl', 'nhl'] as const) {
      for (const plan of plansFor(league)) {
        // Before kick-off (the full game on the league's distributions) and in play (the live logistic), at the
        // market's main line.
        for (const live of [false, true]) {
          const fixture = { league, margin: 2, total: MODELS[league].total, live };
          const fair = fairProbabilities(fixture, MODELS[league], plan, mainLine(fixture, plan));
          expect(fair.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
          for (const p of fair) expect(p).toBeGreaterThan(0);
        }
      }
    }
  });

  it('prices a whole line with its push left out, and a 1X2 draw as the distribution’s tie', () => {
    const fixture = { league: 'nfl' as const, margin: 3, total: 44 };
    const spread = plansFor('nfl').find((p) => p.type === 'spread' && p.period === 'full')!;
    const game = gameDistributions('nfl', fixture);
    const homeMinus3 = fairProbabilities(fixture, MODELS.nfl, spread, -3)[1]!;
    const win = 1 - cdfAt(game.margin, 3);
    const lose = cdfAt(game.margin, 2);
    expect(homeMinus3).toBeCloseTo(win / (win + lose), 12);
    const soccer = { league: 'epl' as const, margin: 0, total: 2.6 };
    const x12 = plansFor('epl').find((p) => p.type === '1x2' && p.period === 'full')!;
    const [, draw] = fairProbabilities(soccer, MODELS.epl, x12, null);
    expect(draw).toBeCloseTo(probabilityOf(gameDistributions('epl', soccer).margin, 0), 12);
  });
});

describe('bookOdds', () => {
  it('keeps the book’s margin when an outcome is near sure: the cap’s excess goes onto the other side', () => {
    const profile = { margin: 0.04, lagSeconds: 5, roundToFive: false };
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 0.99999, noNaN: true }), fc.boolean(), (p, live) => {
        const odds = bookOdds([p, 1 - p], [0, 0], profile, live);
        const implied = odds.reduce(
          (sum, american) => sum + 1 / americanToDecimal(american as AmericanOdds),
          0,
        );
        // Rounding to whole American points moves it by well under half a point.
        expect(implied).toBeGreaterThan(1.035);
        expect(1 / americanToDecimal(odds[0]! as AmericanOdds)).toBeLessThanOrEqual(0.9851);
      }),
    );
  });
});

describe('first parts in play (decision 288)', () => {
  const h1Spread = { type: 'spread', period: 'h1' } as const;
  const h1Total = { type: 'total', period: 'h1' } as const;

  it('prices a half in play on its score so far plus the rest of it, not on the full game’s live model', () => {
    // NBA, pre-game even at 226; the first half nearly over (a tenth of its time left), the home side 62–50 up.
    // The full game's live model then expects the home side about 12 up and 226 − 112 + 112 points: a half priced on
    // it (half of it) would make home −4.5 a coin flip; on the half's own model it is all but won.
    const live = {
      league: 'nba' as const,
      margin: 12,
      total: 112 + 226 * 0.55,
      live: true,
      part: { period: 'h1' as const, pregame: { margin: 0, total: 226 }, home: 62, away: 50, left: 0.1 },
    };
    expect(fairProbabilities(live, MODELS.nba, h1Spread, -4.5)[1]).toBeGreaterThan(0.97);
    // 112 so far, 11.4 expected in the last tenth (σ 18·√0.05, 4 points): over 119.5 about 83 %, over 130.5 a longshot.
    const over = (line: number) => fairProbabilities(live, MODELS.nba, h1Total, line)[0]!;
    expect(over(119.5)).toBeGreaterThan(0.78);
    expect(over(119.5)).toBeLessThan(0.88);
    expect(over(130.5)).toBeLessThan(0.05);
    // Over: its score decides.
    const done = { ...live, part: { ...live.part, left: 0 } };
    expect(fairProbabilities(done, MODELS.nba, h1Spread, -11.5)[1]).toBe(1);
    expect(fairProbabilities(done, MODELS.nba, h1Spread, -12.5)[1]).toBe(0);
  });

  it('at kick-off, 0–0 with the whole part left, is about its pre-game price', () => {
    for (const [league, margin, total, plan, line] of [
      ['nba', 4, 226, h1Spread, -2.5],
      ['nfl', -3, 44, h1Total, 21.5],
      ['nhl', 0.3, 6, { type: 'total', period: 'p1' } as const, 1.5],
      ['epl', 0.4, 2.7, h1Total, 1.5],
    ] as const) {
      const pre = fairProbabilities({ league, margin, total }, MODELS[league], plan, line)[0]!;
      const part = { period: plan.period, pregame: { margin, total }, home: 0, away: 0, left: 1 };
      const inPlay = fairProbabilities(
        { league, margin, total, live: true, part },
        MODELS[league],
        plan,
        line,
      )[0]!;
      expect(Math.abs(inPlay - pre), league).toBeLessThan(0.03);
    }
  });

  it('moves a part’s price with its clock as the score stands, with no jump at a twentieth of its time (decision 293)', () => {
    // NBA, pre-game 4 at 226; the home side 30–26 up in the first half. Read to the twentieth above, the rest's
    // expectation fell by a twentieth of the half's total at once (5.7 points): over 78.5 fell from 83 % to 52 % as
    // the clock passed a fifth of the half left. Between two twentieths the price is now the time-weighted mix of theirs.
    const part = { period: 'h1' as const, pregame: { margin: 4, total: 226 }, home: 30, away: 26, left: 0.5 };
    const fixture = (left: number) => ({
      league: 'nba' as const,
      margin: 8,
      total: 170,
      live: true,
      part: { ...part, left },
    });
    const over = (left: number) => fairProbabilities(fixture(left), MODELS.nba, h1Total, 78.5)[0]!;
    let previous = over(0.25);
    for (let k = 1; k <= 400; k += 1) {
      const next = over(0.25 - k * 0.00025);
      // The clock runs down a four-hundredth of the half at a time: the over only falls, and by little each time.
      expect(next).toBeLessThanOrEqual(previous + 1e-12);
      expect(previous - next).toBeLessThan(0.01);
      previous = next;
    }
    expect(over(0.25) - over(0.15)).toBeGreaterThan(0.5);
    // At a twentieth exactly, that twentieth's price; between two, the mix of theirs.
    const home = (left: number) => fairProbabilities(fixture(left), MODELS.nba, h1Spread, -3.5)[1]!;
    expect(home(0.225)).toBeCloseTo((home(0.2) + home(0.25)) / 2, 12);
  });

  it('prices an NHL first period in play on the thinned part goals left: 1–0 with none left is 1 goal', () => {
    const part = { period: 'p1' as const, pregame: { margin: 0.2, total: 6 }, home: 1, away: 0, left: 0 };
    const fixture = { league: 'nhl' as const, margin: 1.2, total: 5.3, live: true, part };
    const p1Total = { type: 'total', period: 'p1' } as const;
    expect(fairProbabilities(fixture, MODELS.nhl, p1Total, 0.5)[0]).toBe(1);
    expect(fairProbabilities(fixture, MODELS.nhl, p1Total, 1.5)[0]).toBe(0);
    // Half the period left: over 1.5 is the chance of another goal in it, about 1 − e^(−0.9) at 0.3 × 6 × ½.
    const half = { ...fixture, part: { ...part, left: 0.5 } };
    const another = fairProbabilities(half, MODELS.nhl, p1Total, 1.5)[0]!;
    expect(another).toBeGreaterThan(0.45);
    expect(another).toBeLessThan(0.65);
  });
});
