import type { Score } from '#domain/grading.ts';
import { RESULTS_WINDOW_DAYS } from '#domain/plans.ts';
import type { LeagueKey, OddsEvent, Period, Team } from '#domain/markets.ts';
import type { CheckedScore } from './ingest.ts';

// The engine's scoreboard (issue 57): the latest score of every game in play, and the final of every game finished in
// the last RECENT_FINAL_MS, with what a reader needs of its event (the store forgets an event when it ends). Bounded:
// at most MAX_FINALS finals are kept, oldest dropped first.

/** How long a final score stays on the scoreboard after the game ended. */
export const RECENT_FINAL_MS = RESULTS_WINDOW_DAYS * 86_400_000;
/** Most finals kept (a few days of every league carried fit well inside). */
export const MAX_FINALS = 20_000;

export interface GameScore {
  eventId: string;
  league: LeagueKey;
  home: Team;
  away: Team;
  startsAt: number;
  status: 'live' | 'final';
  score: Score;
  periods: Partial<Record<Period, Score>>;
  clock: string | null;
  /** When the source saw this score (unix ms). */
  updatedAt: number;
  /** When the final arrived (unix ms); null while live. */
  completedAt: number | null;
}

export type ScoreListener = (score: GameScore) => void;

export class ScoreBoard {
  private readonly scores = new Map<string, GameScore>();
  private readonly listeners = new Set<ScoreListener>();
  /** Finals in the order they arrived: event id → when (pruned from the oldest). */
  private readonly finals = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Records a checked score of `event`; a final is kept as it came (a later live score of a finished game is ignored). */
  apply(event: OddsEvent, checked: CheckedScore, at: number): GameScore | null {
    const known = this.scores.get(event.id);
    if (known?.status === 'final' && checked.status === 'live') return null;
    const score: GameScore = {
      eventId: event.id,
      league: event.league,
      home: event.home,
      away: event.away,
      startsAt: event.startsAt,
      status: checked.status,
      score: { home: checked.home, away: checked.away },
      periods: checked.periods,
      clock: checked.status === 'final' ? null : checked.clock,
      updatedAt: checked.updatedAt,
      completedAt: checked.status === 'final' ? (known?.completedAt ?? at) : null,
    };
    if (known?.status !== 'final' && score.completedAt !== null) this.finals.set(event.id, score.completedAt);
    this.scores.delete(event.id);
    this.scores.set(event.id, score);
    this.prune(at);
    for (const listener of this.listeners) listener(score);
    return score;
  }

  /** The event ended: a live score without a final (a game withdrawn or abandoned) leaves the scoreboard. */
  ended(eventId: string): void {
    if (this.scores.get(eventId)?.status === 'live') this.scores.delete(eventId);
  }

  get(eventId: string): GameScore | undefined {
    return this.scores.get(eventId);
  }

  /** Every score held: live ones, and finals of the last RECENT_FINAL_MS, in the order they last changed. */
  list(): GameScore[] {
    this.prune(this.now());
    return [...this.scores.values()];
  }

  subscribe(listener: ScoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private prune(now: number): void {
    for (const [id, completedAt] of this.finals) {
      if (this.finals.size <= MAX_FINALS && completedAt >= now - RECENT_FINAL_MS) break;
      this.finals.delete(id);
      this.scores.delete(id);
    }
  }
}
