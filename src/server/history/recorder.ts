import { sideId, type OddsEvent, type OutcomeKey } from '#domain/markets.ts';
import type { BoxScore } from '#domain/grading.ts';
import { boxScoreOf, type GameScore } from '#engine/scores.ts';
import { pricesOf, type EventChange, type PriceChange } from '#engine/store.ts';

// Turns what the engine's store accepts into history rows, in memory and on the engine's call stack (no I/O here):
// a price change that changes nothing (same odds, same suspension as the version it replaced) is not a change and is
// not kept; everything else becomes a tick. `cut()` hands the rows gathered since the last cut to the writer as one
// batch. It keeps no state per series: the store's change carries the version it replaced, and an ended event's
// markets carry their last prices (decision 106: the idle server's memory stays within its budget).

/** Tick states as stored (price_ticks.state). */
export const TICK_STATE = { open: 0, suspended: 1, removed: 2 } as const;
export type TickStateCode = (typeof TICK_STATE)[keyof typeof TICK_STATE];

export interface SeriesKey {
  key: string;
  eventId: string;
  marketKey: string;
  marketType: string;
  period: string;
  line: number | null;
  outcome: OutcomeKey;
  book: string;
  sideId: string;
  /** Props only (null for game lines): the stat and the player as the event's roster named him. */
  stat: string | null;
  playerId: string | null;
  playerName: string | null;
  /** 'home' or 'away'; null when the source did not say (or for game lines). */
  playerTeam: 'home' | 'away' | null;
}

export interface EventRow {
  id: string;
  league: string;
  home: OddsEvent['home'];
  away: OddsEvent['away'];
  startsAt: number;
  /** First time the recorder saw it (unix ms). */
  seenAt: number;
  liveAt: number | null;
  endedAt: number | null;
}

/** A game's final score (issue 57): each period's score, and when the final arrived (unix ms). */
export interface ResultRow {
  eventId: string;
  league: string;
  periods: GameScore['periods'];
  completedAt: number;
  /** False: the source gives only the game's score; period series stay ungraded (decision 262). */
  periodScores: boolean;
  /** The players' figures (who played), when the source gives them; props are graded from it (decision 261). */
  boxScore: BoxScore | null;
}

/** Rows gathered between two cuts, as columns (the writer binds each column as one array parameter). */
export interface HistoryBatch {
  events: EventRow[];
  /** Series this recorder had not seen before (the writer resolves their ids). */
  series: SeriesKey[];
  ticks: {
    key: string[];
    /** Unix microseconds, strictly increasing per series. */
    atUs: number[];
    american: number[];
    decimal: number[];
    state: TickStateCode[];
    /**
     * The league of the tick's event ('' when the recorder did not know the event): the writer marks each millisecond
     * in which a league had a change in that league's index of changes (decision 311).
     */
    league: string[];
  };
  /**
   * Indexes (into `ticks`) of first sights: prices this process had no earlier version of (its start, or a new lead).
   * The database may already hold the same price as its series' last tick (written before a restart, or by the
   * previous leader): the writer then skips it rather than record a change that did not happen.
   */
  fresh: number[];
  /** Final scores that arrived (issue 57): kept on their event, and their series graded from them. */
  results: ResultRow[];
  /** Every change received at or before this time (unix ms) is in this batch or an earlier one. */
  upTo: number;
}

export class HistoryRecorder {
  private readonly events = new Map<string, EventRow>();
  private batch: HistoryBatch;
  /** The millisecond of the last tick, and how many ticks it had: a tick's microseconds (see `atOf`). */
  private lastMs = 0;
  private inMs = 0;

  constructor(private readonly now: () => number) {
    this.batch = this.emptyBatch();
  }

  private emptyBatch(): HistoryBatch {
    return {
      events: [],
      series: [],
      ticks: { key: [], atUs: [], american: [], decimal: [], state: [], league: [] },
      fresh: [],
      results: [],
      upTo: 0,
    };
  }

  /** Rows waiting for the next cut. */
  get pendingRows(): number {
    return this.batch.ticks.key.length;
  }

