import { describe, expect, it } from 'vitest';
import {
  betId,
  betsFromCsv,
  betsFromFile,
  betsFromJson,
  betsToCsv,
  betsToJson,
  awaitsClose,
  betIssues,
  closesWanted,
  legClvPct,
  gradeRequestBet,
  gradeTracked,
  mergeBets,
  parseCsv,
  parseOddsInput,
  settleByHand,
  settleFromResults,
  summarize,
  TrackerFileError,
  type ParlayLeg,
  type TrackedBet,
} from './bet-tracker.ts';
import type { ClosingMarket } from './closing.ts';
import type { ResultsFeedGame } from './schemas/results-feed.ts';
import { homeMoneylineOf } from '#tests/support/tracked-bets.ts';

// The bet tracker's pure logic (issue 57): grading against the public results, the summary, and the export files.

const GAME: ResultsFeedGame = {
  event_id: 'nba-bos-lal-1',
  sport: 'basketball',
  league: 'nba',
  home_team: 'Los Angeles Lakers',
  away_team: 'Boston Celtics',
  commence_time: '2026-11-22T00:30:00.000Z',
  completed_at: '2026-11-22T03:00:00.000Z',
  periods: { h1: { home: 50, away: 52 }, full: { home: 103, away: 100 } },
};

function bet(extra: Partial<TrackedBet> = {}): TrackedBet {
  const base: Omit<TrackedBet, 'id'> = {
    group: null,
    kind: 'ev',
    placed_at: '2026-11-21T20:00:00.000Z',
    sport: 'basketball',
    league: 'nba',
    event_id: GAME.event_id,
    home: GAME.home_team,
    away: GAME.away_team,
    starts_at: GAME.commence_time,
    market: 'spread',
    period: 'full',
    line: 3.5,
    outcome: 'away',
    selection: 'Boston Celtics +3.5',
    book: 'fanduel',
    decimal_odds: 1.9091,
    american_odds: '-110',
    stake: 11_000,
    settlement: null,
    ...extra,
  };
  return { id: betId(base), ...base, ...(extra.id ? { id: extra.id } : {}) };
}

describe('grading a tracked bet against the results feed', () => {
  it('grades the away side of a spread on its own line: +3.5 in a 3-point loss wins, paying stake × odds', () => {
    expect(gradeTracked(bet(), [GAME])).toEqual({
      result: 'won',
      payout: 21_000,
      profit: 10_000,
      clv_pct: null,
      settled_at: GAME.completed_at,
      settled_by: 'results',
    });
    // The home side at −3.5 loses.
    expect(gradeTracked(bet({ outcome: 'home', line: -3.5 }), [GAME])?.result).toBe('lost');
    // A whole line on the number pushes: stake back.
    expect(gradeTracked(bet({ outcome: 'away', line: 3 }), [GAME])).toMatchObject({
      result: 'push',
      profit: 0,
    });
    // A period: the first half's moneyline away 52–50.
    expect(
      gradeTracked(bet({ market: 'moneyline', line: null, period: 'h1', decimal_odds: 2.5 }), [GAME]),
    ).toMatchObject({ result: 'won', payout: 27_500 });
  });

  it('leaves a bet open when its game is not among the finals, and matches a hand bet by league, teams and date', () => {
    expect(gradeTracked(bet({ event_id: 'other' }), [])).toBeNull();
    const hand = bet({
      kind: 'manual',
      event_id: null,
      home: ' los angeles  lakers',
      away: 'Boston Celtics',
    });
    expect(gradeTracked(hand, [GAME])?.result).toBe('won');
    // Another day's game of the same teams is not this one.
    expect(gradeTracked({ ...hand, starts_at: '2026-11-25T00:30:00.000Z' }, [GAME])).toBeNull();
  });

  it('settles only open bets, and returns the same list when nothing settled', () => {
    const open = [bet(), bet({ event_id: 'unknown', home: 'A', away: 'B' })];
    const next = settleFromResults(open, [GAME]);
    expect(next.map((b) => b.settlement?.result ?? null)).toEqual(['won', null]);
    expect(settleFromResults(next, [GAME])).toBe(next);
  });

  it('settles by hand with the same money rules (a half win on a quarter line)', () => {
    const settled = settleByHand(bet({ decimal_odds: 2 }), 'half_won', '2026-11-22T04:00:00.000Z');
    expect(settled.settlement).toMatchObject({
      result: 'half_won',
      payout: 16_500,
      profit: 5_500,
      settled_by: 'hand',
    });
  });

  it('asks POST /v1/grade with the home team’s line, as the API takes spreads', () => {
    expect(gradeRequestBet(bet())).toEqual({
      legs: [{ event_id: GAME.event_id, market: 'spread', period: 'full', line: -3.5, outcome: 'away' }],
      decimal_odds: 1.9091,
      stake: 110,
    });
    expect(
      gradeRequestBet(bet({ market: 'moneyline', line: null, outcome: 'home' })).legs[0],
    ).not.toHaveProperty('line');
  });
});

