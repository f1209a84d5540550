import { LEAGUES, type LeagueKey, type Period, type SportKey } from './markets.ts';
import { mvnProbability, normalQuantile } from './mvn.ts';
import type { PropStatKey } from './props.ts';

// Same-game-parlay pricing model (issue 16, decision 127): a Gaussian copula over a structural model of one game.
// Each leg's marginal probability is the market's fair (consensus, de-vigged) probability, given; the model supplies
// only how legs depend on each other. Every leg is a condition on one latent standard-normal variable (a period's
// margin or total, a 1X2 draw, a player's stat); legs on the same variable are intersected into one interval; the
// joint probability is the multivariate normal probability of the box (mvn.ts). The variables are linear in a set of
// independent factors (each game segment's margin and total, each player's shared and per-stat parts), so their
// correlation matrix is positive semi-definite by construction and every entry is explainable from the loadings.

export type SgpSide = 'high' | 'low';

export type SgpVariable =
  | { kind: 'margin'; period: Period }
  | { kind: 'total'; period: Period }
  | { kind: 'draw'; period: Period }
  | { kind: 'player'; playerId: string; team: 'home' | 'away' | null; stat: PropStatKey; period: Period };

export interface SgpModelLeg {
  variable: SgpVariable;
  side: SgpSide;
  /**
   * The line as the condition reads on the variable: margin > line for 'high' (home −3.5 → 3.5; moneyline → 0),
   * margin < line for 'low' (away +3.5 → 3.5); total/player: the point; null for yes/no props and the 1X2 draw.
   */
  line: number | null;
  /** The leg's fair probability (consensus, de-vigged), in (0, 1). */
  probability: number;
}

/** The most legs a parlay may have. */
export const MAX_SGP_MODEL_LEGS = 10;

/** A sport's game: its segments (shares of the game's scoring variance) and the periods made of them. */
interface SportShape {
  segments: readonly number[];
  periods: Partial<Record<Period, readonly number[]>>;
  /** Full-game standard deviations of the margin and the total (points, runs, goals). */
  sdMargin: number;
  sdTotal: number;
  /** c in ρ(margin, total) = c · (2p − 1): a favourite and the over mildly together. */
  favouriteOver: number;
  /** ρ(draw, total) of one period: draws come with low scoring. */
  drawTotal: number;
}

const QUARTERS: Pick<SportShape, 'segments' | 'periods'> = {
  segments: [0.25, 0.25, 0.25, 0.25],
  periods: { full: [0, 1, 2, 3], h1: [0, 1], h2: [2, 3], q1: [0], q2: [1], q3: [2], q4: [3] },
};

/**
 * Priors, not fitted (decision 127): standard deviations of final margins and totals as published for each sport
 * (NFL ~13.5 points for both; NBA margin ~12, total ~18; college basketball ~11 / ~16; MLB runs ~4.2 / ~4.3; NHL
 * goals ~2.3; soccer goals ~1.7 / ~1.6), segments with variance proportional to their share of the game.
 */
const SPORTS: Readonly<Record<SportKey, SportShape>> = {
  basketball: { ...QUARTERS, sdMargin: 12, sdTotal: 18, favouriteOver: 0.15, drawTotal: 0 },
  football: { ...QUARTERS, sdMargin: 13.5, sdTotal: 13.5, favouriteOver: 0.15, drawTotal: 0 },
  hockey: {
    segments: [1 / 3, 1 / 3, 1 / 3],
    periods: { full: [0, 1, 2], p1: [0], p2: [1], p3: [2] },
    sdMargin: 2.3,
    sdTotal: 2.3,
    favouriteOver: 0.1,
    drawTotal: -0.2,
  },
  baseball: {
    segments: [5 / 9, 4 / 9],
    periods: { full: [0, 1], f5: [0] },
    sdMargin: 4.2,
    sdTotal: 4.3,
    favouriteOver: 0.1,
    drawTotal: -0.2,
  },
  soccer: {
    segments: [0.5, 0.5],
    periods: { full: [0, 1], h1: [0], h2: [1] },
    sdMargin: 1.7,
    sdTotal: 1.6,
    favouriteOver: 0.1,
    drawTotal: -0.3,
  },
};

