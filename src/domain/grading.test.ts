import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  nearPlayers,
  unknownPlayerDetail,
  betClvPct,
  gradeGameMarket,
  gradeLine,
  GradingInputError,
  gradeProp,
  isQuarterLine,
  returnFactor,
  settle,
  settleParlay,
  type BoxScore,
  type GameResult,
  type GradeResult,
} from './grading.ts';
import type { GameMarketSpec } from './markets.ts';
import type { Cents } from './odds.ts';
import type { PropMarketSpec } from './props.ts';

const game = (home: number, away: number, extra: GameResult['periods'] = {}): GameResult => ({
  periods: { full: { home, away }, ...extra },
});
const spread = (point: number, period: GameMarketSpec['period'] = 'full'): GameMarketSpec => ({
  type: 'spread',
  period,
  point,
});
const total = (point: number): GameMarketSpec => ({ type: 'total', period: 'full', point });
const cents = (n: number) => n as Cents;

const OPPOSITE: Record<GradeResult, GradeResult> = {
  won: 'lost',
  lost: 'won',
  push: 'push',
  half_won: 'half_lost',
  half_lost: 'half_won',
  void: 'void',
};

const score = fc.integer({ min: 0, max: 160 });
/** Any line a book hangs: whole, half or quarter, from −40 to +40. */
const line = fc.integer({ min: -160, max: 160 }).map((q) => q / 4);

describe('gradeGameMarket: worked examples', () => {
  it('grades a moneyline by the winner and pushes a tie', () => {
    const ml = { type: 'moneyline', period: 'full', point: null } as const;
    expect(gradeGameMarket(ml, 'home', game(24, 17))).toBe('won');
    expect(gradeGameMarket(ml, 'away', game(24, 17))).toBe('lost');
    expect(gradeGameMarket(ml, 'home', game(20, 20))).toBe('push');
  });

  it('grades 1X2 with the draw as its own outcome, never a push', () => {
    const x = { type: '1x2', period: 'full', point: null } as const;
    expect(gradeGameMarket(x, 'draw', game(1, 1))).toBe('won');
    expect(gradeGameMarket(x, 'home', game(1, 1))).toBe('lost');
    expect(gradeGameMarket(x, 'away', game(0, 2))).toBe('won');
  });

  it('grades spreads on whole, half and quarter lines (home −3: 24–21 is a push)', () => {
    expect(gradeGameMarket(spread(-3), 'home', game(24, 21))).toBe('push');
    expect(gradeGameMarket(spread(-3), 'away', game(24, 21))).toBe('push');
    expect(gradeGameMarket(spread(-3.5), 'home', game(24, 21))).toBe('lost');
    expect(gradeGameMarket(spread(-3.5), 'away', game(24, 21))).toBe('won');
    // Home −0.25 = half on 0, half on −0.5: a draw refunds one half and loses the other.
    expect(gradeGameMarket(spread(-0.25), 'home', game(1, 1))).toBe('half_lost');
    expect(gradeGameMarket(spread(-0.25), 'away', game(1, 1))).toBe('half_won');
    // Home −0.75 = half on −0.5, half on −1: a one-goal win wins one half and refunds the other.
    expect(gradeGameMarket(spread(-0.75), 'home', game(2, 1))).toBe('half_won');
    expect(gradeGameMarket(spread(-0.75), 'home', game(3, 1))).toBe('won');
  });

  it('grades totals on whole, half and quarter lines (over 2.25 with 2 goals is half lost)', () => {
    expect(gradeGameMarket(total(44), 'over', game(24, 20))).toBe('push');
    expect(gradeGameMarket(total(44.5), 'under', game(24, 20))).toBe('won');
    expect(gradeGameMarket(total(2.25), 'over', game(1, 1))).toBe('half_lost');
    expect(gradeGameMarket(total(2.75), 'over', game(2, 1))).toBe('half_won');
    expect(gradeGameMarket(total(2.75), 'under', game(2, 1))).toBe('half_lost');
  });

  it('grades a period on its own score and voids a period the game did not play', () => {
    const result = game(5, 3, { f5: { home: 1, away: 2 }, q1: { home: 7, away: 7 } });
    expect(gradeGameMarket(spread(-0.5, 'f5'), 'away', result)).toBe('won');
    expect(gradeGameMarket({ type: 'moneyline', period: 'q1', point: null }, 'home', result)).toBe('push');
    expect(gradeGameMarket(spread(1.5, 'h1'), 'home', result)).toBe('void');
  });

  it('refuses a side the market does not have, a missing line and a line off the quarter grid', () => {
    const err = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error instanceof GradingInputError ? error.code : 'other';
      }
      return 'none';
    };
    expect(err(() => gradeGameMarket(total(44.5), 'home', game(1, 0)))).toBe('outcome_not_in_market');
    expect(
      err(() => gradeGameMarket({ type: 'spread', period: 'full', point: null }, 'home', game(1, 0))),
    ).toBe('line_required');
    expect(err(() => gradeGameMarket(total(44.3), 'over', game(1, 0)))).toBe('invalid_line');
    expect(
      err(() => gradeGameMarket({ type: 'moneyline', period: 'full', point: 1 }, 'home', game(1, 0))),
    ).toBe('line_not_allowed');
  });
});

