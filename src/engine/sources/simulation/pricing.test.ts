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
