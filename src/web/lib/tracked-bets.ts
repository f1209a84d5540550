import { useSyncExternalStore } from 'react';
import {
  betId,
  LEG_MARKETS,
  mergeBets,
  parseTrackedBet,
  type BetKind,
  type BetProp,
  type TrackedBet,
} from '#domain/bet-tracker.ts';
import { isPropStatKey } from '#domain/props.ts';
import type { Arb, FeedLeg } from '#domain/schemas/feed.ts';
import type { EvFeedRow } from '#domain/schemas/ev-feed.ts';
import type { MiddleFeedRow } from '#domain/schemas/middles-feed.ts';
import { isPeriod, OUTCOME_KEYS, type OutcomeKey } from '#domain/markets.ts';
import { storedValue } from '#web/lib/stored-value.ts';

// The bets the bet tracker keeps (issue 57, decision 257): in this browser's localStorage only, never sent anywhere
// without a key. The finder pages' Track buttons add to it; the tracker page reads, settles, imports and exports it.

export const TRACKED_BETS_STORAGE = 'sharpline.trackedBets';

/** Every stored bet that still reads as one (a damaged entry is left out rather than breaking the page). */
function parse(raw: string | null): readonly TrackedBet[] {
  if (raw === null) return [];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const bet = parseTrackedBet(item);
    return bet ? [bet] : [];
  });
}

const store = storedValue<readonly TrackedBet[]>(TRACKED_BETS_STORAGE, parse);

export const trackedBets = {
  get: store.getSnapshot,
  /** Replaces the list (a settle, a delete). */
  set: (bets: readonly TrackedBet[]) => store.write(bets),
  /** Adds bets not there yet; how many were added and skipped. */
  add(bets: readonly TrackedBet[]) {
    const merged = mergeBets(store.getSnapshot(), bets);
    if (merged.added > 0) store.write(merged.bets);
    return merged;
  },
};

/** The tracked bets; none before hydration (the prerendered page shows the empty tracker). */
export function useTrackedBets(): readonly TrackedBet[] {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}

/** What makes a row's side the same bet on a later visit: kind, event, market (a prop's stat and player), line,
 * outcome and book. */
export function trackKey(
  bet: Pick<TrackedBet, 'kind' | 'event_id' | 'market' | 'period' | 'line' | 'outcome' | 'book' | 'prop'>,
) {
  return [
    bet.kind,
    bet.event_id,
    bet.market,
    bet.period,
    bet.line ?? '',
    bet.outcome,
    bet.book,
    ...(bet.prop ? [bet.prop.stat, bet.prop.player_id ?? bet.prop.player] : []),
  ].join('|');
}

// ---------------------------------------------------------------------------------------------------------------
// Bets from finder rows

interface EventFacts {
  id: string;
  sport: string;
  league: string;
  home: string;
  away: string;
  startsAt: string | null;
}

interface SideFacts {
  leg: FeedLeg;
  selection: string;
  book: string;
  decimal: number;
  american: string;
  stake: number;
}

/** The side's own line: a spread leg's line is the home team's, so the away side's is its opposite. */
function sideLine(leg: FeedLeg): number | null {
  if (leg.line === null) return null;
  return leg.market === 'spread' && leg.outcome === 'away' ? -leg.line : leg.line;
}