describe('gradeGameMarket: laws', () => {
  it('gives the two sides of a spread or total opposite results on every line', () => {
    fc.assert(
      fc.property(score, score, line, (home, away, point) => {
        const result = game(home, away);
        const h = gradeGameMarket(spread(point), 'home', result);
        expect(gradeGameMarket(spread(point), 'away', result)).toBe(OPPOSITE[h]);
        const t = Math.abs(point);
        const over = gradeGameMarket(total(t), 'over', result);
        expect(gradeGameMarket(total(t), 'under', result)).toBe(OPPOSITE[over]);
      }),
    );
  });

  it('never pushes or splits a half line', () => {
    fc.assert(
      fc.property(score, score, fc.integer({ min: -40, max: 40 }), (home, away, whole) => {
        const r = gradeGameMarket(spread(whole + 0.5), 'home', game(home, away));
        expect(['won', 'lost']).toContain(r);
      }),
    );
  });

  it('pays a quarter line what its two half stakes on the neighbouring lines pay together', () => {
    fc.assert(
      fc.property(
        score,
        score,
        fc.integer({ min: -40, max: 40 }),
        fc.boolean(),
        fc.integer({ min: 101, max: 1000 }),
        (home, away, whole, up, odds) => {
          const point = whole + (up ? 0.25 : 0.75);
          const decimal = odds / 100;
          const result = game(home, away);
          const quarter = returnFactor(gradeGameMarket(spread(point), 'home', result), decimal);
          const low = returnFactor(gradeGameMarket(spread(point - 0.25), 'home', result), decimal);
          const high = returnFactor(gradeGameMarket(spread(point + 0.25), 'home', result), decimal);
          expect(quarter).toBeCloseTo((low + high) / 2, 12);
        },
      ),
    );
  });

  it('lets exactly one 1X2 outcome win', () => {
    fc.assert(
      fc.property(score, score, (home, away) => {
        const x = { type: '1x2', period: 'full', point: null } as const;
        const wins = (['home', 'draw', 'away'] as const).filter(
          (o) => gradeGameMarket(x, o, game(home, away)) === 'won',
        );
        expect(wins).toHaveLength(1);
      }),
    );
  });

  it('tells a quarter line from whole and half lines', () => {
    expect([0.25, -0.75, 2.25, 2.75].map(isQuarterLine)).toEqual([true, true, true, true]);
    expect([0, -0.5, 2, 2.5, -3].map(isQuarterLine)).toEqual([false, false, false, false, false]);
    // Under 2.25 with two goals: push on 2, won on 2.5.
    expect(gradeLine(2.25, (l) => l - 2)).toBe('half_won');
  });
});

describe('gradeProp', () => {
  const points = (point: number | null, playerId = 'p1'): PropMarketSpec => ({
    type: 'prop',
    stat: 'player_points',
    period: 'full',
    playerId,
    point,
  });
  const box: BoxScore = {
    p1: { full: { player_points: 27, player_rebounds: 9 } },
    p2: { full: { player_anytime_td: 1 } },
    p3: { full: {} },
  };

  it('grades an over/under against the stat, with a push on a whole line', () => {
    expect(gradeProp('nba', points(26.5), 'over', box)).toBe('won');
    expect(gradeProp('nba', points(27.5), 'under', box)).toBe('won');
    expect(gradeProp('nba', points(27), 'over', box)).toBe('push');
  });

  it('voids either side for a player who did not play', () => {
    expect(gradeProp('nba', points(20.5, 'dnp'), 'over', box)).toBe('void');
    expect(gradeProp('nba', points(20.5, 'dnp'), 'under', box)).toBe('void');
  });

  it('grades yes/no props by whether the count reached one; a player who played and did not score is a no', () => {
    const td = (playerId: string): PropMarketSpec => ({
      type: 'prop',
      stat: 'player_anytime_td',
      period: 'full',
      playerId,
      point: null,
    });
    expect(gradeProp('nfl', td('p2'), 'yes', box)).toBe('won');
    expect(gradeProp('nfl', td('p3'), 'yes', box)).toBe('lost');
    expect(gradeProp('nfl', td('p3'), 'no', box)).toBe('won');
    expect(() => gradeProp('nfl', td('p3'), 'over', box)).toThrow(GradingInputError);
  });
});

