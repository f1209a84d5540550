import { clvPct } from './history.ts';
import type { GameMarketSpec, LeagueKey, OutcomeKey, Period } from './markets.ts';
import type { Cents } from './odds.ts';
import { propStat, type PropMarketSpec, type PropStatKey } from './props.ts';
import { normalizePlayerName, surnameOf } from './player-matching.ts';
import { payout } from './wagers.ts';

// Grading (issue 57): how a bet on one market settles against the game's result, what it pays, and its parlay and CLV
// figures. The rules are written in docs/grading.md; this module is them as pure functions. Money is integer cents
// (docs/conventions.md), payouts rounded down to the cent as `payout` in wagers.ts does: never more than a book pays.

/** How one bet (or one leg) settled. `void`: no action (the player did not play, the period was not played). */
export type GradeResult = 'won' | 'lost' | 'push' | 'half_won' | 'half_lost' | 'void';
export const GRADE_RESULTS: readonly GradeResult[] = ['won', 'lost', 'push', 'half_won', 'half_lost', 'void'];

/** Points (runs, goals) of each side in one period, under the betting rules of that period (docs/grading.md). */
export interface Score {
  home: number;
  away: number;
}

/**
 * A finished game as grading reads it: the score of each period that was played. `full` is the score bets on the game
 * settle on (overtime included; in hockey a shootout adds one goal to its winner; soccer is 90 minutes and stoppage
 * time). A period missing from `periods` was not played (a baseball game called before the fifth inning has no
 * `f5`), and bets on it are void.
 */
export interface GameResult {
  periods: Partial<Record<Period, Score>>;
}

/** One player's figures in one period: a stat key → its count. Absent player: did not play. */
export type StatLine = Partial<Record<PropStatKey, number>>;

/** Players' figures per period: player id → period → stat line. A player missing from it did not play. */
export type BoxScore = Readonly<Record<string, Partial<Record<Period, StatLine>>>>;

/**
 * The result of a bet whose winning margin is `edge`: how far the outcome came in beyond its line (a spread side's
 * margin plus its line, an over's total minus the line). A whole or half line: won above zero, push at zero, lost below.
 */
function gradeEdge(edge: number): 'won' | 'lost' | 'push' {
  // Lines are multiples of 0.25 and scores whole: the edge is exact in binary, so equality is safe.
  if (edge > 0) return 'won';
  if (edge < 0) return 'lost';
  return 'push';
}

/** Whether `line` is a quarter line (x.25 or x.75): half the stake on the line 0.25 below, half 0.25 above. */
export function isQuarterLine(line: number): boolean {
  const frac = Math.abs(line * 4) % 2;
  return frac === 1;
}

/**
 * The result of a bet on a line: `edgeAt(line)` is how far the outcome came in beyond `line` (for the bettor's side).
 * A quarter line splits the stake between the two neighbouring lines (−0.25 → 0 and −0.5) and combines the halves:
 * won + push → half won, lost + push → half lost, two alike → that result.
 */
export function gradeLine(line: number, edgeAt: (line: number) => number): GradeResult {
  if (!isQuarterLine(line)) return gradeEdge(edgeAt(line));
  const a = gradeEdge(edgeAt(line - 0.25));
  const b = gradeEdge(edgeAt(line + 0.25));
  if (a === b) return a;
  const pair = new Set([a, b]);
  if (pair.has('won') && pair.has('push')) return 'half_won';
  if (pair.has('lost') && pair.has('push')) return 'half_lost';
  // won + lost cannot happen: the two lines are half a point apart and scores are whole.
  throw new RangeError(`A quarter line ${line} split into ${a} and ${b}`);
}

/** Why a bet cannot be graded as sent (the input names a side the market does not have, or lacks its line). */
export class GradingInputError extends Error {
  constructor(
    readonly code: 'outcome_not_in_market' | 'line_required' | 'line_not_allowed' | 'invalid_line',
    message: string,
  ) {
    super(message);
    this.name = 'GradingInputError';
  }
}

function requireLine(spec: { point: number | null }): number {
  if (spec.point === null) throw new GradingInputError('line_required', 'This market needs a line');
  if (!Number.isFinite(spec.point) || !Number.isInteger(spec.point * 4))
    throw new GradingInputError('invalid_line', `A line is a multiple of 0.25, got ${spec.point}`);
  return spec.point;
}

