import type { Score } from '#domain/grading.ts';
import type { LeagueKey, Period } from '#domain/markets.ts';
import { seededRandom } from '#domain/random.ts';
import {
  firstPartShare,
  gameDistributions,
  quantileOf,
  splitFinalScore,
  splitHalf,
} from '#domain/score-distributions.ts';
import type { ScoreMessage } from '../../messages.ts';
import type { LivePart } from './pricing.ts';
import { FIRST_PART, periodShare } from './models.ts';

// The simulator's scores (issue 57): each game is played to a final score drawn, at kick-off, from the very
// distributions its closing prices came from: the full game's margin and total from the league's score distributions
// (src/domain/score-distributions.ts, decision 264: fitted to published frequencies, centred on the closing fair
// model; pricing.ts prices every pre-game full-game line on them); the first part of a goal or run league (soccer's
// first half, the NHL's first period, MLB's first five innings) from the same final score, thinned as its prices'
// distributions are (decision 284); a basketball or NFL first half from the same final score split by the segment
// model its prices come from (decision 288). So the closing fair probability of every full-game line and every first
// part's line is the chance the result gives it: the prices and the results agree by construction. The score is then revealed over the game's window, play by
// play, and drives the live fair model (score so far plus the pre-game expectation of what is left), so in-play lines
// follow it.
//
// Kept apart from market-simulator.ts, which only asks this module what the score is and what the model is at an instant
// (`follow`). Draws come from this module's own generator: the pre-match board is the same with or without it.

/** One stretch of play: the periods it counts in, its share of the game's scoring, and its window (fractions). */
interface Segment {
  /** The periods whose score includes this stretch (its own key first). */
  periods: readonly Period[];
  /** Label of the clock while it is played ("Q3", "2nd Half"). */
  label: string;
  share: number;
  from: number;
  to: number;
}

const seg = (periods: Period[], label: string, share: number, from: number, to: number): Segment => ({
  periods,
  label,
  share,
  from,
  to,
});

/**
 * The stretches of each league's game, as fractions of its window (kick-off to end, models.ts `durationMinutes`),
 * breaks between them; the first ones end where models.ts `PERIOD_ENDS` closes their markets. An overtime (the last
 * stretch, no share: the pre-game model expects none) is played only after a tie.
 */
const SEGMENTS: Readonly<Record<LeagueKey, readonly Segment[]>> = {
  nba: [
    seg(['q1', 'h1', 'full'], 'Q1', 0.25, 0, 0.25),
    seg(['q2', 'h1', 'full'], 'Q2', 0.25, 0.27, 0.47),
    seg(['q3', 'h2', 'full'], 'Q3', 0.25, 0.57, 0.77),
    seg(['q4', 'h2', 'full'], 'Q4', 0.25, 0.78, 0.95),
    seg(['h2', 'full'], 'OT', 0, 0.95, 1),
  ],
  nfl: [
    seg(['q1', 'h1', 'full'], 'Q1', 0.25, 0, 0.25),
    seg(['q2', 'h1', 'full'], 'Q2', 0.25, 0.26, 0.47),
    seg(['q3', 'h2', 'full'], 'Q3', 0.25, 0.55, 0.75),
    seg(['q4', 'h2', 'full'], 'Q4', 0.25, 0.76, 0.95),
    seg(['h2', 'full'], 'OT', 0, 0.95, 1),
  ],
  ncaab: [
    seg(['h1', 'full'], '1st Half', 0.5, 0, 0.45),
    seg(['h2', 'full'], '2nd Half', 0.5, 0.53, 0.95),
    seg(['h2', 'full'], 'OT', 0, 0.95, 1),
  ],
  nhl: [
    seg(['p1', 'full'], 'P1', periodShare('nhl', 'p1'), 0, 0.26),
    seg(['p2', 'full'], 'P2', periodShare('nhl', 'p2'), 0.38, 0.62),
    seg(['p3', 'full'], 'P3', periodShare('nhl', 'p3'), 0.74, 0.95),
    seg(['full'], 'OT', 0, 0.95, 1),
  ],
  mlb: [
    seg(['f5', 'full'], 'Innings 1–5', periodShare('mlb', 'f5'), 0, 0.56),
    seg(['full'], 'Innings 6–9', 1 - periodShare('mlb', 'f5'), 0.56, 0.95),
    seg(['full'], 'Extra innings', 0, 0.95, 1),
  ],
  epl: [
    seg(['h1', 'full'], '1st Half', periodShare('epl', 'h1'), 0, 0.42),
    seg(['h2', 'full'], '2nd Half', periodShare('epl', 'h2'), 0.55, 1),
  ],
  mls: [
    seg(['h1', 'full'], '1st Half', periodShare('mls', 'h1'), 0, 0.42),
    seg(['h2', 'full'], '2nd Half', periodShare('mls', 'h2'), 0.55, 1),
  ],
};