describe('settle', () => {
  it('pays worked examples at decimal and American prices (−110 is 1 + 100/110)', () => {
    expect(settle(cents(11_000), 1 + 100 / 110, 'won')).toEqual({ payout: 21_000, profit: 10_000 });
    expect(settle(cents(10_000), 2.5, 'won')).toEqual({ payout: 25_000, profit: 15_000 });
    expect(settle(cents(10_000), 1.95, 'half_won')).toEqual({ payout: 14_750, profit: 4_750 });
    expect(settle(cents(10_000), 1.95, 'half_lost')).toEqual({ payout: 5_000, profit: -5_000 });
    expect(settle(cents(10_000), 1.95, 'push')).toEqual({ payout: 10_000, profit: 0 });
    expect(settle(cents(10_000), 1.95, 'void')).toEqual({ payout: 10_000, profit: 0 });
    expect(settle(cents(10_000), 1.95, 'lost')).toEqual({ payout: 0, profit: -10_000 });
  });

  it('never pays more than the stake at the odds, and profit is payout minus stake', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: 1.01, max: 1000, noNaN: true }),
        fc.constantFrom(...(['won', 'lost', 'push', 'half_won', 'half_lost', 'void'] as const)),
        (stake, decimal, result) => {
          const s = settle(cents(stake), decimal, result);
          expect(s.profit).toBe(s.payout - stake);
          expect(s.payout).toBeLessThanOrEqual(stake * returnFactor(result, decimal) + 1e-6);
          expect(s.payout).toBeGreaterThan(stake * returnFactor(result, decimal) - 1);
        },
      ),
    );
  });
});