describe('odds typed in the bettor’s format', () => {
  it('reads American, decimal, fractional and probability prices as decimal odds', () => {
    expect(parseOddsInput('-110', 'american')).toBe(1.9091);
    expect(parseOddsInput('+150', 'american')).toBe(2.5);
    expect(parseOddsInput('2.25', 'decimal')).toBe(2.25);
    expect(parseOddsInput('3/2', 'fractional')).toBe(2.5);
    expect(parseOddsInput('40%', 'probability')).toBe(2.5);
  });

  it('refuses what is not a price', () => {
    for (const [text, format] of [
      ['-50', 'american'],
      ['abc', 'american'],
      ['1', 'decimal'],
      ['0.9', 'decimal'],
      ['3/0', 'fractional'],
      ['100%', 'probability'],
      ['', 'decimal'],
    ] as const)
      expect(parseOddsInput(text, format), `${format} ${text}`).toBeNull();
  });
});

describe('the summary', () => {
  const won = settleFromResults([bet()], [GAME])[0]!; // +$100 on $110
  const lost = {
    ...settleFromResults([bet({ outcome: 'home', line: -3.5, book: 'draftkings', kind: 'arb' })], [GAME])[0]!,
  };
  const withClv: TrackedBet = {
    ...bet({ kind: 'manual', sport: 'hockey', league: 'nhl', stake: 5_000, book: 'draftkings' }),
    settlement: {
      result: 'push',
      payout: 5_000,
      profit: 0,
      clv_pct: 2.5,
      settled_at: '2026-11-22T05:00:00.000Z',
      settled_by: 'api',
    },
  };
  const open = bet({ event_id: 'x', placed_at: '2026-11-23T00:00:00.000Z' });

  it('adds up profit and ROI of the settled bets, and averages CLV over the bets that have one', () => {
    const { totals } = summarize([won, lost, withClv, open]);
    expect(totals).toMatchObject({ bets: 4, settled: 3, open: 1, won: 1, lost: 1, returned: 1 });
    expect(totals.staked).toBe(11_000 + 11_000 + 5_000);
    expect(totals.profit).toBe(10_000 - 11_000 + 0);
    expect(totals.roiPct).toBe(-3.7); // −10 / 270
    expect(totals.avgClvPct).toBe(2.5);
    expect(totals.clvBets).toBe(1);
    expect(summarize([open]).totals).toMatchObject({ roiPct: null, avgClvPct: null, profit: 0 });
  });

  it('breaks down by sport, book and kind', () => {
    const summary = summarize([won, lost, withClv]);
    expect(summary.bySport.map((row) => [row.key, row.totals.bets, row.totals.profit])).toEqual([
      ['basketball', 2, -1_000],
      ['hockey', 1, 0],
    ]);
    expect(summary.byBook.map((row) => [row.key, row.totals.profit])).toEqual([
      ['draftkings', -11_000],
      ['fanduel', 10_000],
    ]);
    expect(summary.byKind.map((row) => row.key).sort()).toEqual(['arb', 'ev', 'manual']);
  });

  it('draws the cumulative profit in the order the bets settled', () => {
    const late = {
      ...won,
      id: 'late',
      settlement: { ...won.settlement!, settled_at: '2026-11-22T06:00:00.000Z' },
    };
    expect(summarize([late, lost, withClv]).curve).toEqual([
      { at: GAME.completed_at, profit: -11_000 },
      { at: '2026-11-22T05:00:00.000Z', profit: -11_000 },
      { at: '2026-11-22T06:00:00.000Z', profit: -1_000 },
    ]);
  });
});

describe('merging imported bets', () => {
  it('adds new bets once: the same id, or the same bet under another id, is skipped', () => {
    const a = bet();
    const b = bet({ book: 'betmgm' });
    const first = mergeBets([a], [a, b, { ...b, id: 'bet-renamed' }]);
    expect(first.added).toBe(1);
    expect(first.skipped).toBe(2);
    expect(first.bets.map((x) => x.id)).toEqual([a.id, b.id]);
  });
});