/**
 * The result of `outcome` of a game line against the game's result. Moneyline: a tie (possible in a period, or in a
 * game that can end level) is a push; 1X2: the draw is its own outcome; spread: `point` is the home team's line (the
 * away side's is its opposite); total: over/under `point`. A period the game did not play is void.
 */
export function gradeGameMarket(spec: GameMarketSpec, outcome: OutcomeKey, result: GameResult): GradeResult {
  const sides: Record<GameMarketSpec['type'], readonly OutcomeKey[]> = {
    moneyline: ['home', 'away'],
    spread: ['home', 'away'],
    total: ['over', 'under'],
    '1x2': ['home', 'draw', 'away'],
  };
  if (!sides[spec.type].includes(outcome))
    throw new GradingInputError('outcome_not_in_market', `A ${spec.type} has no outcome "${outcome}"`);
  if ((spec.type === 'moneyline' || spec.type === '1x2') && spec.point !== null)
    throw new GradingInputError('line_not_allowed', `A ${spec.type} has no line`);
  const line = spec.type === 'spread' || spec.type === 'total' ? requireLine(spec) : 0;
  const score = result.periods[spec.period];
  if (!score) return 'void';
  const margin = score.home - score.away;
  switch (spec.type) {
    case 'moneyline':
      return gradeEdge(outcome === 'home' ? margin : -margin);
    case '1x2': {
      const came = margin > 0 ? 'home' : margin < 0 ? 'away' : 'draw';
      return came === outcome ? 'won' : 'lost';
    }
    case 'spread':
      return gradeLine(outcome === 'home' ? line : -line, (l) => (outcome === 'home' ? margin : -margin) + l);
    case 'total': {
      const total = score.home + score.away;
      return gradeLine(line, (l) => (outcome === 'over' ? total - l : l - total));
    }
  }
}

/**
 * The result of `outcome` of a player prop. A player who did not play (no stat line in the box score for the prop's
 * period) makes it void, whatever the side. Over/under: the stat against the line (a whole line can push). Yes/no
 * (anytime touchdown or goal, double-double): yes wins when the count is at least one.
 */
export function gradeProp(
  league: LeagueKey,
  spec: PropMarketSpec,
  outcome: OutcomeKey,
  box: BoxScore,
): GradeResult {
  const def = propStat(league, spec.stat);
  const kind = def?.kind ?? (spec.point === null ? 'yes_no' : 'over_under');
  const sides: readonly OutcomeKey[] = kind === 'over_under' ? ['over', 'under'] : ['yes', 'no'];
  if (!sides.includes(outcome))
    throw new GradingInputError('outcome_not_in_market', `This prop has no outcome "${outcome}"`);
  const line = kind === 'over_under' ? requireLine(spec) : 0;
  const stats = box[spec.playerId]?.[spec.period];
  if (!stats) return 'void';
  const value = stats[spec.stat] ?? 0;
  if (kind === 'yes_no') return value >= 1 === (outcome === 'yes') ? 'won' : 'lost';
  return gradeLine(line, (l) => (outcome === 'over' ? value - l : l - value));
}

/**
 * Whether a box score settles a prop on `playerId`: he is missing from it (he did not play: void), or it has his figure
 * of that period and stat. A player listed without that figure cannot be graded from it (the source did not count it).
 */
export function boxSettles(box: BoxScore, playerId: string, period: Period, stat: PropStatKey): boolean {
  const line = box[playerId];
  return line === undefined || line[period]?.[stat] !== undefined;
}

/**
 * The player a prop names: `name` as an id among `players` (id → name), else the one player whose name folds to the
 * same (`normalizePlayerName`: case, accents, punctuation and suffixes aside); undefined when no one, or two players,
 * answer to it. POST /v1/grade and the bet tracker both find a prop's player so.
 */
export function findPlayer(name: string, players: ReadonlyMap<string, string>): string | undefined {
  if (players.has(name)) return name;
  const wanted = normalizePlayerName(name);
  if (wanted === '') return undefined;
  const ids = [...players].filter(([, named]) => named !== '' && normalizePlayerName(named) === wanted);
  return ids.length === 1 ? ids[0]![0] : undefined;
}