/**
 * How a player's stat goes with his team's score (λ; negative: with the opponent's, for a pitcher's strikeouts) and
 * how strongly it shares the player's own form with his other stats (a: two stats of one player correlate a₁·a₂ on
 * top of the team part). Priors from typical published prop–team-total correlations.
 */
const STAT_LINKS: Readonly<Record<PropStatKey, { team: number; own: number }>> = {
  player_points: { team: 0.45, own: 0.8 },
  player_rebounds: { team: 0.2, own: 0.45 },
  player_assists: { team: 0.35, own: 0.5 },
  player_threes: { team: 0.3, own: 0.65 },
  player_points_rebounds_assists: { team: 0.45, own: 0.9 },
  player_double_double: { team: 0.25, own: 0.6 },
  player_pass_yds: { team: 0.5, own: 0.75 },
  player_rush_yds: { team: 0.3, own: 0.6 },
  player_reception_yds: { team: 0.35, own: 0.8 },
  player_receptions: { team: 0.3, own: 0.75 },
  player_pass_tds: { team: 0.55, own: 0.7 },
  player_anytime_td: { team: 0.4, own: 0.5 },
  batter_hits: { team: 0.35, own: 0.8 },
  batter_total_bases: { team: 0.4, own: 0.85 },
  pitcher_strikeouts: { team: -0.25, own: 0.5 },
  player_shots_on_goal: { team: 0.2, own: 0.6 },
  player_goal_scorer_anytime: { team: 0.45, own: 0.5 },
  player_shots: { team: 0.25, own: 0.75 },
  player_shots_on_target: { team: 0.3, own: 0.75 },
};

export interface SgpCalibration {
  league: LeagueKey;
  homeWinProbability: number;
  sport: SportKey;
  /** ρ(margin, total) within a segment. */
  rho: number;
}

/** Cheap, cacheable per event (the route caches it per event and consensus moneyline). */
export function calibrateSgp(league: LeagueKey, homeWinProbability: number): SgpCalibration {
  if (!(homeWinProbability > 0 && homeWinProbability < 1))
    throw new RangeError(`homeWinProbability must be in (0, 1), got ${homeWinProbability}`);
  const sport = LEAGUES[league].sport;
  return {
    league,
    homeWinProbability,
    sport,
    rho: SPORTS[sport].favouriteOver * (2 * homeWinProbability - 1),
  };
}

/** A variable's loadings on independent standard-normal factors (factor id → loading), unit variance. */
type Loadings = Map<string, number>;

function segmentsOf(shape: SportShape, period: Period): readonly number[] {
  const segments = shape.periods[period];
  if (!segments) throw new RangeError(`Period ${period} does not exist in this sport`);
  return segments;
}

function add(into: Loadings, factor: string, value: number) {
  if (value !== 0) into.set(factor, (into.get(factor) ?? 0) + value);
}

function scale(loadings: Loadings, by: number): Loadings {
  return new Map([...loadings].map(([factor, value]) => [factor, value * by]));
}

function normalise(loadings: Loadings): Loadings {
  let sum = 0;
  for (const value of loadings.values()) sum += value * value;
  return sum > 0 ? scale(loadings, 1 / Math.sqrt(sum)) : loadings;
}

/** Raw (unnormalised) loadings of a period's margin and total, in points: σ √share per segment. */
function game(calibration: SgpCalibration, period: Period, home: number, total: number): Loadings {
  const shape = SPORTS[calibration.sport];
  const rho = calibration.rho;
  const out: Loadings = new Map();
  for (const segment of segmentsOf(shape, period)) {
    const root = Math.sqrt(shape.segments[segment]!);
    // M_s = σ_M √f e1;  T_s = σ_T √f (ρ e1 + √(1−ρ²) e2).
    add(out, `g${segment}m`, root * (home * shape.sdMargin + total * shape.sdTotal * rho));
    add(out, `g${segment}t`, root * total * shape.sdTotal * Math.sqrt(1 - rho * rho));
  }
  return out;
}