describe('CSV and JSON files', () => {
  const settled = settleFromResults([bet()], [GAME])[0]!;
  const tricky = bet({
    kind: 'manual',
    event_id: null,
    home: 'Team "A", the best',
    away: '=HYPERLINK("x")',
    selection: 'Over 221.5\nline two',
    market: 'total',
    line: 221.5,
    outcome: 'over',
  });

  it('round-trips bets through CSV, quotes included, and defuses spreadsheet formulas', () => {
    const csv = betsToCsv([settled, tricky]);
    expect(csv.split('\r\n')[0]).toMatch(/^id,group,kind,placed_at,/);
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(betsFromCsv(csv)).toEqual([settled, tricky]);
  });

  it('round-trips bets through JSON', () => {
    expect(betsFromJson(betsToJson([settled, tricky]))).toEqual([settled, tricky]);
    expect(betsFromFile(betsToJson([settled]))).toEqual([settled]);
    expect(betsFromFile(betsToCsv([settled]))).toEqual([settled]);
  });

  it('parses RFC 4180: quoted commas, doubled quotes, CRLF and LF, a BOM', () => {
    expect(parseCsv('\ufeffa,"b,c","d ""e"""\r\nf,,g\n')).toEqual([
      ['a', 'b,c', 'd "e"'],
      ['f', '', 'g'],
    ]);
  });

  it('refuses a bad file with a clear error naming the row and field', () => {
    const csv = betsToCsv([settled]);
    const badOdds = csv.replace(',1.9091,', ',0.5,');
    expect(() => betsFromCsv(badOdds)).toThrow(
      new TrackerFileError('Row 2: decimal_odds is not valid (it must be more than 1).'),
    );
    expect(() => betsFromCsv('id,kind\r\nx,arb\r\n')).toThrow(/has no .* column/);
    expect(() => betsFromCsv(csv.replace(',spread,', ',teaser,'))).toThrow(
      'Row 2: market is not valid (it must be one of moneyline, spread, total, 1x2, prop, parlay).',
    );
    expect(() => betsFromCsv(csv.replace(',spread,', ',parlay,'))).toThrow(
      'Row 2: a parlay is of kind "parlay", and only a parlay.',
    );
    expect(() => betsFromCsv(csv.replace(',3.5,', ',,'))).toThrow('Row 2: a spread needs a line.');
    expect(() => betsFromJson('{"format":"other"}')).toThrow(/not a Sharpline bet export/);
    expect(() => betsFromJson('not json')).toThrow('The file is not JSON.');
    expect(() => betsFromFile('  ')).toThrow('The file is empty.');
    expect(() => parseCsv('a,"b')).toThrow(/inside a quoted cell/);
  });
});

// Props and parlays (decision 282): the results' box score grades props as POST /v1/grade does (grading.ts), and a
// parlay's legs settle the ticket by the books' rules (settleTicket).

const BOXED: ResultsFeedGame = {
  ...GAME,
  players: [
    {
      id: 'nba-lal-p01',
      name: 'Marcus Hale',
      periods: { full: { player_points: 27, player_double_double: 0 } },
    },
    { id: 'nba-bos-p04', name: 'Devon Price', periods: null },
  ],
};

const propBet = (extra: Partial<TrackedBet> = {}) =>
  bet({
    market: 'prop',
    line: 26.5,
    outcome: 'over',
    selection: 'Marcus Hale Points Over 26.5',
    prop: { stat: 'player_points', player: 'Marcus Hale', player_id: 'nba-lal-p01' },
    ...extra,
  });

const LATER: ResultsFeedGame = {
  ...GAME,
  event_id: 'nba-nyk-mia-1',
  home_team: 'Miami Heat',
  away_team: 'New York Knicks',
  completed_at: '2026-11-22T04:00:00.000Z',
  periods: { full: { home: 110, away: 110 } },
};

function leg(game: ResultsFeedGame, extra: Partial<ParlayLeg> = {}): ParlayLeg {
  return {
    ...homeMoneylineOf(game),
    decimal_odds: 2,
    result: null,
    ...extra,
  };
}

function parlay(legs: ParlayLeg[], extra: Partial<TrackedBet> = {}): TrackedBet {
  return bet({
    kind: 'parlay',
    market: 'parlay',
    event_id: null,
    home: '',
    away: '',
    starts_at: null,
    line: null,
    outcome: null,
    selection: `${legs.length}-leg parlay`,
    decimal_odds: 4,
    american_odds: '+300',
    stake: 10_000,
    legs,
    ...extra,
  });
}

