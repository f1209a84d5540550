import { z } from 'zod/mini';
import { gradeGameMarket, GRADE_RESULTS, GradingInputError, settle, type GradeResult } from './grading.ts';
import { isGameMarketType, isPeriod, OUTCOME_KEYS, PERIODS, stableHash, type OutcomeKey } from './markets.ts';
import {
  americanToDecimal,
  decimalToAmerican,
  formatAmerican,
  parseAmerican,
  roundTo,
  type Cents,
  type DecimalOdds,
} from './odds.ts';
import type { OddsFormat } from './odds-format.ts';
import type { ResultsFeedGame } from './schemas/results-feed.ts';

// The bet tracker (issue 57, decision 257): bets a visitor tracks in the browser, graded against the public results
// feed with the grading rules (grading.ts), their summary (profit, ROI, CLV by sport, book and kind, the cumulative
// profit), and their CSV and JSON files. Pure: the page keeps the list in localStorage, nothing here stores anything.

/** Where a bet came from: a row of the arbitrage, positive-EV or middles page, or typed by hand. */
export const BET_KINDS = ['arb', 'ev', 'middle', 'manual'] as const;
export type BetKind = (typeof BET_KINDS)[number];
export const BET_KIND_LABELS: Readonly<Record<BetKind, string>> = {
  arb: 'Arbitrage',
  ev: 'Positive EV',
  middle: 'Middle',
  manual: 'Manual',
};

/** How a settled bet was settled: by the public results, by POST /v1/grade with a key, or by the bettor. */
export const SETTLED_BY = ['results', 'api', 'hand'] as const;
export type SettledBy = (typeof SETTLED_BY)[number];

export const GAME_LINE_TYPES = ['moneyline', 'spread', 'total', '1x2'] as const;

const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));

export const SettlementSchema = z.object({
  result: z.enum(GRADE_RESULTS as [GradeResult, ...GradeResult[]]),
  /** Payout, stake included, and profit, in cents. */
  payout: z.int().check(z.nonnegative()),
  profit: z.int(),
  /** CLV in percent against the fair close (only from POST /v1/grade); null when not known. */
  clv_pct: z.nullable(z.number()),
  /** ISO 8601: when the game ended (results, API) or the bettor settled it. */
  settled_at: text(1, 40),
  settled_by: z.enum(SETTLED_BY),
});

/**
 * One tracked bet: a single on one game line. An arb or a middle is tracked as its legs, one bet each, sharing a
 * `group`. `event_id` ties it to the results feed (a bet typed by hand has none: it is matched by league, teams and
 * date). Money is integer cents; `line` is the line of the side bet (a spread's own line: +3.5 for an away side at +3.5).
 */
export const TrackedBetSchema = z.object({
  id: text(1, 120),
  group: z.nullable(text(1, 120)),
  kind: z.enum(BET_KINDS),
  /** ISO 8601: when the bet was placed (tracked). */
  placed_at: text(1, 40),
  sport: text(0, 32),
  league: text(0, 64),
  event_id: z.nullable(text(1, 200)),
  home: text(1, 200),
  away: text(1, 200),
  /** ISO 8601 start; null when not known. */
  starts_at: z.nullable(text(1, 40)),
  market: z.enum(GAME_LINE_TYPES),
  period: z.enum(PERIODS),
  line: z.nullable(z.number().check(z.gte(-500), z.lte(500))),
  outcome: z.enum(OUTCOME_KEYS as [OutcomeKey, ...OutcomeKey[]]),
  /** The side as a bettor reads it: "Boston Celtics +3.5", "Over 221.5". */
  selection: text(1, 200),
  book: text(1, 64),
  decimal_odds: z.number().check(z.gt(1), z.lt(10_000)),
  american_odds: text(1, 16),
  stake: z.int().check(z.positive(), z.lte(100_000_000)),
  settlement: z.nullable(SettlementSchema),
});

export type TrackedBet = z.infer<typeof TrackedBetSchema>;
export type Settlement = z.infer<typeof SettlementSchema>;

/** The JSON export: a versioned list. */
export const TrackerFileSchema = z.object({
  format: z.literal('sharpline-bets'),
  version: z.literal(1),
  bets: z.array(TrackedBetSchema).check(z.maxLength(10_000)),
});
export type TrackerFile = z.infer<typeof TrackerFileSchema>;

/** The most bets the tracker keeps (localStorage holds about 5 MB; a bet is about 500 bytes). */
export const MAX_TRACKED_BETS = 5_000;