  /**
   * A tick's time in microseconds: its millisecond, plus its rank among the ticks of that millisecond, so that two
   * changes of one series in one millisecond keep their order and (series, time) stays unique.
   */
  private atOf(ms: number): number {
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.inMs = 0;
    } else if (ms === this.lastMs) {
      if (this.inMs < 999) this.inMs += 1;
    } else {
      return ms * 1000; // a clock that went back: the time as given (never moved forward)
    }
    return this.lastMs * 1000 + this.inMs;
  }

  onPrice(change: PriceChange): void {
    const { price, previous, spec } = change;
    if (
      previous &&
      previous.american === price.american &&
      previous.decimal === price.decimal &&
      previous.suspended === price.suspended
    ) {
      return;
    }
    const key = `${change.marketKey}|${price.outcome}|${price.book}`;
    if (!previous) {
      const prop = spec.type === 'prop' ? spec : null;
      const player = prop ? change.player : undefined;
      this.batch.series.push({
        key,
        eventId: change.eventId,
        marketKey: change.marketKey,
        marketType: spec.type,
        period: spec.period,
        line: spec.point,
        outcome: price.outcome,
        book: price.book,
        sideId: sideId(change.eventId, spec, price.outcome, price.book),
        stat: prop ? prop.stat : null,
        playerId: prop ? prop.playerId : null,
        playerName: player ? player.name : null,
        playerTeam: player ? this.sideOf(change.eventId, player.team) : null,
      });
    }
    const state = price.suspended ? TICK_STATE.suspended : TICK_STATE.open;
    if (!previous) this.batch.fresh.push(this.batch.ticks.key.length);
    this.push(
      key,
      this.atOf(price.receivedAt),
      price.american,
      price.decimal,
      state,
      this.events.get(change.eventId)?.league ?? '',
    );
  }

  /**
   * A player's team as 'home' or 'away' (the roster says so already; a team id is turned into its side), or null when
   * the source did not say (the roster's '' for a player listed without a team, decision 123).
   */
  private sideOf(eventId: string, team: string): 'home' | 'away' | null {
    if (team === 'home' || team === 'away') return team;
    const event = this.events.get(eventId);
    if (team !== '' && event?.home.id === team) return 'home';
    if (team !== '' && event?.away.id === team) return 'away';
    return null;
  }

  /** A score the engine accepted: a final is kept with its event (a live one is not history). */
  onScore(score: GameScore): void {
    if (score.status !== 'final') return;
    this.batch.results.push({
      eventId: score.eventId,
      league: score.league,
      periods: { ...score.periods, full: score.score },
      completedAt: score.completedAt ?? this.now(),
      periodScores: score.periodScores,
      boxScore: score.players === null ? null : boxScoreOf(score.players),
    });
  }

  onEvent(change: EventChange): void {
    const now = this.now();
    if (change.kind === 'upsert') {
      const { event } = change;
      const known = this.events.get(event.id);
      const row: EventRow = {
        id: event.id,
        league: event.league,
        home: event.home,
        away: event.away,
        startsAt: event.startsAt,
        seenAt: known?.seenAt ?? now,
        liveAt: known?.liveAt ?? (event.live ? now : null),
        endedAt: null,
      };
      if (
        known &&
        known.startsAt === row.startsAt &&
        known.liveAt === row.liveAt &&
        known.home === row.home &&
        known.away === row.away
      ) {
        return;
      }
      this.events.set(event.id, row);
      this.batch.events.push(row);
      return;
    }
    // The engine was emptied for a leadership change: the event goes on, and whoever leads next records it.
    if (change.cleared) {
      this.events.delete(change.eventId);
      return;
    }
    // Removed (ended or withdrawn): every price still standing is closed with a "removed" tick.
    const known = this.events.get(change.eventId);
    const league = known?.league ?? '';
    for (const market of change.markets) {
      for (let index = 0; index < market.outcomes.length; index += 1) {
        const outcome = market.outcomes[index]!;
        for (const price of pricesOf(market, index)) {
          const key = `${market.key}|${outcome}|${price.book}`;
          this.push(key, this.atOf(now), price.american, price.decimal, TICK_STATE.removed, league);
        }
      }
    }
    if (known) {
      this.batch.events.push({ ...known, endedAt: now });
      this.events.delete(change.eventId);
    }
  }

  private push(
    key: string,
    atUs: number,
    american: number,
    decimal: number,
    state: TickStateCode,
    league: string,
  ): void {
    const ticks = this.batch.ticks;
    ticks.league.push(league);
    ticks.key.push(key);
    ticks.atUs.push(atUs);
    ticks.american.push(american);
    ticks.decimal.push(decimal);
    ticks.state.push(state);
  }

  /** The rows gathered since the last cut, or undefined when there are none. */
  cut(): HistoryBatch | undefined {
    const batch = this.batch;
    batch.upTo = this.now();
    if (batch.ticks.key.length === 0 && batch.events.length === 0 && batch.results.length === 0)
      return undefined;
    this.batch = this.emptyBatch();
    return batch;
  }
}