/** A player a name may have meant (`nearPlayers`): his id and his name ('' when only his id is known). */
export interface NearPlayer {
  id: string;
  name: string;
}

/** Edit distance of two short strings (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * The players of `players` (id → name) that `name` may have meant when `findPlayer` finds none: their names (or ids,
 * for a name given as a mistyped id) folded by `normalizePlayerName` within a third of its letters in edits (at least
 * 2), or of the same surname; at most `max`, the closest first (then by name). POST /v1/grade's `near_players` and the
 * bet tracker's "close:" names (decision 289, 297).
 */
export function nearPlayers(name: string, players: ReadonlyMap<string, string>, max = 3): NearPlayer[] {
  const wanted = normalizePlayerName(name);
  if (wanted === '') return [];
  const surname = surnameOf(wanted);
  const reach = Math.max(2, Math.floor(wanted.length / 3));
  return [...players]
    .flatMap(([id, named]) => {
      const folded = normalizePlayerName(named);
      const byName = folded === '' ? Infinity : editDistance(wanted, folded);
      const foldedId = normalizePlayerName(id);
      const byId = foldedId === '' ? Infinity : editDistance(wanted, foldedId);
      const distance = Math.min(byName, byId);
      const close = distance <= reach || (folded !== '' && surnameOf(folded) === surname);
      return close ? [{ id, name: named, distance }] : [];
    })
    .sort(
      (a, b) =>
        a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1),
    )
    .slice(0, max)
    .map(({ id, name: named }) => ({ id, name: named }));
}

/** The players of `players` whose names fold to the same as `name` (`findPlayer` finds none when two do). */
export function playersNamed(name: string, players: ReadonlyMap<string, string>): NearPlayer[] {
  const wanted = normalizePlayerName(name);
  if (wanted === '') return [];
  return [...players]
    .filter(([, named]) => named !== '' && normalizePlayerName(named) === wanted)
    .map(([id, named]) => ({ id, name: named }));
}

/**
 * Why a bet's player is not found among an event's `players` (id → name), in words, with the players it may have
 * meant: two players answer to the name (`ambiguous`: send the id), or none does (`unknown`: the close ones, if any).
 * POST /v1/grade's `detail` and `near_players` for `unknown_player` (decision 297), and POST /v1/sgp's for a prop key
 * naming no player of the event (`where`: what the players were looked among, "props" there; decision 305).
 */
export function unknownPlayerDetail(
  name: string,
  players: ReadonlyMap<string, string>,
  where = 'props or box score',
): { kind: 'unknown' | 'ambiguous'; detail: string; near: NearPlayer[] } {
  const label = (player: NearPlayer) => (player.name === '' ? player.id : `${player.name} (${player.id})`);
  const same = playersNamed(name, players);
  if (same.length > 1)
    return {
      kind: 'ambiguous',
      detail: `${same.length} players of this event are named “${name}”: send the player’s id (${same.map(label).join(', ')}).`,
      near: same,
    };
  const near = nearPlayers(name, players);
  return {
    kind: 'unknown',
    detail:
      players.size === 0
        ? `No player named “${name}”: this event has no player ${where}.`
        : `No player named “${name}” in this event’s ${where}${
            near.length > 0
              ? `; did you mean ${near.map(label).join(' or ')}?`
              : '; check the spelling, or send the player’s id.'
          }`,
    near,
  };
}

/**
 * A prop against a final's box score (null: the source gave none): its result, or null when the box score cannot
 * settle it (no box score, or the player listed without that figure: "not graded", never void).
 */
export function gradePropOnFinal(
  league: LeagueKey,
  spec: PropMarketSpec,
  outcome: OutcomeKey,
  box: BoxScore | null,
): GradeResult | null {
  if (box === null || !boxSettles(box, spec.playerId, spec.period, spec.stat)) return null;
  return gradeProp(league, spec, outcome, box);
}

/**
 * What one unit staked returns for a result at `decimal` odds (stake included): won → the odds, half won → half at the
 * odds and half back, push and void → the stake, half lost → half back, lost → nothing. A parlay leg's factor.
 */