/** What the fixture gives the score model: its league, window and fair model (market-simulator.ts `SimEvent`). */
export interface ScoredFixture {
  fixture: number;
  sourceEventId: string;
  league: LeagueKey;
  startsAt: number;
  endsAt: number;
  /** Expected home margin and total (pre-game: the closing model once it kicks off). */
  margin: number;
  total: number;
}

/** One score: who, how many points, when (a fraction of the window). */
interface Play {
  at: number;
  segment: number;
  home: number;
  away: number;
}

/** A game's whole score, drawn at kick-off. */
export interface Script {
  /** The pre-game expectation it was drawn from. */
  margin: number;
  total: number;
  /** The final score of each stretch (SEGMENTS order). */
  segments: Score[];
  plays: Play[];
}

/**
 * Whole scores for a margin and total drawn on a continuous scale: the margin rounded to the nearest whole number
 * (so a half line is won exactly when the continuous margin passes it, as priced), the total to the nearest number
 * that has the margin's parity and is at least its size (the two teams' scores are whole and not negative).
 */
export function wholeScore(margin: number, total: number): Score {
  const m = Math.round(margin);
  let t = Math.max(Math.abs(m), Math.round(total));
  if ((t - m) % 2 !== 0) t += total > t || t - 1 < Math.abs(m) ? 1 : -1;
  return { home: (t + m) / 2, away: (t - m) / 2 };
}