describe('props', () => {
  it('grades a prop on the box score: over/under by the figure, by id or by name however written', () => {
    expect(gradeTracked(propBet(), [BOXED])).toMatchObject({ result: 'won', payout: 21_000, profit: 10_000 });
    expect(gradeTracked(propBet({ outcome: 'under' }), [BOXED])?.result).toBe('lost');
    expect(gradeTracked(propBet({ line: 27 }), [BOXED])?.result).toBe('push');
    // Typed by hand: no event id, no player id, the name in other case and accents.
    const hand = propBet({
      kind: 'manual',
      event_id: null,
      starts_at: '2026-11-22T12:00:00.000Z',
      prop: { stat: 'player_points', player: 'marcus  HALÉ', player_id: null },
    });
    expect(gradeTracked(hand, [BOXED])?.result).toBe('won');
    // A yes/no prop has no line: the double-double came in at 0.
    const dd = propBet({
      line: null,
      outcome: 'yes',
      prop: { stat: 'player_double_double', player: 'Marcus Hale', player_id: 'nba-lal-p01' },
    });
    expect(gradeTracked(dd, [BOXED])?.result).toBe('lost');
  });

  it('voids a prop on a player who did not play, both sides, with the stake back', () => {
    const price = { player: 'Devon Price', player_id: 'nba-bos-p04', stat: 'player_points' as const };
    for (const outcome of ['over', 'under'] as const)
      expect(gradeTracked(propBet({ outcome, prop: price }), [BOXED])).toMatchObject({
        result: 'void',
        payout: 11_000,
        profit: 0,
      });
  });

  it('leaves a prop open without a box score, on a player it does not name, or without his figure', () => {
    expect(gradeTracked(propBet(), [GAME])).toBeNull();
    expect(gradeTracked(propBet(), [{ ...BOXED, players: null }])).toBeNull();
    const nobody = { stat: 'player_points' as const, player: 'Nobody Here', player_id: null };
    expect(gradeTracked(propBet({ prop: nobody }), [BOXED])).toBeNull();
    const rebounds = { stat: 'player_rebounds' as const, player: 'Marcus Hale', player_id: 'nba-lal-p01' };
    expect(gradeTracked(propBet({ prop: rebounds }), [BOXED])).toBeNull();
  });

  it('asks POST /v1/grade for a prop with its stat and player id (the name when typed by hand)', () => {
    expect(gradeRequestBet(propBet()).legs).toEqual([
      {
        event_id: GAME.event_id,
        market: 'prop',
        stat: 'player_points',
        player: 'nba-lal-p01',
        period: 'full',
        line: 26.5,
        outcome: 'over',
      },
    ]);
  });

  it('leaves a period bet of a game scored only as a whole open, as the API does not grade it', () => {
    const whole = { ...GAME, periods: { full: GAME.periods.full! }, periods_reported: false };
    const h1 = bet({ market: 'moneyline', line: null, period: 'h1', outcome: 'away' });
    expect(gradeTracked(h1, [whole])).toBeNull();
    expect(gradeTracked(h1, [GAME])?.result).toBe('won');
  });
});