/** A bet's id from what it is: the same bet (row side, stake, instant) always gets the same id. */
export function betId(bet: Omit<TrackedBet, 'id' | 'settlement'>): string {
  return `bet-${stableHash(
    [
      bet.kind,
      bet.group ?? '',
      bet.placed_at,
      bet.event_id ?? `${bet.away}@${bet.home}`,
      bet.market,
      bet.period,
      bet.line ?? '',
      bet.outcome,
      bet.book,
      bet.decimal_odds,
      bet.stake,
    ].join('|'),
  )}`;
}

/** What a bet is, without its id and settlement: two bets alike in all of it are the same bet (import skips it). */
function sameBetKey(bet: TrackedBet): string {
  return betId(bet);
}

/**
 * `incoming` added to `current`: bets already there (same id, or the same bet under another id) are skipped, and the
 * list stays within MAX_TRACKED_BETS (the oldest bets dropped first). Returns the new list and how many were added.
 */
export function mergeBets(
  current: readonly TrackedBet[],
  incoming: readonly TrackedBet[],
): { bets: TrackedBet[]; added: number; skipped: number } {
  const ids = new Set(current.map((bet) => bet.id));
  const keys = new Set(current.map(sameBetKey));
  const bets = [...current];
  let added = 0;
  for (const bet of incoming) {
    const key = sameBetKey(bet);
    if (ids.has(bet.id) || keys.has(key)) continue;
    ids.add(bet.id);
    keys.add(key);
    bets.push(bet);
    added += 1;
  }
  bets.sort((a, b) => (a.placed_at < b.placed_at ? -1 : a.placed_at > b.placed_at ? 1 : 0));
  return { bets: bets.slice(-MAX_TRACKED_BETS), added, skipped: incoming.length - added };
}

// ---------------------------------------------------------------------------------------------------------------
// Odds typed in the bettor's format