function loadingsOf(calibration: SgpCalibration, variable: SgpVariable): Loadings {
  const shape = SPORTS[calibration.sport];
  switch (variable.kind) {
    case 'margin':
      return normalise(game(calibration, variable.period, 1, 0));
    case 'total':
      return normalise(game(calibration, variable.period, 0, 1));
    case 'draw': {
      const total = normalise(game(calibration, variable.period, 0, 1));
      const d = shape.drawTotal;
      const out = scale(total, d);
      add(out, `draw:${variable.period}`, Math.sqrt(1 - d * d));
      return out;
    }
    case 'player': {
      const links = STAT_LINKS[variable.stat];
      // The team part: the player's team's score over the period, (T ± M)/2; unknown team: the total, at half.
      const team =
        variable.team === null
          ? scale(normalise(game(calibration, variable.period, 0, 1)), 0.5)
          : normalise(game(calibration, variable.period, variable.team === 'home' ? 0.5 : -0.5, 0.5));
      const lambda = variable.team === null ? links.team : links.team;
      const out = scale(team, lambda);
      let teamVariance = 0;
      for (const value of out.values()) teamVariance += value * value;
      const rest = Math.sqrt(Math.max(0, 1 - teamVariance));
      const player = encodeURIComponent(variable.playerId);
      add(out, `p:${player}`, rest * links.own);
      const own = rest * Math.sqrt(1 - links.own * links.own);
      const segments = segmentsOf(shape, variable.period);
      const share = segments.reduce((sum, segment) => sum + shape.segments[segment]!, 0);
      for (const segment of segments)
        add(
          out,
          `p:${player}:${variable.stat}:${segment}`,
          own * Math.sqrt(shape.segments[segment]! / share),
        );
      return out;
    }
  }
}

function dot(a: Loadings, b: Loadings): number {
  let sum = 0;
  for (const [factor, value] of a) {
    const other = b.get(factor);
    if (other !== undefined) sum += value * other;
  }
  return sum;
}

/** The correlation matrix of the distinct variables of these legs (for tests and explanation). */
export function sgpCorrelation(calibration: SgpCalibration, variables: readonly SgpVariable[]): number[][] {
  const loadings = variables.map((variable) => loadingsOf(calibration, variable));
  return loadings.map((a, i) => loadings.map((b, j) => (i === j ? 1 : Math.max(-1, Math.min(1, dot(a, b))))));
}

function variableKey(variable: SgpVariable): string {
  return variable.kind === 'player'
    ? `player|${variable.playerId}|${variable.stat}|${variable.period}`
    : `${variable.kind}|${variable.period}`;
}

/**
 * Pairs of leg indexes that cannot both win by line geometry alone (same variable: 'high' above a and 'low' below b
 * with a ≥ b; a draw with a win of the same period), with the reason. Empty: compatible.
 */
export function sgpConflicts(legs: readonly SgpModelLeg[]): { legs: [number, number]; reason: string }[] {
  const out: { legs: [number, number]; reason: string }[] = [];
  for (let i = 0; i < legs.length; i += 1) {
    for (let j = i + 1; j < legs.length; j += 1) {
      const a = legs[i]!;
      const b = legs[j]!;
      if (
        a.variable.kind === 'draw' || b.variable.kind === 'draw'
          ? drawConflict(a, b)
          : variableKey(a.variable) === variableKey(b.variable) && a.side !== b.side && lineConflict(a, b)
      )
        out.push({ legs: [i, j], reason: reasonOf(a, b) });
    }
  }
  return out;
}

function lineConflict(a: SgpModelLeg, b: SgpModelLeg): boolean {
  if (a.line === null || b.line === null) return true; // yes and no of one proposition
  const high = a.side === 'high' ? a.line : b.line;
  const low = a.side === 'high' ? b.line : a.line;
  return high >= low;
}

/** A draw cannot win with a win of either team in the same period (a margin line of 0 on either side). */
function drawConflict(a: SgpModelLeg, b: SgpModelLeg): boolean {
  const [draw, other] = a.variable.kind === 'draw' ? [a, b] : [b, a];
  if (other.variable.kind === 'draw') return false;
  return (
    other.variable.kind === 'margin' && other.variable.period === draw.variable.period && other.line === 0
  );
}

function reasonOf(a: SgpModelLeg, b: SgpModelLeg): string {
  if (a.variable.kind === 'draw' || b.variable.kind === 'draw') return 'a draw and a win of the same period';
  if (a.line === null || b.line === null) return 'both sides of one proposition';
  if (a.line === b.line) return 'both sides of one market';
  return 'no result lies between the two lines';
}