describe('parlays', () => {
  it('waits for every leg, then pays the ticket’s price when all won', () => {
    const ticket = parlay([leg(GAME), leg(LATER, { outcome: 'away', selection: 'New York Knicks' })]);
    // Only the first game final: the won leg is kept, the ticket waits.
    const half = settleFromResults([ticket], [GAME])[0]!;
    expect(half.settlement).toBeNull();
    expect(half.legs!.map((one) => one.result)).toEqual(['won', null]);
    // A tie in the second game is a push on its moneyline: it drops out, the ticket is repriced at the won leg's 2.0.
    const done = settleFromResults([half], [LATER])[0]!;
    expect(done.legs!.map((one) => one.result)).toEqual(['won', 'push']);
    expect(done.settlement).toMatchObject({
      result: 'won',
      payout: 20_000,
      profit: 10_000,
      settled_at: LATER.completed_at,
      settled_by: 'results',
    });
    const both = parlay([
      leg(GAME),
      leg(GAME, { period: 'h1', outcome: 'away', selection: 'Boston Celtics' }),
    ]);
    expect(gradeTracked(both, [GAME])).toMatchObject({ result: 'won', payout: 40_000, profit: 30_000 });
  });

  it('loses at once on a lost leg, whatever the others', () => {
    const ticket = parlay([leg(GAME, { outcome: 'away', selection: 'Boston Celtics' }), leg(LATER)]);
    expect(gradeTracked(ticket, [GAME])).toMatchObject({ result: 'lost', payout: 0, profit: -10_000 });
  });

  it('voids the ticket when a pushed leg came without its own price (it cannot be repriced)', () => {
    const ticket = parlay([leg(GAME), leg(LATER, { decimal_odds: null })]);
    expect(gradeTracked(ticket, [GAME, LATER])).toMatchObject({ result: 'void', payout: 10_000, profit: 0 });
  });

  it('carries a prop leg, and goes to POST /v1/grade with each leg’s own price', () => {
    const propLeg = leg(BOXED, {
      market: 'prop',
      line: 26.5,
      outcome: 'over',
      selection: 'Marcus Hale Points Over 26.5',
      prop: { stat: 'player_points', player: 'Marcus Hale', player_id: null },
      decimal_odds: 1.9091,
    });
    const ticket = parlay([leg(GAME), propLeg]);
    expect(gradeTracked(ticket, [BOXED])?.result).toBe('won');
    expect(gradeRequestBet(ticket)).toEqual({
      legs: [
        { event_id: GAME.event_id, market: 'moneyline', period: 'full', outcome: 'home', decimal_odds: 2 },
        {
          event_id: GAME.event_id,
          market: 'prop',
          stat: 'player_points',
          player: 'Marcus Hale',
          period: 'full',
          line: 26.5,
          outcome: 'over',
          decimal_odds: 1.9091,
        },
      ],
      decimal_odds: 4,
      stake: 100,
    });
  });

  it('round-trips props and parlays through CSV and JSON, and refuses a parlay of one leg or a bad leg', () => {
    const bets = [propBet(), parlay([leg(GAME), leg(LATER)])];
    expect(betsFromCsv(betsToCsv(bets))).toEqual(bets);
    expect(betsFromJson(betsToJson(bets))).toEqual(bets);
    expect(
      summarize(bets)
        .byKind.map((row) => row.key)
        .sort(),
    ).toEqual(['ev', 'parlay']);
    const one = JSON.stringify({
      format: 'sharpline-bets',
      version: 2,
      bets: [{ ...bets[1], legs: [leg(GAME)] }],
    });
    expect(() => betsFromJson(one)).toThrow('Bet 1: legs is not valid (it must be at least 2).');
    const lineless = parlay([leg(GAME), leg(LATER, { market: 'total', outcome: 'over' })]);
    expect(() => betsFromJson(betsToJson([lineless]))).toThrow('Bet 1: leg 2: a total needs a line.');
    const noPlayer = { ...propBet(), prop: undefined };
    expect(() => betsFromJson(betsToJson([noPlayer]))).toThrow('Bet 1: a prop needs its stat and player.');
  });
});

// CLV from the public close (decision 289): the fair close GET /tools/closing.json carries, found as POST /v1/grade
// finds it (closingProbability), and the message on a prop whose player the box score does not name.

/** BOXED's close: the spread at the home team's −3.5 and −3, the moneyline, Hale's points 26.5 and his double-double. */
const CLOSE: ClosingMarket[] = [
  { market: 'moneyline', period: 'full', line: null, fair: { home: 0.55, away: 0.45 } },
  { market: 'spread', period: 'full', line: -3.5, fair: { home: 0.48, away: 0.52 } },
  { market: 'spread', period: 'full', line: -3, fair: { home: 0.5, away: 0.5 } },
  {
    market: 'prop',
    period: 'full',
    line: 26.5,
    stat: 'player_points',
    player: 'nba-lal-p01',
    fair: { over: 0.6, under: 0.4 },
  },
  {
    market: 'prop',
    period: 'full',
    line: null,
    stat: 'player_double_double',
    player: 'nba-lal-p01',
    fair: { yes: 0.25, no: 0.75 },
  },
];
const closes = new Map([[BOXED.event_id, CLOSE]]);