export function returnFactor(result: GradeResult, decimal: number): number {
  switch (result) {
    case 'won':
      return decimal;
    case 'half_won':
      return (decimal + 1) / 2;
    case 'push':
    case 'void':
      return 1;
    case 'half_lost':
      return 0.5;
    case 'lost':
      return 0;
  }
}

/** Payout (stake included, rounded down to the cent) and profit of a single bet. */
export interface Settlement {
  payout: Cents;
  profit: Cents;
}

/**
 * What `stake` returns at `decimal` odds for `result`. A half won pays half the stake at the odds plus the other half
 * back; both amounts are floored together, once, so the bettor is never paid a cent more than the book pays.
 */
export function settle(stake: Cents, decimal: number, result: GradeResult): Settlement {
  let paid: Cents;
  if (result === 'push' || result === 'void') paid = stake;
  else if (result === 'lost') paid = 0 as Cents;
  else paid = payout(stake, returnFactor(result, decimal));
  return { payout: paid, profit: (paid - stake) as Cents };
}

/** One leg of a parlay as graded: its result and its own decimal odds (absent for a same-game parlay's leg). */
export interface GradedLeg {
  result: GradeResult;
  decimal?: number;
}

/** How a parlay settled: its result, the price it was paid at (after dropped legs) and the money. */
export interface ParlaySettlement extends Settlement {
  result: GradeResult;
  /** The decimal odds the ticket was settled at: the product of the legs' factors, or the repriced SGP price. */
  settledDecimal: number;
  /** Legs that dropped out (push or void). */
  dropped: number;
}

/**
 * A parlay: `decimal` is the ticket's price. Any lost leg loses it. A pushed or void leg drops out and the ticket is
 * repriced without it: an ordinary parlay at the product of the remaining legs' odds (the legs' own prices, as books
 * do), a half-won or half-lost leg counting by its factor (`returnFactor`). A same-game parlay (`sameGame`: its price
 * is not the product of its legs) is repriced by dividing out the dropped legs' own prices; if a dropped leg has no
 * price, the ticket cannot be repriced and is void (stake back). Every leg pushed or void: push (void if all void).
 * Otherwise the result is won when it pays more than the stake, push at the stake, half lost below it.
 */
export function settleParlay(
  stake: Cents,
  decimal: number,
  legs: readonly GradedLeg[],
  sameGame = false,
): ParlaySettlement {
  const dropped = legs.filter((leg) => leg.result === 'push' || leg.result === 'void').length;
  const back = (result: GradeResult): ParlaySettlement => ({
    result,
    settledDecimal: 1,
    dropped,
    payout: stake,
    profit: 0 as Cents,
  });
  if (legs.some((leg) => leg.result === 'lost'))
    return { result: 'lost', settledDecimal: 0, dropped, payout: 0 as Cents, profit: -stake as Cents };
  if (legs.length > 0 && dropped === legs.length)
    return back(legs.every((leg) => leg.result === 'void') ? 'void' : 'push');
  let settled: number;
  if (!sameGame) {
    settled = legs.reduce((product, leg) => {
      if (leg.decimal === undefined) throw new RangeError('An ordinary parlay leg needs its own price');
      return product * returnFactor(leg.result, leg.decimal);
    }, 1);
    if (dropped === 0 && legs.every((leg) => leg.result === 'won')) settled = decimal;
  } else {
    settled = decimal;
    for (const leg of legs) {
      if (leg.result === 'won') continue;
      if (leg.decimal === undefined) return back('void');
      settled *= returnFactor(leg.result, leg.decimal) / leg.decimal;
    }
    // Dividing out a leg priced above what the correlated ticket paid could take it below even money; a ticket with
    // no half-lost leg lost nothing, so it never pays less than its stake.
    if (legs.every((leg) => leg.result !== 'half_lost')) settled = Math.max(settled, 1);
  }
  const paid = payout(stake, settled);
  const result: GradeResult = paid > stake ? 'won' : paid === stake ? 'push' : 'half_lost';
  return { result, settledDecimal: settled, dropped, payout: paid, profit: (paid - stake) as Cents };
}

