import { canonicalDecimal } from '#domain/arbitrage.ts';
import { propKindOf } from '#domain/market-labels.ts';
import {
  isLeagueKey,
  isPeriod,
  isValidPoint,
  MARKET_TYPES,
  outcomesOf,
  PERIODS,
  type LeagueKey,
  type MarketType,
  type OutcomeKey,
  type Period,
  type PriceLinks,
  type Team,
} from '#domain/markets.ts';
import { isPropStatKey, propOutcomes, type Player, type PropStatKey } from '#domain/props.ts';
import type { StatLine } from '#domain/grading.ts';
import {
  americanToDecimal,
  decimalToAmerican,
  isValidAmerican,
  type AmericanOdds,
  type DecimalOdds,
} from '#domain/odds.ts';
import {
  getSportsbook,
  SPORTSBOOK_KEYS,
  isAllowedLink,
  type SportsbookConfig,
  type SportsbookKey,
} from '#domain/sportsbooks.ts';
import { slug } from './events.ts';
import { bookSlot, PERIOD_CODES, TYPE_CODES } from './store.ts';
import { emptyDropCounters, type DropCounters, type DropReason } from './messages.ts';

// Validation of untrusted source messages: the one place that parses, checks, normalises and bounds what sources send,
// and counts what it drops (decision 095). The engine receives only checked messages (`CheckedMessage`).
// Hand-written rather than zod: it runs once per price update, a million times a second in the benchmark. Each
// function returns the normalised value or the reason it was dropped.

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: DropReason };

const fail = (reason: DropReason): { ok: false; reason: DropReason } => ({ ok: false, reason });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= max ? trimmed : null;
}

/**
 * What no text from a source may carry (decision 148): C0 and C1 controls and DEL (PostgreSQL cannot even store a NUL,
 * and one stopped the odds history: issue 31), the bidi marks, embeddings, overrides and isolates (U+061C, U+200E,
 * U+200F, U+202A–U+202E, U+2066–U+2069: they reorder what a page shows around them), the line and paragraph separators,
 * and lone surrogate halves (no UTF-8 encodes them).
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

/** What the checks of one message cleaned (names kept without their unsafe characters) and left out (roster entries). */
export interface TextNotes {
  cleaned: number;
  refused: number;
}

/**
 * A name (shown, never a key): trimmed and bounded like `text`, its unsafe characters removed and counted in `notes`.
 * False when nothing but such characters (and spaces) was there: the record is refused (`control_characters`).
 */
function nameText(value: unknown, max: number, notes: TextNotes): string | null | false {
  if (typeof value !== 'string' || !UNSAFE.test(value)) return text(value, max);
  const cleaned = value.replace(UNSAFE_ALL, '').trim();
  if (cleaned.length === 0) return false;
  if (cleaned.length > max) return null;
  notes.cleaned += 1;
  return cleaned;
}

/** An id (a key: matched, stored, compared): like `text`, but false, never cleaned, when it holds unsafe characters. */
function idText(value: unknown, max: number): string | null | false {
  if (typeof value === 'string' && UNSAFE.test(value)) return false;
  return text(value, max);
}

export interface CheckedEvent {
  kind: 'event';
  sourceEventId: string;
  league: LeagueKey;
  home: Team;
  away: Team;
  startsAt: number;
  live: boolean;
  /** The roster entries that hold (team resolved to 'home' / 'away', ids unique); empty when none were sent. */
  players: Player[];
}

/** Most players one event message may list (two squads with every reserve fit well inside). */
export const MAX_ROSTER = 200;

/** An end names a fixture by the source's id; whether the engine knows it is the engine's question. */
export interface CheckedEnd {
  kind: 'end';
  sourceEventId: string;
}

/** "Boston Celtics" → "BC"; used when a source gives no abbreviation. */
export function deriveAbbreviation(name: string): string {
  const words = name
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.length > 1 ? words.map((word) => word[0]).join('') : (words[0] ?? 'TBD').slice(0, 3);
  return letters.toUpperCase().slice(0, 4) || 'TBD';
}