describe('CLV from the public close', () => {
  it('gives a single its CLV against the fair close of its market, line and side (a spread by the home line)', () => {
    // Away +3.5 is the home team's −3.5: fair 0.52; 1.9091 × 0.52 − 1 = −0.7268 %.
    expect(gradeTracked(bet(), [BOXED], closes)).toMatchObject({ result: 'won', clv_pct: -0.727 });
    // Home −3: fair 0.5 at 2.1: +5 %.
    expect(
      gradeTracked(bet({ outcome: 'home', line: -3, decimal_odds: 2.1 }), [BOXED], closes)?.clv_pct,
    ).toBe(5);
    // A prop by id, and typed by hand by name (no player id): fair 0.6 at 1.9091 → +14.546 %.
    expect(gradeTracked(propBet(), [BOXED], closes)?.clv_pct).toBe(14.546);
    const hand = propBet({ prop: { stat: 'player_points', player: 'marcus hale', player_id: null } });
    expect(gradeTracked(hand, [BOXED], closes)?.clv_pct).toBe(14.546);
    // A yes/no prop has no line: 0.25 × 3.5 − 1 = −12.5 %.
    const dd = propBet({
      line: null,
      outcome: 'yes',
      decimal_odds: 3.5,
      prop: { stat: 'player_double_double', player: 'Marcus Hale', player_id: 'nba-lal-p01' },
    });
    expect(gradeTracked(dd, [BOXED], closes)?.clv_pct).toBe(-12.5);
  });

  it('says no close (null, never 0) for a line or period no book closed, and waits for a close not read yet', () => {
    // +7.5 was never hung; the first half has no close.
    expect(gradeTracked(bet({ line: 7.5 }), [BOXED], closes)).toMatchObject({ result: 'won', clv_pct: null });
    const h1 = bet({ market: 'moneyline', line: null, period: 'h1', outcome: 'away' });
    expect(gradeTracked(h1, [BOXED], closes)).toMatchObject({ result: 'won', clv_pct: null });
    // A final whose close was read empty (no market priced before the start): graded, no close.
    expect(gradeTracked(bet(), [BOXED], new Map([[BOXED.event_id, []]]))?.clv_pct).toBeNull();
    // The close not read yet: the bet waits for it, and closesWanted names its game (once).
    expect(gradeTracked(bet(), [BOXED], new Map())).toBeNull();
    expect(closesWanted([bet(), propBet(), bet({ line: 7.5 })], [BOXED], new Map())).toEqual([
      BOXED.event_id,
    ]);
    expect(closesWanted([bet()], [BOXED], closes)).toEqual([]);
    // A game not final has nothing to read.
    expect(closesWanted([bet()], [], new Map())).toEqual([]);
  });

  it('gives a parlay the CLV of its price against the product of its legs’ closes, kept leg by leg', () => {
    const ticket = parlay([
      leg(BOXED, { outcome: 'home', selection: 'Los Angeles Lakers' }),
      leg(LATER, { outcome: 'away', selection: 'New York Knicks' }),
    ]);
    const later = new Map([
      ...closes,
      [LATER.event_id, [{ market: 'moneyline', period: 'full', line: null, fair: { home: 0.5, away: 0.5 } }]],
    ]);
    // The first game final: its leg keeps its close (0.55) while the ticket waits.
    const half = settleFromResults([ticket], [BOXED], closes)[0]!;
    expect(half.legs!.map((one) => [one.result, one.closing_probability])).toEqual([
      ['won', 0.55],
      [null, undefined],
    ]);
    // The second a tie (a push): the ticket's CLV is 4 × 0.55 × 0.5 − 1 = +10 %.
    const done = settleFromResults([half], [LATER], later)[0]!;
    expect(done.settlement).toMatchObject({ result: 'won', clv_pct: 10 });
    // One leg without a close: no CLV for the ticket.
    const noClose = settleFromResults([half], [LATER], new Map([[LATER.event_id, []]]))[0]!;
    expect(noClose.settlement).toMatchObject({ result: 'won', clv_pct: null });
    // Its id (and the import's same-bet check) does not change with the closes kept.
    expect(betId(done)).toBe(betId(ticket));
  });
});

