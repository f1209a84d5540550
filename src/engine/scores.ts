import type { BoxScore, Score, StatLine } from '#domain/grading.ts';
import { RESULTS_WINDOW_DAYS } from '#domain/plans.ts';
import type { LeagueKey, OddsEvent, Period, Team } from '#domain/markets.ts';
import type { Player } from '#domain/props.ts';
import type { CheckedScore } from './ingest.ts';

// The engine's scoreboard (issue 57): the latest score of every game in play, and the final of every game finished in
// the last RECENT_FINAL_MS, with what a reader needs of its event (the store forgets an event when it ends). Bounded:
// at most MAX_FINALS finals are kept, oldest dropped first.

/** How long a final score stays on the scoreboard after the game ended. */
export const RECENT_FINAL_MS = RESULTS_WINDOW_DAYS * 86_400_000;
/** Most finals kept (a few days of every league carried fit well inside). */
export const MAX_FINALS = 20_000;
/**
 * How long each game's earlier states are kept beside its latest (`at`): longer than any plan's delay, so that a
 * delayed stream's snapshot shows the score as it stood at its horizon (`at`).
 */
export const SCORE_HISTORY_MS = 5 * 60_000;

/** One player's line in a final's box score (decision 260). */
export interface PlayerFigures {
  id: string;
  /** From the fixture's roster ('' when the roster did not list him). */
  name: string;
  team: 'home' | 'away' | '';
  /** False: he did not play (every prop on him is void). */
  played: boolean;
  /** His figures per period (empty when he did not play). */
  periods: Partial<Record<Period, StatLine>>;
}

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
  /** False when the source gives only the game's score (The Odds API): period bets on it stay ungraded. */
  periodScores: boolean;
  /** A final's box score, when the source gives one (the simulator); null otherwise. */
  players: PlayerFigures[] | null;
}

/** The figures of the players who played, as grading reads them (a player missing from it did not play). */
export function boxScoreOf(players: readonly PlayerFigures[]): BoxScore {
  return Object.fromEntries(players.filter((p) => p.played).map((p) => [p.id, p.periods]));
}

export type ScoreListener = (score: GameScore) => void;

export class ScoreBoard {
  private readonly scores = new Map<string, GameScore>();
  private readonly listeners = new Set<ScoreListener>();
  /** Finals in the order they arrived: event id → when (pruned from the oldest). */
  private readonly finals = new Map<string, number>();
  /** Each game's earlier states of the last SCORE_HISTORY_MS, oldest first, with when each arrived. */
  private readonly earlier = new Map<string, { at: number; score: GameScore }[]>();
  /** When each game's latest state arrived (unix ms, engine clock). */
  private readonly arrived = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /**
   * Records a checked score of `event`; a final is kept as it came (a later live score of a finished game is ignored).
   * `roster`: the fixture's players, which name the box score's.
   */
  apply(
    event: OddsEvent,
    checked: CheckedScore,
    at: number,
    roster: (id: string) => Player | undefined = () => undefined,
  ): GameScore | null {
    const known = this.scores.get(event.id);
    if (known?.status === 'final' && checked.status === 'live') return null;
    const players =
      checked.players === null
        ? null
        : Object.entries(checked.players).map(([id, periods]): PlayerFigures => {
            const player = roster(id);
            const team = player?.team === 'home' || player?.team === 'away' ? player.team : '';
            return { id, name: player?.name ?? '', team, played: periods !== null, periods: periods ?? {} };
          });
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
      periodScores: checked.periodScores,
      players: players ?? (checked.status === 'final' ? (known?.players ?? null) : null),
    };
    if (known?.status !== 'final' && score.completedAt !== null) this.finals.set(event.id, score.completedAt);
    if (known) {
      const earlier = this.earlier.get(event.id) ?? [];
      earlier.push({ at: this.arrived.get(event.id) ?? at, score: known });
      while (earlier.length > 1 && earlier[1]!.at <= at - SCORE_HISTORY_MS) earlier.shift();
      this.earlier.set(event.id, earlier);
    }
    this.arrived.set(event.id, at);
    this.scores.delete(event.id);
    this.scores.set(event.id, score);
    this.prune(at);
    for (const listener of this.listeners) listener(score);
    return score;
  }

  /** The event ended: a live score without a final (a game withdrawn or abandoned) leaves the scoreboard. */
  ended(eventId: string): void {
    if (this.scores.get(eventId)?.status === 'live') this.forget(eventId);
  }

  get(eventId: string): GameScore | undefined {
    return this.scores.get(eventId);
  }

  /** Every score held: live ones, and finals of the last RECENT_FINAL_MS, in the order they last changed. */
  list(): GameScore[] {
    this.prune(this.now());
    return [...this.scores.values()];
  }

  /**
   * Every score as it stood at `at` (at most SCORE_HISTORY_MS ago): each game's latest state that had arrived by then
   * (a game whose every kept state came later is left out). A delayed stream's snapshot reads it.
   */
  listAt(at: number): GameScore[] {
    const out: GameScore[] = [];
    for (const score of this.list()) {
      if ((this.arrived.get(score.eventId) ?? 0) <= at) {
        out.push(score);
        continue;
      }
      const earlier = this.earlier.get(score.eventId) ?? [];
      for (let index = earlier.length - 1; index >= 0; index -= 1)
        if (earlier[index]!.at <= at) {
          out.push(earlier[index]!.score);
          break;
        }
    }
    return out;
  }

  subscribe(listener: ScoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private prune(now: number): void {
    for (const [id, completedAt] of this.finals) {
      if (this.finals.size <= MAX_FINALS && completedAt >= now - RECENT_FINAL_MS) break;
      this.finals.delete(id);
      this.forget(id);
    }
  }

  private forget(id: string): void {
    this.scores.delete(id);
    this.earlier.delete(id);
    this.arrived.delete(id);
  }
}