/** Odds typed in `format` as decimal odds (4 places, as the feeds), or null when they are not a price. */
export function parseOddsInput(input: string, format: OddsFormat): number | null {
  const value = input.trim();
  let decimal: number;
  switch (format) {
    case 'american': {
      const american = parseAmerican(value);
      if (american === null) return null;
      decimal = americanToDecimal(american);
      break;
    }
    case 'decimal':
      if (!/^\d+(\.\d+)?$/.test(value)) return null;
      decimal = Number(value);
      break;
    case 'fractional': {
      const match = /^(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(value);
      if (!match || Number(match[2]) === 0) return null;
      decimal = 1 + Number(match[1]) / Number(match[2]);
      break;
    }
    case 'probability': {
      const match = /^(\d+(?:\.\d+)?)\s*%?$/.exec(value);
      if (!match) return null;
      const pct = Number(match[1]);
      if (pct <= 0 || pct >= 100) return null;
      decimal = 100 / pct;
      break;
    }
  }
  if (!Number.isFinite(decimal) || decimal <= 1 || decimal >= 10_000) return null;
  return roundTo(decimal, 4);
}

/** The American odds text of a decimal price ("+150", "-110"). */
export function americanText(decimal: number): string {
  return formatAmerican(decimalToAmerican(decimal as DecimalOdds));
}

// ---------------------------------------------------------------------------------------------------------------
// Grading against the results feed

const norm = (name: string) => name.trim().toLowerCase().replace(/\s+/g, ' ');
const DAY_MS = 86_400_000;

/**
 * The finished game a bet is on: by its event id, or, for a bet typed by hand, the game of its league with the same
 * teams that started within a day of the bet's start (or placed) date.
 */
export function findGame(bet: TrackedBet, games: readonly ResultsFeedGame[]): ResultsFeedGame | undefined {
  if (bet.event_id !== null) {
    const byId = games.find((game) => game.event_id === bet.event_id);
    if (byId) return byId;
  }
  const when = Date.parse(bet.starts_at ?? bet.placed_at);
  return games.find(
    (game) =>
      (bet.league === '' || game.league === bet.league) &&
      norm(game.home_team) === norm(bet.home) &&
      norm(game.away_team) === norm(bet.away) &&
      (!Number.isFinite(when) || Math.abs(Date.parse(game.commence_time) - when) <= DAY_MS),
  );
}

/** The market spec and outcome a bet grades on: a spread's line back to the home team's, as grading reads it. */
function specOf(bet: TrackedBet) {
  const homeLine =
    bet.market === 'spread' && bet.line !== null && bet.outcome === 'away' ? -bet.line : bet.line;
  return { type: bet.market, period: bet.period, point: homeLine };
}

/**
 * The bet graded on a finished game: result, payout and profit (the rules of grading.ts); null when the game is not
 * among `games` or the bet names a side its market does not have.
 */
export function gradeTracked(bet: TrackedBet, games: readonly ResultsFeedGame[]): Settlement | null {
  const game = findGame(bet, games);
  if (!game) return null;
  let result: GradeResult;
  try {
    result = gradeGameMarket(specOf(bet), bet.outcome, { periods: game.periods });
  } catch (error) {
    if (error instanceof GradingInputError) return null;
    throw error;
  }
  const money = settle(bet.stake as Cents, bet.decimal_odds, result);
  return {
    result,
    payout: money.payout,
    profit: money.profit,
    clv_pct: null,
    settled_at: game.completed_at,
    settled_by: 'results',
  };
}

/** Settles every open bet whose game is among `games`; the list itself when none settled (no needless write). */
export function settleFromResults(
  bets: readonly TrackedBet[],
  games: readonly ResultsFeedGame[],
): TrackedBet[] {
  let changed = false;
  const next = bets.map((bet) => {
    if (bet.settlement !== null) return bet;
    const settlement = gradeTracked(bet, games);
    if (!settlement) return bet;
    changed = true;
    return { ...bet, settlement };
  });
  return changed ? next : (bets as TrackedBet[]);
}

/** A bet settled by the bettor (a game the results do not carry, or a book's own ruling). */
export function settleByHand(bet: TrackedBet, result: GradeResult, at: string): TrackedBet {
  const money = settle(bet.stake as Cents, bet.decimal_odds, result);
  return {
    ...bet,
    settlement: {
      result,
      payout: money.payout,
      profit: money.profit,
      clv_pct: bet.settlement?.clv_pct ?? null,
      settled_at: at,
      settled_by: 'hand',
    },
  };
}

/** A POST /v1/grade leg for the bet (the line back to the home team's for a spread, as the API takes it). */
export function gradeRequestBet(bet: TrackedBet) {
  const spec = specOf(bet);
  return {
    legs: [
      {
        event_id: bet.event_id ?? '',
        market: bet.market,
        period: bet.period,
        ...(spec.point !== null ? { line: spec.point } : {}),
        outcome: bet.outcome,
      },
    ],
    decimal_odds: bet.decimal_odds,
    stake: bet.stake / 100,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Summary

export interface Totals {
  bets: number;
  settled: number;
  open: number;
  won: number;
  lost: number;
  /** Pushed or void (stake back). */
  returned: number;
  /** Staked on settled bets (cents). */
  staked: number;
  /** Profit of the settled bets (cents). */
  profit: number;
  /** Profit over the settled stake, in percent; null with nothing settled. */
  roiPct: number | null;
  /** Average CLV of the bets whose CLV is known, in percent; null when none is. */
  avgClvPct: number | null;
  clvBets: number;
}

function totalsOf(bets: readonly TrackedBet[]): Totals {
  const out: Totals = {
    bets: bets.length,
    settled: 0,
    open: 0,
    won: 0,
    lost: 0,
    returned: 0,
    staked: 0,
    profit: 0,
    roiPct: null,
    avgClvPct: null,
    clvBets: 0,
  };
  let clvSum = 0;
  for (const bet of bets) {
    const s = bet.settlement;
    if (!s) {
      out.open += 1;
      continue;
    }
    out.settled += 1;
    out.staked += bet.stake;
    out.profit += s.profit;
    if (s.result === 'won' || s.result === 'half_won') out.won += 1;
    else if (s.result === 'lost' || s.result === 'half_lost') out.lost += 1;
    else out.returned += 1;
    if (s.clv_pct !== null) {
      clvSum += s.clv_pct;
      out.clvBets += 1;
    }
  }
  if (out.staked > 0) out.roiPct = roundTo((out.profit / out.staked) * 100, 2);
  if (out.clvBets > 0) out.avgClvPct = roundTo(clvSum / out.clvBets, 2);
  return out;
}

export interface Breakdown {
  key: string;
  totals: Totals;
}

function breakdown(bets: readonly TrackedBet[], keyOf: (bet: TrackedBet) => string): Breakdown[] {
  const groups = new Map<string, TrackedBet[]>();
  for (const bet of bets) {
    const key = keyOf(bet);
    const list = groups.get(key);
    if (list) list.push(bet);
    else groups.set(key, [bet]);
  }
  return [...groups]
    .map(([key, list]) => ({ key, totals: totalsOf(list) }))
    .sort((a, b) => b.totals.bets - a.totals.bets || (a.key < b.key ? -1 : 1));
}

/** One point of the cumulative profit line: after the `index`-th settled bet (by settle time), the profit so far. */
export interface ProfitPoint {
  at: string;
  profit: number;
}

export interface TrackerSummary {
  totals: Totals;
  bySport: Breakdown[];
  byBook: Breakdown[];
  byKind: Breakdown[];
  /** Settled bets in settle order, each with the running profit (cents). */
  curve: ProfitPoint[];
}

export function summarize(bets: readonly TrackedBet[]): TrackerSummary {
  const settled = bets
    .filter((bet) => bet.settlement !== null)
    .sort((a, b) => (a.settlement!.settled_at < b.settlement!.settled_at ? -1 : 1));
  let running = 0;
  const curve = settled.map((bet) => {
    running += bet.settlement!.profit;
    return { at: bet.settlement!.settled_at, profit: running };
  });
  return {
    totals: totalsOf(bets),
    bySport: breakdown(bets, (bet) => bet.sport || 'Other'),
    byBook: breakdown(bets, (bet) => bet.book),
    byKind: breakdown(bets, (bet) => bet.kind),
    curve,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// CSV and JSON files

/** The CSV's columns, in order (money in dollars, odds decimal and American). */
export const CSV_COLUMNS = [
  'id',
  'group',
  'kind',
  'placed_at',
  'sport',
  'league',
  'event_id',
  'away',
  'home',
  'starts_at',
  'market',
  'period',
  'line',
  'outcome',
  'selection',
  'book',
  'decimal_odds',
  'american_odds',
  'stake',
  'result',
  'payout',
  'profit',
  'clv_pct',
  'settled_at',
  'settled_by',
] as const;

function csvCell(value: string): string {
  // A cell starting with = + - @ is prefixed with ' so a spreadsheet does not run it as a formula (CSV injection),
  // unless it is a number.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^[+-]?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The bets as CSV (RFC 4180, CRLF line ends, a header row). */
export function betsToCsv(bets: readonly TrackedBet[]): string {
  const rows = bets.map((bet) => {
    const s = bet.settlement;
    const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
      id: bet.id,
      group: bet.group ?? '',
      kind: bet.kind,
      placed_at: bet.placed_at,
      sport: bet.sport,
      league: bet.league,
      event_id: bet.event_id ?? '',
      away: bet.away,
      home: bet.home,
      starts_at: bet.starts_at ?? '',
      market: bet.market,
      period: bet.period,
      line: bet.line === null ? '' : String(bet.line),
      outcome: bet.outcome,
      selection: bet.selection,
      book: bet.book,
      decimal_odds: String(bet.decimal_odds),
      american_odds: bet.american_odds,
      stake: dollars(bet.stake),
      result: s?.result ?? '',
      payout: s ? dollars(s.payout) : '',
      profit: s ? dollars(s.profit) : '',
      clv_pct: s?.clv_pct === null || s === null ? '' : String(s.clv_pct),
      settled_at: s?.settled_at ?? '',
      settled_by: s?.settled_by ?? '',
    };
    return CSV_COLUMNS.map((column) => csvCell(cells[column])).join(',');
  });
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}

/** Parses CSV text (RFC 4180: quoted cells, doubled quotes, CRLF or LF) into rows of cells. */
export function parseCsv(input: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const source = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  while (i < source.length) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else cell += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      if (ch === '\r' && source[i + 1] === '\n') i += 1;
    } else cell += ch;
    i += 1;
  }
  if (quoted) throw new TrackerFileError('The CSV file ends inside a quoted cell.');
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((cells) => !(cells.length === 1 && cells[0] === ''));
}

/** A file the tracker cannot import, with why (the list is left as it was). */
export class TrackerFileError extends Error {
  override name = 'TrackerFileError';
}

const unformula = (value: string) => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);
const centsOf = (value: string) => Math.round(Number(value) * 100);

function rowToBet(cells: Record<string, string>): unknown {
  const get = (column: string) => unformula(cells[column] ?? '');
  const nullable = (column: string) => (get(column) === '' ? null : get(column));
  const number = (column: string) => (get(column) === '' ? null : Number(get(column)));
  const settlement =
    get('result') === ''
      ? null
      : {
          result: get('result'),
          payout: centsOf(get('payout')),
          profit: centsOf(get('profit')),
          clv_pct: number('clv_pct'),
          settled_at: get('settled_at'),
          settled_by: get('settled_by'),
        };
  return {
    id: get('id'),
    group: nullable('group'),
    kind: get('kind'),
    placed_at: get('placed_at'),
    sport: get('sport'),
    league: get('league'),
    event_id: nullable('event_id'),
    away: get('away'),
    home: get('home'),
    starts_at: nullable('starts_at'),
    market: get('market'),
    period: get('period'),
    line: number('line'),
    outcome: get('outcome'),
    selection: get('selection'),
    book: get('book'),
    decimal_odds: Number(get('decimal_odds')),
    american_odds: get('american_odds'),
    stake: centsOf(get('stake')),
    settlement,
  };
}

/** What is wrong with a field, in words (zod/mini carries no messages of its own). */
function issueText(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string'
        ? 'it is empty'
        : `it must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}`;
    case 'too_big':
      return `it must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'invalid_type':
      return `a ${issue.expected} is expected`;
    case 'invalid_value':
      return `it must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return 'it is not valid';
  }
}

function checked(raw: unknown, where: string): TrackedBet {
  const parsed = TrackedBetSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.join('.') : 'the bet';
    throw new TrackerFileError(`${where}: ${field} is not valid (${issueText(issue)}).`);
  }
  const bet = parsed.data;
  // A spread or total needs its line; a moneyline or 1X2 has none (as POST /v1/grade rules).
  const needsLine = bet.market === 'spread' || bet.market === 'total';
  if (needsLine !== (bet.line !== null))
    throw new TrackerFileError(`${where}: a ${bet.market} ${needsLine ? 'needs a line' : 'has no line'}.`);
  if (!isGameMarketType(bet.market) || !isPeriod(bet.period))
    throw new TrackerFileError(`${where}: not a game line.`);
  return bet;
}