describe('a parlay lost before its other games ended (decision 297)', () => {
  const ticket = parlay(
    [
      leg(BOXED, { outcome: 'away', selection: 'Boston Celtics' }),
      leg(LATER, { outcome: 'away', selection: 'New York Knicks', decimal_odds: 2.1 }),
    ],
    { decimal_odds: 4.4 },
  );
  const later = new Map([
    ...closes,
    [LATER.event_id, [{ market: 'moneyline', period: 'full', line: null, fair: { home: 0.5, away: 0.5 } }]],
  ]);
  const during = Date.parse(LATER.commence_time) + 3_600_000;

  it('is lost at once; its legs with a close have their CLV, the ticket its own once every leg has closed', () => {
    // Boston lost 103–100: the ticket is lost. That leg closed at 0.45: 2 × 0.45 − 1 = −10 %. The Knicks' game has not
    // ended: no close for it yet, so the ticket has no CLV, and it waits on that game.
    const lost = settleFromResults([ticket], [BOXED], closes)[0]!;
    expect(lost.settlement).toMatchObject({ result: 'lost', payout: 0, profit: -10_000, clv_pct: null });
    expect(lost.legs!.map((one) => [one.result, one.closing_probability, legClvPct(one)])).toEqual([
      ['lost', 0.45, -10],
      [null, undefined, null],
    ]);
    expect(awaitsClose(lost, during)).toBe(true);
    expect(closesWanted([lost], [BOXED, LATER], closes)).toEqual([LATER.event_id]);
    // Nothing new: the same list, no needless write.
    const same = [lost];
    expect(settleFromResults(same, [BOXED], closes)).toBe(same);
    // The Knicks' game ends level (a push) and closed at 0.5: that leg 2.1 × 0.5 − 1 = +5 %, and the ticket
    // 4.4 × 0.45 × 0.5 − 1 = −1 %, as POST /v1/grade measures it. Its result, money and date do not change.
    const done = settleFromResults([lost], [LATER], later)[0]!;
    expect(done.legs!.map((one) => [one.result, one.closing_probability, legClvPct(one)])).toEqual([
      ['lost', 0.45, -10],
      ['push', 0.5, 5],
    ]);
    expect(done.settlement).toEqual({ ...lost.settlement, clv_pct: -1 });
    expect(awaitsClose(done, during)).toBe(false);
    expect(closesWanted([done], [BOXED, LATER], later)).toEqual([]);
  });

  it('stops waiting days after the game’s start; a leg without a close leaves the ticket without CLV', () => {
    const lost = settleFromResults([ticket], [BOXED], closes)[0]!;
    expect(awaitsClose(lost, during + 5 * 86_400_000)).toBe(false);
    const noClose = settleFromResults([lost], [LATER], new Map([[LATER.event_id, []]]))[0]!;
    expect(noClose.legs![1]).toMatchObject({ result: 'push', closing_probability: null });
    expect(noClose.settlement!.clv_pct).toBeNull();
  });

  it('fills a parlay the API settled the same way, and leaves one settled by hand alone', () => {
    const byApi: TrackedBet = {
      ...ticket,
      legs: [{ ...ticket.legs![0]!, result: 'lost', closing_probability: 0.45 }, ticket.legs![1]!],
      settlement: {
        result: 'lost',
        payout: 0,
        profit: -10_000,
        clv_pct: null,
        settled_at: BOXED.completed_at,
        settled_by: 'api',
      },
    };
    expect(settleFromResults([byApi], [LATER], later)[0]!.settlement).toMatchObject({
      settled_by: 'api',
      clv_pct: -1,
    });
    const byHand = settleByHand(ticket, 'lost', '2026-11-22T05:00:00.000Z');
    expect(awaitsClose(byHand, during)).toBe(false);
    expect(settleFromResults([byHand], [BOXED, LATER], later)[0]).toBe(byHand);
    expect(closesWanted([byHand], [BOXED, LATER], new Map())).toEqual([]);
  });
});

describe('a parlay lost early, its other game started but not final (decision 310)', () => {
  const ticket = parlay(
    [
      leg(BOXED, { outcome: 'away', selection: 'Boston Celtics' }),
      leg(LATER, { outcome: 'away', selection: 'New York Knicks', decimal_odds: 2.1 }),
    ],
    { decimal_odds: 4.4 },
  );
  /** LATER's close as GET /tools/closing.json answers it while LATER is in play (not among the finals). */
  const started = new Map([
    ...closes,
    [LATER.event_id, [{ market: 'moneyline', period: 'full', line: null, fair: { home: 0.5, away: 0.5 } }]],
  ]);
  const start = Date.parse(LATER.commence_time);

  it('asks for the started game’s close, and takes the ticket’s CLV from it before that game ends', () => {
    // Lost on BOXED now (or already settled so): LATER, not final, is asked for once it has started, not before.
    expect(closesWanted([ticket], [BOXED], closes, start + 60_000)).toEqual([LATER.event_id]);
    expect(closesWanted([ticket], [BOXED], closes, start - 60_000)).toEqual([]);
    const lostBefore = settleFromResults([ticket], [BOXED], closes)[0]!;
    expect(closesWanted([lostBefore], [BOXED], closes, start + 60_000)).toEqual([LATER.event_id]);
    // An open parlay not lost asks for nothing more: it settles only on its finals.
    const winning = parlay([leg(BOXED), leg(LATER, { outcome: 'away', selection: 'New York Knicks' })]);
    expect(closesWanted([winning], [BOXED], closes, start + 60_000)).toEqual([]);
    // Settled at once with the ticket's CLV: 4.4 × 0.45 × 0.5 − 1 = −1 %, as POST /v1/grade measures a pending leg's
    // close; the open leg keeps no close of its own (it has none until its game is final) and still waits.
    const lost = settleFromResults([ticket], [BOXED], started)[0]!;
    expect(lost.settlement).toMatchObject({ result: 'lost', payout: 0, clv_pct: -1 });
    expect(lost.legs!.map((one) => [one.result, one.closing_probability])).toEqual([
      ['lost', 0.45],
      [null, undefined],
    ]);
    expect(awaitsClose(lost, start + 60_000)).toBe(true);
    // A parlay settled lost before (no CLV) gets it the same way.
    expect(settleFromResults([lostBefore], [BOXED], started)[0]!.settlement).toEqual({
      ...lostBefore.settlement,
      clv_pct: -1,
    });
    // LATER ends: the leg takes its result and close, the ticket's CLV is the same; nothing more is asked.
    const done = settleFromResults([lost], [BOXED, LATER], started)[0]!;
    expect(done.legs!.map((one) => [one.result, one.closing_probability])).toEqual([
      ['lost', 0.45],
      ['push', 0.5],
    ]);
    expect(done.settlement).toEqual(lost.settlement);
    expect(closesWanted([done], [BOXED, LATER], started, start + 60_000)).toEqual([]);
  });

  it('waits for the final when the started close cannot name the leg: typed by hand, or a prop by name only', () => {
    const byHand = parlay(
      [
        leg(BOXED, { outcome: 'away', selection: 'Boston Celtics' }),
        leg(LATER, { event_id: null, outcome: 'away', selection: 'New York Knicks' }),
      ],
      { decimal_odds: 4.4 },
    );
    expect(closesWanted([byHand], [BOXED], closes, start + 60_000)).toEqual([]);
    expect(settleFromResults([byHand], [BOXED], started)[0]!.settlement!.clv_pct).toBeNull();
    const propByName = parlay(
      [
        leg(BOXED, { outcome: 'away', selection: 'Boston Celtics' }),
        leg(LATER, {
          market: 'prop',
          line: 26.5,
          outcome: 'over',
          selection: 'Marcus Hale Points Over 26.5',
          prop: { stat: 'player_points', player: 'Marcus Hale', player_id: null },
        }),
      ],
      { decimal_odds: 4.4 },
    );
    const withProp = new Map([...started, [LATER.event_id, CLOSE]]);
    expect(settleFromResults([propByName], [BOXED], withProp)[0]!.settlement!.clv_pct).toBeNull();
    // By id it is found: 4.4 × 0.45 × 0.6 − 1 = +18.8 %.
    const propById = parlay(
      [
        propByName.legs![0]!,
        { ...propByName.legs![1]!, prop: { ...propByName.legs![1]!.prop!, player_id: 'nba-lal-p01' } },
      ],
      { decimal_odds: 4.4 },
    );
    expect(settleFromResults([propById], [BOXED], withProp)[0]!.settlement!.clv_pct).toBe(18.8);
  });
});