describe('settleParlay', () => {
  it('pays a winning parlay at its ticket price', () => {
    const s = settleParlay(cents(1_000), 3.64, [
      { result: 'won', decimal: 1.91 },
      { result: 'won', decimal: 1.91 },
    ]);
    expect(s).toMatchObject({ result: 'won', payout: 3_640, dropped: 0 });
  });

  it('loses on any lost leg, even with a void one', () => {
    const s = settleParlay(cents(1_000), 6, [
      { result: 'void', decimal: 2 },
      { result: 'lost', decimal: 3 },
    ]);
    expect(s).toMatchObject({ result: 'lost', payout: 0, profit: -1_000 });
  });

  it('drops a pushed leg and reprices at the remaining legs (three legs at 2.0, one push: 4.0)', () => {
    const s = settleParlay(cents(1_000), 8, [
      { result: 'won', decimal: 2 },
      { result: 'push', decimal: 2 },
      { result: 'won', decimal: 2 },
    ]);
    expect(s).toMatchObject({ result: 'won', settledDecimal: 4, payout: 4_000, dropped: 1 });
  });

  it('returns the stake when every leg pushes, and calls it void when every leg is void', () => {
    expect(
      settleParlay(cents(500), 4, [
        { result: 'push', decimal: 2 },
        { result: 'void', decimal: 2 },
      ]),
    ).toMatchObject({
      result: 'push',
      payout: 500,
    });
    expect(
      settleParlay(cents(500), 4, [
        { result: 'void', decimal: 2 },
        { result: 'void', decimal: 2 },
      ]),
    ).toMatchObject({
      result: 'void',
      payout: 500,
    });
  });

  it('counts a half-won leg by its factor', () => {
    const s = settleParlay(cents(1_000), 4, [
      { result: 'won', decimal: 2 },
      { result: 'half_won', decimal: 2 },
    ]);
    expect(s).toMatchObject({ result: 'won', settledDecimal: 3, payout: 3_000 });
  });

  it('reprices a same-game parlay by dividing out the dropped leg, and voids it when that leg has no price', () => {
    const priced = settleParlay(
      cents(1_000),
      5,
      [
        { result: 'won', decimal: 1.9 },
        { result: 'void', decimal: 2.5 },
      ],
      true,
    );
    expect(priced).toMatchObject({ result: 'won', settledDecimal: 2, payout: 2_000 });
    const unpriced = settleParlay(cents(1_000), 5, [{ result: 'won' }, { result: 'void' }], true);
    expect(unpriced).toMatchObject({ result: 'void', payout: 1_000 });
  });

  it('pays a parlay with pushed or void legs what the parlay of its other legs pays', () => {
    const leg = fc.record({
      result: fc.constantFrom(...(['won', 'lost', 'half_won', 'half_lost'] as const)),
      decimal: fc.integer({ min: 101, max: 600 }).map((n) => n / 100),
    });
    const dropped = fc.record({
      result: fc.constantFrom(...(['push', 'void'] as const)),
      decimal: fc.integer({ min: 101, max: 600 }).map((n) => n / 100),
    });
    fc.assert(
      fc.property(
        fc.array(leg, { minLength: 1, maxLength: 6 }),
        fc.array(dropped, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (kept, out, stake) => {
          const product = (legs: readonly { decimal: number }[]) => legs.reduce((p, l) => p * l.decimal, 1);
          const without = settleParlay(cents(stake), product(kept), kept);
          const withDropped = settleParlay(cents(stake), product([...kept, ...out]), [...out, ...kept]);
          expect(withDropped.payout).toBe(without.payout);
        },
      ),
    );
  });
});

describe('betClvPct', () => {
  it('is the price against the fair closing probability, and a parlay against their product', () => {
    expect(betClvPct(2.1, [0.5])).toBeCloseTo(5, 10);
    expect(betClvPct(4.2, [0.5, 0.5])).toBeCloseTo(5, 10);
  });
});

describe('nearPlayers and unknownPlayerDetail (decision 297)', () => {
  const players = new Map([
    ['p-hale', 'Marcus Hale'],
    ['p-hall', 'Marcus Hall'],
    ['p-price', 'Devon Price'],
    ['p-mccollum', 'C.J. McCollum'],
    ['p-nameless', ''],
  ]);

  it('finds names within a third of the letters in edits, the same surname, or a mistyped id, the closest first', () => {
    // "Hail" is one letter from "Hall", two from "Hale".
    expect(nearPlayers('Marcus Hail', players)).toEqual([
      { id: 'p-hall', name: 'Marcus Hall' },
      { id: 'p-hale', name: 'Marcus Hale' },
    ]);
    // Folded as findPlayer folds names: "cj mc collum" is "cj mccollum", one letter off.
    expect(nearPlayers('cj mc colum', players)).toEqual([{ id: 'p-mccollum', name: 'C.J. McCollum' }]);
    // The same surname, however far the first name.
    expect(nearPlayers('Tyrese Price', players)).toEqual([{ id: 'p-price', name: 'Devon Price' }]);
    // A mistyped id, and a player known only by his id.
    expect(nearPlayers('p-pric', players)).toEqual([{ id: 'p-price', name: 'Devon Price' }]);
    expect(nearPlayers('p-namless', players)).toEqual([{ id: 'p-nameless', name: '' }]);
    expect(nearPlayers('Someone Else', players)).toEqual([]);
    expect(nearPlayers('  ', players)).toEqual([]);
    expect(nearPlayers('Marcus Hail', players, 1)).toHaveLength(1);
  });

  it('says which name was not found and whom it may mean, or that two players answer to it', () => {
    expect(unknownPlayerDetail('Devin Prize', players)).toEqual({
      kind: 'unknown',
      detail:
        'No player named “Devin Prize” in this event’s props or box score; did you mean Devon Price (p-price)?',
      near: [{ id: 'p-price', name: 'Devon Price' }],
    });
    expect(unknownPlayerDetail('Someone Else', players).detail).toBe(
      'No player named “Someone Else” in this event’s props or box score; check the spelling, or send the player’s id.',
    );
    expect(unknownPlayerDetail('Marcus Hale', new Map()).detail).toBe(
      'No player named “Marcus Hale”: this event has no player props or box score.',
    );
    const twins = new Map([...players, ['p-hale-2', 'Marcus Hale Jr.']]);
    expect(unknownPlayerDetail('marcus hale', twins)).toEqual({
      kind: 'ambiguous',
      detail:
        '2 players of this event are named “marcus hale”: send the player’s id (Marcus Hale (p-hale), Marcus Hale Jr. (p-hale-2)).',
      near: [
        { id: 'p-hale', name: 'Marcus Hale' },
        { id: 'p-hale-2', name: 'Marcus Hale Jr.' },
      ],
    });
  });
});
