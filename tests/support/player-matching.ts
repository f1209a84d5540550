import type { Player } from '#domain/props.ts';
import {
  indexRoster,
  matchPlayer,
  type AmbiguousReason,
  type BookPlayer,
  type EventRoster,
  type UnmatchedReason,
} from '#domain/player-matching.ts';

// A whole list of book players matched against one event at once, for the matching's tests: the engine matches each
// prop price's player on its own (`matchPlayer`, src/engine/engine.ts).

export interface PlayerMatch {
  book: BookPlayer;
  player: Player;
  by: 'id' | 'name';
}

export interface UnmatchedPlayer {
  book: BookPlayer;
  reason: UnmatchedReason;
}

export interface AmbiguousPlayer {
  book: BookPlayer;
  reason: AmbiguousReason;
  /** The event's players it could be. */
  candidates: Player[];
}

export interface PlayerMatchResult {
  matched: PlayerMatch[];
  unmatched: UnmatchedPlayer[];
  ambiguous: AmbiguousPlayer[];
}

/** Every book player against the event: matched ones, and the dropped ones counted by why. */
export function matchPlayers(roster: EventRoster, bookPlayers: readonly BookPlayer[]): PlayerMatchResult {
  const index = indexRoster(roster);
  const result: PlayerMatchResult = { matched: [], unmatched: [], ambiguous: [] };
  for (const book of bookPlayers) {
    const match = matchPlayer(index, book);
    if (match.status === 'matched') result.matched.push({ book, player: match.player, by: match.by });
    else if (match.status === 'unmatched') result.unmatched.push({ book, reason: match.reason });
    else result.ambiguous.push({ book, reason: match.reason, candidates: match.candidates });
  }
  return result;
}