/** Bets from a CSV export; throws TrackerFileError saying which row and field is wrong. */
export function betsFromCsv(input: string): TrackedBet[] {
  const rows = parseCsv(input);
  const header = rows[0];
  if (!header) throw new TrackerFileError('The CSV file is empty.');
  const missing = CSV_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0)
    throw new TrackerFileError(`The CSV file has no ${missing.slice(0, 3).join(', ')} column.`);
  if (rows.length - 1 > MAX_TRACKED_BETS)
    throw new TrackerFileError(`The CSV file has more than ${MAX_TRACKED_BETS} bets.`);
  return rows.slice(1).map((cells, index) => {
    if (cells.length !== header.length)
      throw new TrackerFileError(`Row ${index + 2}: ${cells.length} cells, the header has ${header.length}.`);
    return checked(
      rowToBet(Object.fromEntries(header.map((column, k) => [column, cells[k]!]))),
      `Row ${index + 2}`,
    );
  });
}

/** The bets as the JSON export. */
export function betsToJson(bets: readonly TrackedBet[]): string {
  const file: TrackerFile = { format: 'sharpline-bets', version: 1, bets: [...bets] };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Bets from a JSON export; throws TrackerFileError saying what is wrong. */
export function betsFromJson(input: string): TrackedBet[] {
  let raw: unknown;
  try {
    raw = JSON.parse(input);
  } catch {
    throw new TrackerFileError('The file is not JSON.');
  }
  const head = z
    .object({ format: z.literal('sharpline-bets'), version: z.literal(1), bets: z.array(z.unknown()) })
    .safeParse(raw);
  if (!head.success)
    throw new TrackerFileError(
      'The JSON file is not a Sharpline bet export (format "sharpline-bets", version 1).',
    );
  if (head.data.bets.length > MAX_TRACKED_BETS)
    throw new TrackerFileError(`The JSON file has more than ${MAX_TRACKED_BETS} bets.`);
  return head.data.bets.map((bet, index) => checked(bet, `Bet ${index + 1}`));
}

/** Bets from an export file, CSV or JSON by its content. */
export function betsFromFile(input: string): TrackedBet[] {
  const start = input.replace(/^\ufeff/, '').trimStart();
  if (start === '') throw new TrackerFileError('The file is empty.');
  return start.startsWith('{') ? betsFromJson(start) : betsFromCsv(input);
}