function legBet(kind: BetKind, group: string | null, event: EventFacts, side: SideFacts, at: string) {
  const market = (LEG_MARKETS as readonly string[]).includes(side.leg.market)
    ? (side.leg.market as TrackedBet['market'])
    : null;
  // A prop's stat and player (decision 282); a prop leg without them cannot be graded, so it is not tracked.
  let prop: BetProp | undefined;
  if (market === 'prop') {
    const { stat, player_id: playerId, player } = side.leg;
    if (stat === undefined || !isPropStatKey(stat) || !playerId) return null;
    prop = { stat, player: player || playerId, player_id: playerId };
  }
  const outcome = (OUTCOME_KEYS as readonly string[]).includes(side.leg.outcome)
    ? (side.leg.outcome as OutcomeKey)
    : null;
  if (!market || !outcome || !isPeriod(side.leg.period) || side.stake <= 0) return null;
  const base: Omit<TrackedBet, 'id'> = {
    group,
    kind,
    placed_at: at,
    sport: event.sport,
    league: event.league,
    event_id: event.id,
    home: event.home,
    away: event.away,
    starts_at: event.startsAt,
    market,
    period: side.leg.period,
    line: sideLine(side.leg),
    outcome,
    selection: side.selection,
    book: side.book,
    decimal_odds: side.decimal,
    american_odds: side.american,
    stake: Math.round(side.stake),
    ...(prop ? { prop } : {}),
    settlement: null,
  };
  return parseTrackedBet({ id: betId(base), ...base });
}

/** Bets of a row: every side with a leg, or none when any side lacks one (an older snapshot's row). */
function rowBets(kind: BetKind, group: string | null, event: EventFacts, sides: SideFacts[], at: string) {
  const bets = sides.map((side) => legBet(kind, group, event, side, at));
  return bets.every((bet): bet is TrackedBet => bet !== null) ? bets : [];
}

/** An arb's sides as bets, at the stakes the row shows (cents), grouped. */
export function arbBets(arb: Arb, stakes: readonly number[], at: string): TrackedBet[] {
  if (!arb.sides.every((side) => side.leg)) return [];
  const event: EventFacts = {
    id: arb.event.id,
    sport: arb.event.sport ?? '',
    league: arb.event.league ?? '',
    home: arb.event.teams.home.name,
    away: arb.event.teams.away.name,
    startsAt: arb.event.date ?? null,
  };
  const group = `arb-${at}-${arb.sides.map((side) => side.id).join('-')}`;
  return rowBets(
    'arb',
    group.slice(0, 120),
    event,
    arb.sides.map((side, index) => ({
      leg: side.leg!,
      selection: side.name || side.selection.name,
      book: side.sportsbook,
      decimal: side.decimal_odds,
      american: side.price,
      stake: stakes[index] ?? 0,
    })),
    at,
  );
}

const feedEvent = (event: EvFeedRow['event']): EventFacts => ({
  id: event.id,
  sport: event.sport,
  league: event.league,
  home: event.home,
  away: event.away,
  startsAt: event.starts_at || null,
});

/** A positive-EV price as a bet at `stake` cents. */
export function evBets(row: EvFeedRow, stake: number, at: string): TrackedBet[] {
  if (!row.leg) return [];
  return rowBets(
    'ev',
    null,
    feedEvent(row.event),
    [
      {
        leg: row.leg,
        selection: row.outcome,
        book: row.book,
        decimal: row.decimal,
        american: row.american,
        stake,
      },
    ],
    at,
  );
}

/** A middle's two sides as bets at the stakes the row shows (cents), grouped. */
export function middleBets(row: MiddleFeedRow, stakes: readonly [number, number], at: string): TrackedBet[] {
  if (!row.high.leg || !row.low.leg) return [];
  const side = (s: MiddleFeedRow['high'], stake: number): SideFacts => ({
    leg: s.leg!,
    selection: s.name,
    book: s.book,
    decimal: s.decimal,
    american: s.american,
    stake,
  });
  return rowBets(
    'middle',
    `middle-${at}-${row.id}`.slice(0, 120),
    feedEvent(row.event),
    [side(row.high, stakes[0]), side(row.low, stakes[1])],
    at,
  );
}

/** An instant for bets made only to read their `trackKey`s (which do not depend on it). */
export const KEY_INSTANT = '1970-01-01T00:00:00.000Z';

/** The `trackKey`s of the bets a row would add (empty when it has none to add: a prop, a zero stake). */
export function rowTrackKeys(bets: readonly TrackedBet[]): string[] {
  return bets.map(trackKey);
}