/** A ticket's leg as far as it is known: its result (null while its game is not final or it cannot be graded yet). */
export interface TicketLeg {
  result: GradeResult | null;
  /** The leg's own decimal price, when known (a parlay needs it to reprice a dropped leg). */
  decimal?: number;
}

/**
 * A ticket (a single, or a parlay of its legs) settled from its legs as far as they are known; null while it waits on
 * a leg. A single settles at its price. A parlay with a lost leg is lost at once, whatever its other legs; otherwise it
 * waits until every leg is graded and settles by `settleParlay`, as a same-game parlay (the dropped legs' own prices
 * divided out of the ticket's; void when a dropped leg has none) when `sameGame` or when any leg came without its own
 * price, its price not then being known to be the product of its legs'. POST /v1/grade and the bet tracker settle so.
 */
export function settleTicket(
  stake: Cents,
  decimal: number,
  legs: readonly TicketLeg[],
  sameGame = false,
): ParlaySettlement | null {
  if (legs.length === 1) {
    const result = legs[0]!.result;
    if (result === null) return null;
    const money = settle(stake, decimal, result);
    return {
      result,
      settledDecimal: decimal,
      dropped: result === 'push' || result === 'void' ? 1 : 0,
      ...money,
    };
  }
  const lost = legs.some((leg) => leg.result === 'lost');
  if (!lost && legs.some((leg) => leg.result === null)) return null;
  return settleParlay(
    stake,
    decimal,
    legs.map((leg) => ({
      result: leg.result ?? 'lost',
      ...(leg.decimal !== undefined ? { decimal: leg.decimal } : {}),
    })),
    sameGame || legs.some((leg) => leg.decimal === undefined),
  );
}

/**
 * Closing line value of a bet in percent: (its decimal × the fair closing probability − 1) × 100 (decision 114). A
 * parlay's is its price against the product of its legs' fair closing probabilities (legs of different games are
 * independent); a same-game parlay's legs are not, so it has none here.
 */
export function betClvPct(decimal: number, fairClosingProbabilities: readonly number[]): number {
  const fair = fairClosingProbabilities.reduce((product, p) => product * p, 1);
  return clvPct(decimal, fair);
}

/** The grading rules in short, for the API reference's "Grading" section (the full text: docs/grading.md). */
export const GRADING_RULES: readonly { term: string; rule: string }[] = [
  {
    term: 'Results',
    rule: '`won`, `lost`, `push` (stake back), `half_won` and `half_lost` (quarter lines: half the stake won or lost, half back) and `void` (no action: stake back). Payouts are cents rounded down, stake included; profit is payout minus stake.',
  },
  {
    term: 'Which score',
    rule: 'Each period on its own score. The full game includes overtime (a hockey shootout adds one goal to its winner); soccer is 90 minutes and stoppage time; the second half includes overtime. A period not played (`f5` of a game stopped before the fifth inning) is void.',
  },
  {
    term: 'Game lines',
    rule: 'A two-way moneyline that ties is a push; 1X2 has the draw as an outcome and no push. Spreads are the home team’s line; a side wins when its margin plus its line is above zero. A whole line pushes on the number; a half line cannot; a quarter line (−0.25, 2.75) is half the stake on each neighbouring line.',
  },
  {
    term: 'Player props',
    rule: 'Settled on the player’s figure in the final’s box score. A player who does not play voids the prop, both sides. Over/under as totals; yes/no wins on a count of at least one.',
  },
  {
    term: 'Not graded',
    rule: 'A market the source gives no result for stays ungraded (`not_graded`), never void: a period of a game scored only as a whole (The Odds API gives each team’s total and no periods) and a prop without player figures.',
  },
  {
    term: 'Parlays',
    rule: 'A lost leg loses the ticket. A pushed or void leg drops out and the ticket is repriced at the other legs’ odds; a half-graded leg counts by its factor. A same-game parlay is repriced by dividing out the dropped leg’s own price, and is void when that leg came without one.',
  },
  {
    term: 'CLV',
    rule: '`(decimal × fair closing probability − 1) × 100`, as POST /v1/clv; a parlay of different games against the product of its legs’ fair closing probabilities; none for a same-game parlay.',
  },
];
