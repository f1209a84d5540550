import type { FeedSource } from '#domain/schemas/feed.ts';
import type { SgpMarginSchedule } from '#domain/sgp.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import type { DropReason } from '../messages.ts';

// One interface for every odds source (simulator, The Odds API, replay); ODDS_SOURCE picks one (sources/index.ts).

export interface SourceLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export interface SourceContext {
  /** Hands one untrusted message to the engine; false when it was dropped (and counted). */
  ingest(message: unknown): boolean;
  /** Counts a payload refused before it became messages (too large, not JSON). */
  drop(reason: DropReason): void;
  /** The initial state is in (or the source gave up on it): the engine may publish. */
  ready(): void;
  now(): number;
  log: SourceLogger;
}

/** The books a source has same-game-parlay prices for, each with its margin schedule (decision 129). */
export interface SgpBooks {
  books: ReadonlyMap<SportsbookKey, SgpMarginSchedule>;
}

export interface OddsSource {
  readonly name: FeedSource;
  /** Present when the source carries same-game-parlay prices (the simulator); The Odds API has none. */
  readonly sgp?: SgpBooks;
  /**
   * What the source's own messages are dropped for by design (the simulator with props: `ambiguous_player`, decision
   * 122): still counted, logged at debug level rather than as a warning (decision 298).
   */
  readonly expectedDrops?: readonly DropReason[];
  start(context: SourceContext): void | Promise<void>;
  stop(): void | Promise<void>;
}