/**
 * The joint fair probability that every leg wins, in (0, 1), deterministic. RangeError for conflicts, probabilities
 * outside (0, 1), more than 10 legs, or a period the sport does not have.
 */
export function jointProbability(calibration: SgpCalibration, legs: readonly SgpModelLeg[]): number {
  if (legs.length === 0 || legs.length > MAX_SGP_MODEL_LEGS)
    throw new RangeError(`A parlay has 1 to ${MAX_SGP_MODEL_LEGS} legs, got ${legs.length}`);
  for (const leg of legs)
    if (!(leg.probability > 0 && leg.probability < 1))
      throw new RangeError(`Leg probabilities must be in (0, 1), got ${leg.probability}`);
  if (sgpConflicts(legs).length > 0) throw new RangeError('These legs cannot all win');
  // One interval per distinct variable: a 'high' leg of probability p is Z > Φ⁻¹(1 − p), a 'low' one Z < Φ⁻¹(p).
  const byKey = new Map<string, { variable: SgpVariable; lower: number; upper: number }>();
  for (const leg of legs) {
    const key = variableKey(leg.variable);
    let entry = byKey.get(key);
    if (!entry) byKey.set(key, (entry = { variable: leg.variable, lower: -Infinity, upper: Infinity }));
    if (leg.side === 'high') entry.lower = Math.max(entry.lower, normalQuantile(1 - leg.probability));
    else entry.upper = Math.min(entry.upper, normalQuantile(leg.probability));
  }
  const entries = [...byKey.values()];
  if (entries.some((entry) => entry.lower >= entry.upper)) return 1e-9;
  const correlation = sgpCorrelation(
    calibration,
    entries.map((entry) => entry.variable),
  );
  const probability = mvnProbability(
    entries.map((entry) => entry.lower),
    entries.map((entry) => entry.upper),
    correlation,
  );
  return Math.min(1 - 1e-9, Math.max(1e-9, probability));
}

/** A book's SGP pricing: its own margin compounded per leg, plus a premium for the correlation it prices. */
export interface SgpMarginSchedule {
  perLeg: number;
  premium: number;
}

/** The book's total margin for k legs: (1 + perLeg)^k × (1 + premium) − 1. */
export function sgpMargin(schedule: SgpMarginSchedule, legCount: number): number {
  return (1 + schedule.perLeg) ** legCount * (1 + schedule.premium) - 1;
}

/** A typical US retail book: 4.5 % a leg and a 5 % premium (2 legs ≈ 15 %, 4 ≈ 25 %, 8 ≈ 49 %). */
export const TYPICAL_SGP_MARGIN: SgpMarginSchedule = { perLeg: 0.045, premium: 0.05 };

/**
 * A book's SGP decimal odds: 1 / (joint × (1 + margin)), then made safe against the same book's single legs: the
 * parlay's implied probability is at least 1 − Σ 1/opposite_i + 0.01 (else betting the parlay and every opposite
 * single covers every result at a profit), and the decimal is never above the product of the book's single-leg
 * decimals when the legs correlate non-negatively (joint ≥ naive). Rounded down to 2 places, at least 1.01.
 */
export function bookSgpDecimal(
  joint: number,
  legCount: number,
  schedule: SgpMarginSchedule,
  book: { legDecimals: readonly number[]; oppositeDecimals: readonly (number | undefined)[] },
  naiveJoint: number,
): number {
  let implied = joint * (1 + sgpMargin(schedule, legCount));
  if (book.oppositeDecimals.every((decimal) => decimal !== undefined)) {
    const cover = 1 - book.oppositeDecimals.reduce((sum, decimal) => sum + 1 / decimal!, 0) + 0.01;
    implied = Math.max(implied, cover);
  }
  let decimal = 1 / Math.min(implied, 1 / 1.01);
  if (joint >= naiveJoint) {
    const singles = book.legDecimals.reduce((product, leg) => product * leg, 1);
    decimal = Math.min(decimal, singles);
  }
  return Math.max(1.01, Math.floor(decimal * 100 + 1e-9) / 100);
}