describe('a prop whose player the box score does not name', () => {
  it('says so on the bet, with the names close to it, and the bet stays open', () => {
    const typo = propBet({
      event_id: null,
      prop: { stat: 'player_points', player: 'Marcus Hail', player_id: null },
    });
    expect(gradeTracked(typo, [BOXED], closes)).toBeNull();
    expect(betIssues(typo, [BOXED])).toEqual([
      {
        kind: 'unknown_player',
        player: 'Marcus Hail',
        near: ['Marcus Hale'],
        message:
          'No player named “Marcus Hail” in this game’s box score — check the spelling (close: Marcus Hale); the bet stays open.',
      },
    ]);
    // A name with nothing close: the message without names. A known player, or a game not final: no message.
    const nobody = propBet({ prop: { stat: 'player_points', player: 'Zed Quorn', player_id: null } });
    expect(betIssues(nobody, [BOXED])[0]).toMatchObject({ kind: 'unknown_player', near: [] });
    expect(betIssues(nobody, [BOXED])[0]!.message).toBe(
      'No player named “Zed Quorn” in this game’s box score — check the spelling; the bet stays open.',
    );
    expect(betIssues(propBet(), [BOXED])).toEqual([]);
    expect(betIssues(typo, [])).toEqual([]);
    // A parlay's open prop leg: the same message.
    const ticket = parlay([
      leg(BOXED),
      leg(BOXED, {
        market: 'prop',
        line: 26.5,
        outcome: 'over',
        selection: 'Devon Prise Points Over 26.5',
        prop: { stat: 'player_points', player: 'Devon Prise', player_id: null },
      }),
    ]);
    expect(betIssues(ticket, [BOXED]).map((issue) => issue.near)).toEqual([['Devon Price']]);
  });

  it('names two players of the same name when the name answers to both', () => {
    const twins: ResultsFeedGame = {
      ...BOXED,
      players: [
        ...BOXED.players!,
        { id: 'nba-bos-p09', name: 'Marcus Hale', periods: { full: { player_points: 3 } } },
      ],
    };
    const hand = propBet({ prop: { stat: 'player_points', player: 'Marcus Hale', player_id: null } });
    expect(betIssues(hand, [twins])[0]).toMatchObject({
      kind: 'ambiguous_player',
      near: ['Marcus Hale', 'Marcus Hale'],
    });
  });
});
