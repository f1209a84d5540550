import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeagueKey } from './markets.ts';
import { normalCdf } from './mvn.ts';
import {
  poissonCdf,
  propCentre,
  propMeanFor,
  propMiddleChances,
  propSigma,
  propStatModel,
  PROP_STAT_MODELS,
  type PropStatModel,
} from './prop-middles.ts';
import { PROP_CATALOGUE } from './props.ts';
import { seededRandom } from './random.ts';
import { poissonDraw } from '#tests/support/sampling.ts';

// Player-prop middles' model (decision 189): the mean read off a de-vigged over, the centre of several books, and the
// chances of a middle, each against what the stated distribution says when sampled.

const POISSON: PropStatModel = { kind: 'poisson' };
const POINTS = propStatModel('nba', 'player_points')!;
const PASS_YARDS = propStatModel('nfl', 'player_pass_yds')!;

/** P(X > line) under the model at `mean`, X a whole number. */
function overChance(model: PropStatModel, mean: number, line: number): number {
  if (model.kind === 'poisson') return 1 - poissonCdf(Math.floor(line), mean);
  return 1 - normalCdf((Math.floor(line) + 0.5 - mean) / propSigma(model, mean));
}

/** One draw of the stat under the model (the normal discretised to whole numbers, floored where the model says). */
function draw(model: PropStatModel, mean: number, random: () => number): number {
  if (model.kind === 'poisson') return poissonDraw(mean, random);
  for (;;) {
    const u = Math.max(random(), 1e-12);
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    const x = Math.round(mean + propSigma(model, mean) * z);
    if (model.floor === undefined || x >= model.floor) return x;
  }
}

describe('player-prop middles', () => {
  it('has a model for every over/under stat the books list, and none for yes/no props', () => {
    expect(propStatModel('nba', 'player_points')).toMatchObject({ kind: 'normal' });
    expect(propStatModel('nhl', 'player_points')).toEqual({ kind: 'poisson' });
    expect(propStatModel('nfl', 'player_rush_yds')).toMatchObject({ kind: 'normal', floor: undefined });
    expect(propStatModel('nfl', 'player_anytime_td')).toBeUndefined();
    expect(propStatModel('nba', 'player_double_double')).toBeUndefined();
    for (const league of Object.keys(PROP_CATALOGUE) as LeagueKey[])
      for (const def of PROP_CATALOGUE[league])
        expect(propStatModel(league, def.key) !== undefined, `${league} ${def.key}`).toBe(
          def.kind === 'over_under',
        );
    for (const models of Object.values(PROP_STAT_MODELS))
      for (const model of Object.values(models))
        if (model.kind === 'normal') expect(model.dispersion).toBeGreaterThan(0);
  });

  it('reads the mean back from the chance of the over it gives (normal and Poisson)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(POISSON, POINTS, PASS_YARDS),
        fc.double({ min: 0.3, max: 1, noNaN: true }),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        (model, scale, shift) => {
          // A line near the mean, as books hang them.
          const mean = model === PASS_YARDS ? 150 + 200 * scale : model === POINTS ? 30 * scale : 8 * scale;
          const line = Math.max(0.5, Math.floor(mean + shift * Math.sqrt(mean)) + 0.5);
          const p = overChance(model, mean, line);
          fc.pre(p > 0.02 && p < 0.98);
          const found = propMeanFor(model, line, p)!;
          expect(found).toBeCloseTo(mean, 5);
        },
      ),
    );
  });

  it("takes the median of the books' estimates, and needs three books", () => {
    const quote = (book: string, line: number, mean: number) => {
      const p = overChance(POINTS, mean, line);
      // A 4.5 % margin on both sides, shared in proportion: the de-vig gives p back.
      return { book, line, over: 1 / (p * 1.045), under: 1 / ((1 - p) * 1.045) };
    };
    const quotes = [quote('a', 24.5, 25), quote('b', 25.5, 26), quote('c', 24.5, 27)];
    expect(propCentre(POINTS, quotes)).toBeCloseTo(26, 6);
    expect(propCentre(POINTS, quotes.slice(0, 2))).toBeUndefined();
    expect(propCentre(POINTS, [...quotes, quote('d', 26.5, 28)])).toBeCloseTo(26.5, 6);
  });

  it('gives the chances a Monte Carlo of the stated distribution finds', () => {
    const random = seededRandom(36);
    const cases: [PropStatModel, number, number, number][] = [
      [POINTS, 25.6, 24.5, 26.5],
      [POINTS, 25.6, 24, 27],
      [PASS_YARDS, 248, 244.5, 252.5],
      [propStatModel('nfl', 'player_rush_yds')!, 18, 14.5, 21.5],
      [POISSON, 2.6, 1.5, 3.5],
      [POISSON, 6.2, 5, 7],
    ];
    const n = 200_000;
    for (const [model, mean, high, low] of cases) {
      const chances = propMiddleChances(model, mean, high, low);
      let middle = 0;
      let pushHigh = 0;
      let pushLow = 0;
      for (let i = 0; i < n; i += 1) {
        const x = draw(model, mean, random);
        if (x > high && x < low) middle += 1;
        else if (x === high) pushHigh += 1;
        else if (x === low) pushLow += 1;
      }
      // Within 4 standard errors of the sampled shares.
      const close = (p: number, hits: number) =>
        expect(Math.abs(p - hits / n)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / n) + 1e-4);
      close(chances.middle, middle);
      close(chances.pushHigh, pushHigh);
      close(chances.pushLow, pushLow);
      expect(chances.middle + chances.pushHigh + chances.pushLow + chances.miss).toBeCloseTo(1, 12);
    }
  });

  it('refuses a pair that is no middle', () => {
    expect(() => propMiddleChances(POINTS, 25, 25.5, 26)).toThrow(RangeError);
    expect(() => propMiddleChances(POISSON, 2, 2.5, 2.5)).toThrow(RangeError);
  });
});