/** The points of one play in the league: a basket of 2 or 3, a touchdown or a field goal, else one run or goal. */
function playSizes(league: LeagueKey, points: number, random: () => number): number[] {
  const sizes: number[] = [];
  let left = points;
  while (left > 0) {
    let size = 1;
    if (league === 'nba' || league === 'ncaab') size = left >= 3 && random() < 0.35 ? 3 : Math.min(2, left);
    else if (league === 'nfl') size = left >= 7 && random() < 0.6 ? 7 : left >= 3 ? 3 : left;
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

export class ScoreModel {
  private readonly random: () => number;
  private readonly scripts = new Map<number, Script>();
  /** The last score sent per fixture (its text), so a message goes out only on a change. */
  private readonly sent = new Map<number, string>();

  constructor(seed: number) {
    this.random = seededRandom((seed ^ 0x5c0e) >>> 0);
  }

  /**
   * Draws the game's score from its fair model (the prices' distributions, see the header): the full game's margin
   * and total from the league's distributions (the margin by its inverse CDF, the total by the inverse CDF of the
   * totals that go with that margin). The first part of a goal or run league (a soccer first half, an NHL first
   * period, MLB's first five innings) comes from the final score as its prices' model has it (`splitFinalScore`,
   * decision 284: each of the game's goals or runs, overtime's, extra innings' and empty nets' aside, in the part with
   * its share; MLB's coupled finals with that split reweighted per part score, decision 295), so the part's result has
   * the part's distributions. A basketball or NFL first half is the final split
   * by the segment model (`splitHalf`, decision 288; the NFL's coupled finals with that split reweighted per half
   * margin and half total, fitted once per game, decision 304), so it has the half's distributions too. The full game's result
   * already counts overtime or extra innings (the distributions are of final scores); the rest of the game is the
   * difference, split between its stretches.
   */
  draw(fixture: Pick<ScoredFixture, 'league' | 'margin' | 'total'>): Script {
    const { league, margin, total } = fixture;
    const part = FIRST_PART[league];
    const segments = SEGMENTS[league];
    const scores: Score[] = segments.map(() => ({ home: 0, away: 0 }));
    const indexes = (inPart: boolean) =>
      segments.flatMap((s, i) => (s.share > 0 && s.periods.includes(part) === inPart ? [i] : []));
    const firstIdx = indexes(true);
    const restIdx = indexes(false);
    const game = gameDistributions(league, { margin, total });
    const partShare = firstPartShare(league);
    if (partShare !== undefined) {
      const fullMargin = quantileOf(game.margin, this.random());
      const fullTotal = quantileOf(game.totalGiven(fullMargin), this.random());
      const full: Score = { home: (fullTotal + fullMargin) / 2, away: (fullTotal - fullMargin) / 2 };
      const split = splitFinalScore(league, { margin, total }, partShare, full, this.random);
      this.split(split.part, firstIdx, segments, scores);
      this.split(split.rest, restIdx, segments, scores);
      if (split.extra.when !== 'none') {
        // Overtime and extra innings are the stretch without a share; an empty-net goal is the last one's.
        const overtime = segments.findIndex((s) => s.share === 0);
        const at = split.extra.when === 'overtime' && overtime >= 0 ? overtime : restIdx[restIdx.length - 1]!;
        scores[at]!.home += split.extra.home;
        scores[at]!.away += split.extra.away;
      }
    } else {
      // A points league's first half: the final split by the segment model its prices come from (decision 288).
      const fullMargin = quantileOf(game.margin, this.random());
      const fullTotal = quantileOf(game.totalGiven(fullMargin), this.random());
      const full: Score = { home: (fullTotal + fullMargin) / 2, away: (fullTotal - fullMargin) / 2 };
      const first = splitHalf(league, { margin, total }, full, this.random);
      this.split(first, firstIdx, segments, scores);
      this.split({ home: full.home - first.home, away: full.away - first.away }, restIdx, segments, scores);
    }
    const plays: Play[] = [];
    scores.forEach((score, index) => {
      const { from, to } = segments[index]!;
      for (const side of ['home', 'away'] as const)
        for (const size of playSizes(league, score[side], this.random)) {
          const at = from + (to - from) * (0.02 + 0.96 * this.random());
          plays.push({
            at,
            segment: index,
            home: side === 'home' ? size : 0,
            away: side === 'away' ? size : 0,
          });
        }
    });
    plays.sort((a, b) => a.at - b.at);
    return { margin, total, segments: scores, plays };
  }

  /** Splits `score` between the stretches `indexes` by their shares, each team's points drawn one by one. */
  private split(score: Score, indexes: readonly number[], segments: readonly Segment[], out: Score[]): void {
    const weights = indexes.map((i) => segments[i]!.share);
    const sum = weights.reduce((a, b) => a + b, 0);
    for (const side of ['home', 'away'] as const)
      for (let point = 0; point < score[side]; point += 1) {
        let roll = this.random() * sum;
        let k = 0;
        while (k < indexes.length - 1 && roll >= weights[k]!) roll -= weights[k++]!;
        out[indexes[k]!]![side] += 1;
      }
  }

  /** The fixture's script, drawn the first time it is asked for in play (its fair model then is its closing one). */
  script(fixture: ScoredFixture): Script {
    let script = this.scripts.get(fixture.fixture);
    if (!script) {
      script = this.draw(fixture);
      this.scripts.set(fixture.fixture, script);
    }
    return script;
  }

  /** Where the game stands at `now`: the score of every period so far, the clock's label, and the live fair model. */
  state(fixture: ScoredFixture, now: number): LiveState {
    const script = this.script(fixture);
    const segments = SEGMENTS[fixture.league];
    const span = Math.max(fixture.endsAt - fixture.startsAt, 1);
    const at = Math.min(Math.max((now - fixture.startsAt) / span, 0), 1);
    const final = now >= fixture.endsAt;
    const periods: Partial<Record<Period, Score>> = {};
    const score: Score = { home: 0, away: 0 };
    segments.forEach((segment, index) => {
      // A stretch's periods are on the scoreboard from its start (an overtime only once it is played).
      const overtime = segment.share === 0;
      const played = overtime ? script.segments[index]!.home + script.segments[index]!.away > 0 : true;
      if (at < segment.from || !played) return;
      for (const period of segment.periods) periods[period] ??= { home: 0, away: 0 };
    });
    for (const play of script.plays) {
      if (!final && play.at > at) break;
      score.home += play.home;
      score.away += play.away;
      for (const period of segments[play.segment]!.periods) {
        const entry = (periods[period] ??= { home: 0, away: 0 });
        entry.home += play.home;
        entry.away += play.away;
      }
    }
    let left = 0;
    let label = final ? 'Final' : 'Break';
    segments.forEach((segment, index) => {
      // Time left for an overtime nobody plays is still the last stretch's, as a clock shows it.
      const extra = segment.share === 0 && script.segments[index]!.home + script.segments[index]!.away === 0;
      const shown = extra ? segments[index - 1]!.label : segment.label;
      if (!final && at >= segment.from && at < segment.to) label = shown;
      left += segment.share * Math.min(1, Math.max(0, (segment.to - at) / (segment.to - segment.from)));
    });
    if (final) left = 0;
    // The first part in play (decision 288): its score so far and the share of its playing time left.
    const period = FIRST_PART[fixture.league];
    let partShare = 0;
    let partLeft = 0;
    for (const segment of segments)
      if (segment.share > 0 && segment.periods.includes(period)) {
        partShare += segment.share;
        partLeft += segment.share * Math.min(1, Math.max(0, (segment.to - at) / (segment.to - segment.from)));
      }
    const soFar = periods[period] ?? { home: 0, away: 0 };
    return {
      status: final ? 'final' : 'live',
      score,
      periods,
      clock: label,
      margin: score.home - score.away + script.margin * left,
      total: score.home + score.away + script.total * left,
      part: {
        period,
        pregame: { margin: script.margin, total: script.total },
        home: soFar.home,
        away: soFar.away,
        left: final || partShare === 0 ? 0 : partLeft / partShare,
      },
      scored: false,
    };
  }

  /**
   * Follows a live fixture to `now`: its state, with `scored` when the score changed since the last call, and the
   * `score` message to send then (null when nothing changed).
   */
  follow(fixture: ScoredFixture, now: number): { state: LiveState; message: ScoreMessage | null } {
    const state = this.state(fixture, now);
    const text = `${state.score.home}-${state.score.away}|${state.clock}`;
    const before = this.sent.get(fixture.fixture);
    if (before === text) return { state, message: null };
    state.scored = before !== undefined && before.split('|')[0] !== text.split('|')[0];
    this.sent.set(fixture.fixture, text);
    return { state, message: scoreMessage(fixture, state, now) };
  }

  /** The fixture ended: its final score message; its script is forgotten. */
  finish(fixture: ScoredFixture, now: number): ScoreMessage {
    const state = this.state({ ...fixture, endsAt: Math.min(fixture.endsAt, now) }, now);
    this.scripts.delete(fixture.fixture);
    this.sent.delete(fixture.fixture);
    return scoreMessage(fixture, state, now);
  }
}

/** A live game's state at an instant. */
export interface LiveState {
  status: 'live' | 'final';
  score: Score;
  periods: Partial<Record<Period, Score>>;
  clock: string;
  /** The live fair model: the score so far plus the pre-game expectation of what is left. */
  margin: number;
  total: number;
  /** The first part: its score so far, the pre-game centre and the share of its time left (pricing.ts `LivePart`). */
  part: LivePart;
  /** Whether the score changed since the previous `follow`. */
  scored: boolean;
}

function scoreMessage(fixture: ScoredFixture, state: LiveState, now: number): ScoreMessage {
  return {
    kind: 'score',
    sourceEventId: fixture.sourceEventId,
    status: state.status,
    home: state.score.home,
    away: state.score.away,
    periods: state.periods,
    clock: state.status === 'final' ? null : state.clock,
    updatedAt: now,
  };
}
