import type { MarketFair } from './ev.ts';
import type { MarketSpec, OddsEvent, OutcomeKey } from './markets.ts';
import type { CentreSource, MiddleChances, MiddleVariable } from './middles.ts';
import type { AmericanOdds, DecimalOdds } from './odds.ts';
import type { Player } from './props.ts';
import type { SportsbookKey } from './sportsbooks.ts';

// What the engine judges for positive EV (decision 163) and middles (decisions 167, 189), as domain values (issue 58):
// the engine hands these out, and the server maps them to the answers' DTOs (src/domain/ev-dto.ts,
// src/domain/middle-dto.ts). Every field an answer shows is here or derived from one, so that a mapping reads
// nothing else; the engine's rows (src/engine/values/ev.ts, middles.ts) extend them with what its scan keeps.

/** The market a value is of: its key, spec, player (props) and outcomes in order. */
export interface ValuedMarket {
  key: string;
  spec: MarketSpec;
  player?: Player | undefined;
  outcomes: readonly OutcomeKey[];
}

/** One book's price with positive EV against its market's fair probabilities, as judged at `instant`. */
export interface PositiveEvPrice {
  /** `market|outcome|book`: the same price keeps it while it lasts. */
  id: string;
  /** The event's record when judged (a changed record is a new object). */
  event: OddsEvent;
  market: ValuedMarket;
  /** The outcome's index in `market.outcomes`. */
  outcomeIndex: number;
  eventId: string;
  league: string;
  live: boolean;
  type: string;
  book: SportsbookKey;
  /** EV in percent, full precision. */
  evPct: number;
  /** The price's book time (its age is counted from it). */
  updatedAt: number;
  decimal: DecimalOdds;
  american: AmericanOdds;
  desktop: string | null;
  mobile: string | null;
  fairProbability: number;
  /** How many books priced every side (the fair's books). */
  fairBooks: number;
  startsAt: number;
  /** The instant it was judged at (the price's age is counted to it). */
  instant: number;
  /** What the fair came from, when not the default (Shin's method on the consensus). */
  fairSource: Pick<MarketFair, 'method' | 'reference' | 'fallback'> | undefined;
}

/** A side of a middle: a usable price, its fields copied, with its line on the variable. */
export interface MiddleQuote {
  market: ValuedMarket;
  outcome: number;
  /** The line on the variable. */
  line: number;
  book: SportsbookKey;
  decimal: DecimalOdds;
  american: AmericanOdds;
  updatedAt: number;
  desktop: string | null;
  mobile: string | null;
}

/** One middle: opposite sides of a game's spread or total, or of a player's prop, at two books leaving a gap. */
export interface MiddlePair {
  id: string;
  /** The event's record when judged. */
  readonly event: OddsEvent;
  /** What the lines are on: a game's margin or total, or a player's stat (a prop middle). */
  readonly variable: MiddleVariable | 'stat';
  /** The instant it was judged at (the sides' ages are counted to it). */
  readonly instant: number;
  readonly high: MiddleQuote;
  readonly low: MiddleQuote;
  /** The chances as published. */
  readonly published: MiddleChances;
  /** EV as a fraction, full precision. */
  readonly ev: number;
  /** The distribution's centre, full precision. */
  readonly centre: number;
  /** A prop middle's model; a game's is its league's (`middleModel`). */
  readonly propModel?: 'prop-poisson' | 'prop-normal' | undefined;
  /** What the centre was estimated from, when not the default (`MIDDLE_CENTRE_DEFAULT`). */
  readonly source: CentreSource | undefined;
  readonly eventId: string;
  readonly league: string;
  readonly live: boolean;
  readonly type: string;
  readonly books: readonly [SportsbookKey, SportsbookKey];
  /** EV in percent, full precision, and as published. */
  readonly evPct: number;
  readonly publishedEvPct: number;
  /** The chance of the gap as published, and of each push. */
  readonly probability: number;
  readonly pushHigh: number;
  readonly pushLow: number;
  readonly startsAt: number;
}

/** Whole seconds from `updatedAt` to `at` (0 at the least): a price's age as an answer at `at` shows it. */
export function ageSeconds(at: number, updatedAt: number): number {
  return Math.max(0, Math.floor((at - updatedAt) / 1000));
}