/**
 * A team as the store keeps it: without an id from the source, the slug of its name. False when its id holds unsafe
 * characters or its name nothing else; an abbreviation of nothing else is derived from the name, like a missing one.
 */
function checkTeam(value: unknown, notes: TextNotes): Team | null | false {
  if (!isRecord(value)) return null;
  const name = nameText(value.name, 200, notes);
  const id = idText(value.id, 128);
  if (name === false || id === false) return false;
  if (!name) return null;
  const abbreviation = nameText(value.abbreviation, 16, notes);
  if (abbreviation === false) notes.cleaned += 1;
  return { id: id ?? slug(name), name, abbreviation: abbreviation || deriveAbbreviation(name) };
}

export function parseTime(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : null;
  if (typeof value === 'string' && value.length <= 40) {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}

const DAY_MS = 86_400_000;

/**
 * What ingestion accepts beyond the shape of a message: plausible odds and times (decisions 045, 046). A value outside
 * is dropped and counted (`odds_out_of_range`, `time_out_of_range`, `future_timestamp`), never clamped.
 */
export interface IngestLimits {
  /** Decimal odds below this (after flooring to 4 places) are dropped (ODDS_MIN_DECIMAL). */
  minDecimal: number;
  /** Decimal odds above this are dropped (ODDS_MAX_DECIMAL). */
  maxDecimal: number;
  /** An event may have started at most this long ago... */
  startPastMs: number;
  /** ...and may start at most this far ahead. */
  startFutureMs: number;
  /** A price's update time may be at most this old... */
  updatePastMs: number;
  /** ...and at most this far ahead of our clock (skew); beyond it: `future_timestamp`. */
  skewMs: number;
}

export const DEFAULT_INGEST_LIMITS: Readonly<IngestLimits> = {
  minDecimal: 1.001,
  maxDecimal: 1001,
  startPastMs: 2 * DAY_MS,
  startFutureMs: 400 * DAY_MS,
  updatePastMs: 400 * DAY_MS,
  skewMs: 5_000,
};

/**
 * The highest ODDS_MAX_DECIMAL allowed: up to it every published figure is a finite number in its schema's range
 * (implied_prob = 1/d to 6 places stays > 0, edge_pct stays finite).
 */
export const MAX_DECIMAL_LIMIT = 1_000_000;

/** Throws when the odds range could let a non-finite or out-of-schema number reach the feed. */
export function assertIngestLimits(limits: IngestLimits): void {
  const { minDecimal, maxDecimal } = limits;
  if (!(minDecimal > 1 && minDecimal <= maxDecimal && maxDecimal <= MAX_DECIMAL_LIMIT))
    throw new RangeError(
      `Decimal odds range must satisfy 1 < min <= max <= ${MAX_DECIMAL_LIMIT}, got ${minDecimal}..${maxDecimal}`,
    );
  for (const key of ['startPastMs', 'startFutureMs', 'updatePastMs', 'skewMs'] as const)
    if (!(limits[key] >= 0 && Number.isFinite(limits[key])))
      throw new RangeError(`${key} must be a finite number >= 0, got ${limits[key]}`);
}

/** The longest delay a Node timer takes (2^31 − 1 ms, about 24.8 days); a longer one fires at once, with a warning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timer delay computed from input, clamped to what `setTimeout` honours (0..MAX_TIMER_MS; NaN → 0). */
export function timerDelay(ms: number): number {
  return ms > 0 ? Math.min(ms, MAX_TIMER_MS) : 0;
}

/**
 * Checks an event message. Its names are cleaned of unsafe characters and its roster entries may be left out: `notes`
 * counts both (the intake counts them as `text_cleaned` and `control_characters` when the event is accepted).
 */
export function checkEvent(
  message: Record<string, unknown>,
  now: number,
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
  notes: TextNotes = { cleaned: 0, refused: 0 },
): Checked<CheckedEvent> {
  const sourceEventId = message.sourceEventId;
  if (typeof sourceEventId !== 'string' || sourceEventId.length === 0 || sourceEventId.length > 200)
    return fail('malformed');
  if (UNSAFE.test(sourceEventId)) return fail('control_characters');
  const home = checkTeam(message.home, notes);
  const away = checkTeam(message.away, notes);
  if (home === false || away === false) return fail('control_characters');
  if (!home || !away || normalisedEqual(home.name, away.name)) return fail('missing_teams');
  if (typeof message.league !== 'string' || !isLeagueKey(message.league)) return fail('unknown_league');
  const startsAt = parseTime(message.startsAt);
  if (startsAt === null) return fail('malformed');
  if (startsAt < now - limits.startPastMs || startsAt > now + limits.startFutureMs)
    return fail('time_out_of_range');
  if (message.live !== undefined && typeof message.live !== 'boolean') return fail('malformed');
  let players: Player[] = [];
  if (message.players !== undefined) {
    if (!Array.isArray(message.players) || message.players.length > MAX_ROSTER) return fail('malformed');
    players = checkRoster(message.players, home, away, notes);
  }
  return {
    ok: true,
    value: {
      kind: 'event',
      sourceEventId,
      league: message.league,
      home,
      away,
      startsAt,
      live: message.live === true,
      players,
    },
  };
}

/**
 * The roster entries that hold: a name, a team that is one of the two ('home', 'away' or a team's id) or no team at
 * all, and an id unique in the event (without one: `team:name-slug`). A source that cannot know a player's team (The
 * Odds API names players without teams; decision 123) leaves `team` out: the player is kept with team '' (unknown),
 * which no team a book names ever equals, so a prop that names a team never matches him by name. A team that is given
 * but is neither of the two still leaves the entry out, as does anything else that does not hold; the fixture stands.
 */
function checkRoster(entries: readonly unknown[], home: Team, away: Team, notes: TextNotes): Player[] {
  const players: Player[] = [];
  const ids = new Set<string>();
  for (const entry of entries) {
    if (!isRecord(entry)) continue;
    // An entry whose id holds unsafe characters, or whose name holds nothing else, is left out (and counted).
    const entryNotes = { cleaned: 0, refused: 0 };
    const name = nameText(entry.name, 100, entryNotes);
    const givenId = idText(entry.id, 128);
    if (name === false || givenId === false) {
      notes.refused += 1;
      continue;
    }
    const rawTeam = typeof entry.team === 'string' ? entry.team : '';
    const team =
      entry.team === undefined || entry.team === null
        ? ''
        : rawTeam === 'home' || rawTeam === home.id
          ? 'home'
          : rawTeam === 'away' || rawTeam === away.id
            ? 'away'
            : null;
    if (!name || team === null) continue;
    const id = givenId ?? `${team || 'unknown'}:${slug(name)}`;
    if (ids.has(id)) continue;
    ids.add(id);
    notes.cleaned += entryNotes.cleaned;
    players.push({ id, name, team });
  }
  return players;
}

/** A fixture's score as the engine keeps it (issue 57): whole numbers, periods the markets know, a short clock text. */
export interface CheckedScore {
  kind: 'score';
  sourceEventId: string;
  status: 'live' | 'final';
  home: number;
  away: number;
  periods: Partial<Record<Period, { home: number; away: number }>>;
  clock: string | null;
  updatedAt: number;
  /** False: the source gives only the game's score, no period's (docs/grading.md: period bets stay ungraded). */
  periodScores: boolean;
  /** A final's box score (player id → period → stat → count; null: did not play); null when none was sent. */
  players: Record<string, Partial<Record<Period, StatLine>> | null> | null;
}

/** Most of one stat a player may have in one period (far above any game's: a feed error beyond it). */
export const MAX_STAT = 9_999;

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_STAT;

/**
 * A final's box score: at most MAX_ROSTER players, each by a safe id, null (did not play) or his figures per market
 * period, each a prop stat key and a whole count. Anything else refuses the message (props are settled on it).
 */
function checkBoxScore(value: unknown): CheckedScore['players'] | false {
  if (!isRecord(value)) return false;
  const entries = Object.entries(value);
  if (entries.length > MAX_ROSTER) return false;
  const players: NonNullable<CheckedScore['players']> = {};
  for (const [id, line] of entries) {
    if (idText(id, 128) !== id) return false;
    if (line === null) {
      players[id] = null;
      continue;
    }
    if (!isRecord(line)) return false;
    const periods: Partial<Record<Period, StatLine>> = {};
    for (const [period, stats] of Object.entries(line)) {
      if (!isPeriod(period) || !isRecord(stats)) return false;
      const figures: StatLine = {};
      for (const [stat, count] of Object.entries(stats)) {
        if (!isPropStatKey(stat) || !isCount(count)) return false;
        figures[stat] = count;
      }
      periods[period] = figures;
    }
    players[id] = periods;
  }
  return players;
}

/** Most points one side may have in a score (far above any game of the leagues carried: a feed error beyond it). */
export const MAX_SCORE = 999;

const isPoints = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_SCORE;

/**
 * A score: its status, each side's points (whole, 0 to MAX_SCORE), its periods (only the market periods; any other
 * key or a bad number refuses the message: a result is settled on them), a clock text of at most 32 characters, an
 * update time no later than the clock's skew allows, whether the source scores periods, and a final's box score.
 */
export function checkScore(
  message: Record<string, unknown>,
  now: number,
  limits: IngestLimits,
  notes: TextNotes,
): Checked<CheckedScore> {
  const sourceEventId = message.sourceEventId;
  if (typeof sourceEventId !== 'string' || sourceEventId.length === 0) return fail('unknown_event');
  if (message.status !== 'live' && message.status !== 'final') return fail('malformed');
  if (!isPoints(message.home) || !isPoints(message.away)) return fail('malformed');
  const periods: CheckedScore['periods'] = {};
  if (message.periods !== undefined) {
    if (!isRecord(message.periods)) return fail('malformed');
    for (const [key, value] of Object.entries(message.periods)) {
      if (!isPeriod(key) || !isRecord(value) || !isPoints(value.home) || !isPoints(value.away))
        return fail('malformed');
      periods[key] = { home: value.home, away: value.away };
    }
  }
  let clock: string | null = null;
  if (message.clock !== undefined && message.clock !== null) {
    const checked = nameText(message.clock, 32, notes);
    if (checked === false) return fail('control_characters');
    if (checked === null) return fail('malformed');
    clock = checked;
  }
  let updatedAt = now;
  if (message.updatedAt !== undefined) {
    const parsed = parseTime(message.updatedAt);
    if (parsed === null) return fail('malformed');
    if (parsed > now + limits.skewMs) return fail('future_timestamp');
    if (parsed < now - limits.updatePastMs) return fail('time_out_of_range');
    updatedAt = Math.min(parsed, now);
  }
  if (message.periodScores !== undefined && typeof message.periodScores !== 'boolean')
    return fail('malformed');
  let players: CheckedScore['players'] = null;
  if (message.players !== undefined && message.players !== null) {
    // Player figures settle props: they come with the final only.
    const checked = message.status === 'final' ? checkBoxScore(message.players) : false;
    if (checked === false) return fail('malformed');
    players = checked;
  }
  return {
    ok: true,
    value: {
      kind: 'score',
      sourceEventId,
      status: message.status,
      home: message.home,
      away: message.away,
      periods,
      clock,
      updatedAt,
      periodScores: message.periodScores !== false,
      players,
    },
  };
}

/** An end without a usable id cannot name a known fixture: counted as `unknown_event`, like an id nobody sent. */
export function checkEnd(message: Record<string, unknown>): Checked<CheckedEnd> {
  const sourceEventId = message.sourceEventId;
  if (typeof sourceEventId !== 'string' || sourceEventId.length === 0) return fail('unknown_event');
  return { ok: true, value: { kind: 'end', sourceEventId } };
}

function normalisedEqual(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export interface CheckedPrice {
  kind: 'price';
  sourceEventId: string;
  book: SportsbookKey;
  /** The book's slot in the store (`bookSlot`). */
  bookSlot: number;
  type: MarketType;
  period: Period;
  /** The type's and period's numbers (`TYPE_CODES`, -1 for a prop; `PERIOD_CODES`): the market's code is made of them. */
  typeCode: number;
  periodCode: number;
  /** The market's point: the home line for spreads, the line of an over/under prop. */
  point: number | null;
  /** Props only (null otherwise): the stat, and the player as the book names him (matched by the engine). */
  stat: PropStatKey | null;
  playerId: string | null;
  playerName: string;
  playerTeam: string | null;
  outcome: OutcomeKey;
  outcomeIndex: number;
  american: AmericanOdds;
  decimal: DecimalOdds;
  /** undefined: keep the links already held. */
  links: PriceLinks | undefined;
  updatedAt: number;
  suspended: boolean;
}

export function emptyCheckedPrice(): CheckedPrice {
  return {
    kind: 'price',
    sourceEventId: '',
    book: 'fanduel',
    bookSlot: bookSlot('fanduel'),
    type: 'moneyline',
    period: 'full',
    typeCode: TYPE_CODES.moneyline,
    periodCode: PERIOD_CODES.full,
    point: null,
    stat: null,
    playerId: null,
    playerName: '',
    playerTeam: null,
    outcome: 'home',
    outcomeIndex: 0,
    american: 100 as AmericanOdds,
    decimal: 2 as DecimalOdds,
    links: undefined,
    updatedAt: 0,
    suspended: false,
  };
}

/** Each market type by name: its code and a game line's outcomes (a prop's depend on its stat). One lookup a price. */
const MARKET_TYPES_BY_NAME = new Map<string, { code: number; outcomes: readonly OutcomeKey[] }>(
  MARKET_TYPES.map((type) => [
    type,
    type === 'prop' ? { code: -1, outcomes: [] } : { code: TYPE_CODES[type], outcomes: outcomesOf(type) },
  ]),
);
/** Each period by name: its code. */
const PERIODS_BY_NAME = new Map<string, number>(PERIODS.map((period) => [period, PERIOD_CODES[period]]));

const AMERICAN_TEXT = /^\s*[+-]?\d+(\.\d+)?\s*$/;

/**
 * Validates odds into `out` (American wins when both are given); returns the drop reason or null. The stored decimal
 * must lie in [minDecimal, maxDecimal] (both finite, > 1): American 1e308 or decimal 1e12 are not prices.
 */
function oddsInto(
  american: unknown,
  decimal: unknown,
  limits: IngestLimits,
  out: { american: AmericanOdds; decimal: DecimalOdds },
): DropReason | null {
  if (american !== undefined && american !== null) {
    let value: number;
    if (typeof american === 'number') value = american;
    else if (typeof american === 'string' && AMERICAN_TEXT.test(american)) value = Number(american);
    else return 'invalid_odds';
    if (!Number.isFinite(value) || value === 0) return 'invalid_odds';
    if (!isValidAmerican(value)) return 'american_out_of_range';
    const d = canonicalDecimal(americanToDecimal(value));
    if (!(d > 1)) return 'invalid_odds';
    if (!(d >= limits.minDecimal && d <= limits.maxDecimal)) return 'odds_out_of_range';
    out.american = value;
    out.decimal = d;
    return null;
  }
  if (typeof decimal !== 'number' || !Number.isFinite(decimal) || decimal <= 1) return 'invalid_odds';
  const d = canonicalDecimal(decimal);
  if (!(d > 1)) return 'invalid_odds';
  if (!(d >= limits.minDecimal && d <= limits.maxDecimal)) return 'odds_out_of_range';
  out.american = decimalToAmerican(d);
  out.decimal = d;
  return null;
}

/** Odds from American (number or "+150" text) or decimal; both given: the American figure wins. */
export function checkOdds(
  american: unknown,
  decimal: unknown,
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
): Checked<{ american: AmericanOdds; decimal: DecimalOdds }> {
  const out = { american: 100 as AmericanOdds, decimal: 2 as DecimalOdds };
  const reason = oddsInto(american, decimal, limits, out);
  return reason ? fail(reason) : { ok: true, value: out };
}

type LinkVerdict = 'ok' | 'bad_link' | 'unfilled_placeholder' | 'control_characters';

/** A sportsbook's config, its store slot, and the verdicts on the links it sent (one map per kind, by link). */
interface KnownBook {
  config: SportsbookConfig;
  slot: number;
  verdicts: { desktop: Map<string, LinkVerdict>; mobile: Map<string, LinkVerdict> };
}

/** Each sportsbook by key: one lookup per price. */
const BOOKS = new Map<string, KnownBook>(
  SPORTSBOOK_KEYS.map((key) => [
    key,
    { config: getSportsbook(key)!, slot: bookSlot(key), verdicts: { desktop: new Map(), mobile: new Map() } },
  ]),
);

/**
 * The most link verdicts, and shared link pairs, kept (each cache is emptied when it holds more). A feed repeats the
 * same links on every update: the caches are looked up by the link itself, in maps per book and kind (and by desktop
 * link, then mobile link), so that no key string is built per update (issue 37).
 */
const MAX_CACHED_LINKS = 50_000;
let cachedVerdicts = 0;

/**
 * One `PriceLinks` object per pair of links (issue 37): a feed repeats the same links on every update, and many prices
 * share them (a book's page for every outcome of a market, or for a whole demo board), so a price holds the shared
 * object instead of one of its own. Links are never modified once checked (the store replaces a price's links, never
 * edits them). An empty link is never kept (no link), so '' stands for null in the maps' keys.
 */
const linksCache = new Map<string, Map<string, PriceLinks>>();
let cachedPairs = 0;

export function sharedLinks(desktop: string | null, mobile: string | null): PriceLinks {
  let byMobile = linksCache.get(desktop ?? '');
  let links = byMobile?.get(mobile ?? '');
  if (links === undefined) {
    if (cachedPairs >= MAX_CACHED_LINKS) {
      linksCache.clear();
      cachedPairs = 0;
      byMobile = undefined;
    }
    if (byMobile === undefined) {
      byMobile = new Map();
      linksCache.set(desktop ?? '', byMobile);
    }
    links = { desktop, mobile };
    byMobile.set(mobile ?? '', links);
    cachedPairs += 1;
  }
  return links;
}

function checkLink(book: KnownBook, link: unknown, kind: 'desktop' | 'mobile'): 'ok' | DropReason {
  if (typeof link !== 'string') return 'bad_link';
  const cached = book.verdicts[kind].get(link);
  if (cached) return cached;
  let verdict: LinkVerdict;
  // A link is never cleaned (that would make it another address): one with unsafe characters is removed.
  if (UNSAFE.test(link)) verdict = 'control_characters';
  else if (/\{[A-Za-z_][A-Za-z0-9_]*\}|%7b[a-z_][a-z0-9_]*%7d/i.test(link)) verdict = 'unfilled_placeholder';
  else verdict = isAllowedLink(book.config, link, kind) ? 'ok' : 'bad_link';
  if (cachedVerdicts >= MAX_CACHED_LINKS) {
    for (const known of BOOKS.values()) {
      known.verdicts.desktop.clear();
      known.verdicts.mobile.clear();
    }
    cachedVerdicts = 0;
  }
  book.verdicts[kind].set(link, verdict);
  cachedVerdicts += 1;
  return verdict;
}

/**
 * Checks one price message into `out` (reused across calls: no allocation per update) and returns the drop reason,
 * or null when it holds. `onPartialDrop` counts what is left out of a price that is kept: a refused link (removed: the
 * page then disables the bet button; one holding unsafe characters too). The event id and a prop's player naming (id,
 * name, team) are not searched for unsafe characters (the hot path, decision 148): they are only looked up in what the
 * intake has cleaned (the fixtures, their rosters) and never stored, so they match nothing unsafe: no fixture holding
 * one is accepted (`unknown_event`), and a matched player is the roster's entry.
 */
export function checkPrice(
  message: Record<string, unknown>,
  now: number,
  limits: IngestLimits,
  onPartialDrop: (reason: DropReason) => void,
  out: CheckedPrice,
): DropReason | null {
  const sourceEventId = message.sourceEventId;
  if (typeof sourceEventId !== 'string' || sourceEventId.length === 0 || sourceEventId.length > 200)
    return 'malformed';
  const known = typeof message.book === 'string' ? BOOKS.get(message.book) : undefined;
  if (!known) return 'unknown_book';
  const book = known.config;
  const market = typeof message.market === 'string' ? MARKET_TYPES_BY_NAME.get(message.market) : undefined;
  if (market === undefined) return 'unknown_market';
  const type = message.market as MarketType;
  const period = message.period ?? 'full';
  const periodCode = typeof period === 'string' ? PERIODS_BY_NAME.get(period) : undefined;
  if (periodCode === undefined) return 'unknown_market';
  const outcome = message.outcome;
  let outcomes: readonly OutcomeKey[];
  let stat: PropStatKey | null = null;
  if (type === 'prop') {
    // The stat decides the outcomes (over/under or yes/no); whether the league offers it in this period, at this
    // line, is the engine's check (it knows the league).
    const rawStat = message.stat;
    const kind = typeof rawStat === 'string' && isPropStatKey(rawStat) ? propKindOf(rawStat) : undefined;
    if (!kind) return 'unknown_market';
    stat = rawStat as PropStatKey;
    outcomes = propOutcomes(kind);
    if (!isRecord(message.player)) return 'malformed';
  } else outcomes = market.outcomes;
  const outcomeIndex = typeof outcome === 'string' ? outcomes.indexOf(outcome as OutcomeKey) : -1;
  if (outcomeIndex < 0) return 'unknown_market';
  const rawPoint = message.point ?? null;
  if (rawPoint !== null && typeof rawPoint !== 'number') return 'unknown_market';
  // Spreads are keyed by the home line, so both sides of one market are exact opposites by construction.
  const point = type === 'spread' && rawPoint !== null && outcome === 'away' ? -rawPoint + 0 : rawPoint;
  if (type === 'prop') {
    const player = message.player as Record<string, unknown>;
    const name = player.name === undefined || player.name === null ? '' : text(player.name, 100);
    const id = player.id === undefined || player.id === null ? null : text(player.id, 128);
    const team = player.team === undefined || player.team === null ? null : text(player.team, 128);
    if (name === null || (name === '' && id === null)) return 'malformed';
    if ((player.id ?? null) !== null && id === null) return 'malformed';
    if ((player.team ?? null) !== null && team === null) return 'malformed';
    out.playerId = id;
    out.playerName = name;
    out.playerTeam = team;
  } else if (!isValidPoint(type, point)) return 'unknown_market';
  const oddsReason = oddsInto(message.american, message.decimal, limits, out);
  if (oddsReason) return oddsReason;
  let updatedAt = now;
  if (message.updatedAt !== undefined) {
    const parsed = parseTime(message.updatedAt);
    if (parsed === null) return 'malformed';
    // A price from the future beyond the allowed clock skew is never taken as fresh.
    if (parsed > now + limits.skewMs) return 'future_timestamp';
    if (parsed < now - limits.updatePastMs) return 'time_out_of_range';
    updatedAt = Math.min(parsed, now);
  }
  if (message.suspended !== undefined && typeof message.suspended !== 'boolean') return 'malformed';
  let links: PriceLinks | undefined;
  if (message.links !== undefined) {
    if (!isRecord(message.links)) return 'malformed';
    let desktop: string | null = null;
    let mobile: string | null = null;
    for (const kind of ['desktop', 'mobile'] as const) {
      const link = message.links[kind];
      if (link === undefined || link === null || link === '') continue;
      const verdict = checkLink(known, link, kind);
      if (verdict !== 'ok') onPartialDrop(verdict);
      else if (kind === 'desktop') desktop = link as string;
      else mobile = link as string;
    }
    links = sharedLinks(desktop, mobile);
  }
  out.sourceEventId = sourceEventId;
  out.book = book.key;
  out.bookSlot = known.slot;
  out.type = type;
  out.period = period as Period;
  out.typeCode = market.code;
  out.periodCode = periodCode;
  out.point = point;
  out.stat = stat;
  if (stat === null) {
    out.playerId = null;
    out.playerName = '';
    out.playerTeam = null;
  }
  out.outcome = outcomes[outcomeIndex]!;
  out.outcomeIndex = outcomeIndex;
  out.links = links;
  out.updatedAt = updatedAt;
  out.suspended = message.suspended === true;
  return null;
}

/** Default cap on one payload (an HTTP body, a replay line batch): checked on the bytes, before any parsing. */
export const DEFAULT_MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

/** Parses an untrusted payload: refused over `maxBytes` (before parsing) or when it is not JSON. */
export function parsePayload(
  body: string | Uint8Array,
  maxBytes = DEFAULT_MAX_PAYLOAD_BYTES,
): Checked<unknown> {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (size > maxBytes) return fail('payload_too_large');
  try {
    return {
      ok: true,
      value: JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8')),
    };
  } catch {
    return fail('not_json');
  }
}

/** A message that passed every check: what the engine applies. A checked price is reused by the next check. */
export type CheckedMessage = CheckedEvent | CheckedPrice | CheckedEnd | CheckedScore;

/**
 * The engine's intake: checks untrusted payloads and messages against the limits and counts every drop, its own and
 * those the engine reports when a checked message names a fixture or market it does not hold.
 */
export class Intake {
  private readonly limits: Readonly<IngestLimits>;
  private readonly counters = emptyDropCounters();
  private total = 0;
  private readonly price = emptyCheckedPrice();
  private readonly countPartialDrop = (reason: DropReason) => this.drop(reason);

  constructor(
    limits: Partial<IngestLimits> = {},
    private readonly onDrop?: (reason: DropReason, count: number) => void,
  ) {
    this.limits = { ...DEFAULT_INGEST_LIMITS, ...limits };
    assertIngestLimits(this.limits);
  }

  get dropped(): number {
    return this.total;
  }

  /** A copy of the counters, one per reason. */
  drops(): DropCounters {
    return { ...this.counters };
  }

  drop(reason: DropReason, count = 1): void {
    this.counters[reason] += count;
    this.total += count;
    this.onDrop?.(reason, count);
  }

  /** The messages of a payload (one message or an array of them); null, counted, when too large or not JSON. */
  parse(body: string | Uint8Array, maxBytes?: number): unknown[] | null {
    const parsed = parsePayload(body, maxBytes);
    if (!parsed.ok) {
      this.drop(parsed.reason);
      return null;
    }
    return Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  }

  /** Checks one untrusted message at `now`: the checked message, or null when it was dropped (and counted). */
  check(message: unknown, now: number): CheckedMessage | null {
    if (!isRecord(message)) return this.refuse('malformed');
    switch (message.kind) {
      case 'price': {
        const reason = checkPrice(message, now, this.limits, this.countPartialDrop, this.price);
        return reason ? this.refuse(reason) : this.price;
      }
      case 'event': {
        const notes = { cleaned: 0, refused: 0 };
        const checked = checkEvent(message, now, this.limits, notes);
        if (!checked.ok) return this.refuse(checked.reason);
        if (notes.cleaned > 0) this.drop('text_cleaned', notes.cleaned);
        if (notes.refused > 0) this.drop('control_characters', notes.refused);
        return checked.value;
      }
      case 'end': {
        const checked = checkEnd(message);
        return checked.ok ? checked.value : this.refuse(checked.reason);
      }
      case 'score': {
        const notes = { cleaned: 0, refused: 0 };
        const checked = checkScore(message, now, this.limits, notes);
        if (!checked.ok) return this.refuse(checked.reason);
        if (notes.cleaned > 0) this.drop('text_cleaned', notes.cleaned);
        return checked.value;
      }
      default:
        return this.refuse('malformed');
    }
  }

  private refuse(reason: DropReason): null {
    this.drop(reason);
    return null;
  }
}
