import { LEAGUES, type LeagueKey, type Period, type SportKey } from './markets.ts';
import { mvnProbability, normalCdf, normalQuantile } from './mvn.ts';
import { PROP_CATALOGUE, type PropStatKey } from './props.ts';
import {
  hasScoreDistribution,
  isPartLeg,
  isScoresLeg,
  scoresJoint,
  type ScoresMarket,
} from './sgp-scores.ts';
import { fitGoals, goalsJoint, type GoalsMarket, type GoalsModel } from './soccer-goals.ts';

// Same-game parlays (issue 16, decision 127): the joint fair probability of legs of one game, and each book's SGP
// price from it. A Gaussian copula over a structural model of the game: every leg is a condition on one latent
// standard normal variable (a period's margin or total, a period's draw, a player's stat in a period), placed so that
// the leg alone has its consensus fair probability exactly; legs on one variable intersect into one interval; the
// joint is the multivariate normal probability of the box over the distinct variables (mvn.ts). The structure only
// supplies the correlations, built from loadings on independent factors, so the matrix is positive semi-definite by
// construction:
//
// - The game is split into segments (quarters, halves, periods, the first five innings and the rest) whose margins
//   and totals are independent across segments with variance proportional to their share of the game (Brownian
//   increments, Stern 1994). Within a segment, corr(margin, total) = ρ, signed by the favourite (`calibrateSgp`).
// - A team's score is (total ± margin) / 2. A player's stat loads λ on his team's score over the same period (the
//   opponent's for a pitcher's strikeouts; half of λ on the total when his team is unknown), the rest on a player
//   part: correlated across his own stats by a per-sport table, independent across players and segments.
// - A draw (leagues with draws only) loads on its period's total (draw ↔ low scoring) and on nothing else, so draws
//   of two periods relate only through their totals. Against a margin leg of its own period it is geometry: a
//   conflict (a win), or the draw implies the leg (home +0.5) and the leg is dropped.
//
// Every constant below is a prior (published score deviations, typical scoring, stated judgement), not a fit, except
// corr(margin, total) in the NFL, NBA and MLB, calibrated per spread band to published outcomes (decision 165).
// Deviations from the issue's sketch, argued in decision 127: ρ is derived from the home win probability, the
// league's score deviations and its typical total (team scores with variance proportional to their means) instead of
// c · (2p − 1); for a league with draws the home win probability is the home side's share of the decisive results
// (what the route passes); the joint is also kept within the Fréchet bounds of the legs.

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
   * margin < line for 'low' (away +3.5 → 3.5); total/player: the point; null for yes/no props and 1X2 draw.
   */
  line: number | null;
  /** The leg's fair probability (consensus, de-vigged), in (0, 1). */
  probability: number;
}

/** A league's game, as the model sees it. Every number is a prior; `source` says where it comes from. */
export interface SgpGamePrior {
  /** Standard deviation of the full-game margin (home − away) about the market's expectation. */
  sigmaMargin: number;
  /** Standard deviation of the full-game total about the market's expectation. */
  sigmaTotal: number;
  /** A typical full-game total (points, runs or goals): sets how much a favourite couples margin and total. */
  meanTotal: number;
  /** How the game splits into independent segments. */
  layout: 'quarters' | 'halves' | 'periods' | 'innings';
  source: string;
}

export const SGP_GAME_PRIORS: Readonly<Record<LeagueKey, SgpGamePrior>> = {
  nba: {
    sigmaMargin: 12,
    sigmaTotal: 18,
    meanTotal: 228,
    layout: 'quarters',
    source:
      'margin: 12 points about a prediction (Sagarin, quoted in Winston, Mathletics ch. 43); total: ~18 points ' +
      'about the closing total (commonly quoted; with the margin it gives a team-score deviation of 10.8, against ' +
      "10.4–10.6 measured about Pinnacle's implied team totals, BetLabs 2017); total: 2023–24 average ~228",
  },
  ncaab: {
    sigmaMargin: 10.5,
    sigmaTotal: 16,
    meanTotal: 145,
    layout: 'halves',
    source:
      'margin: 10 points about a prediction (Sagarin, in Winston, Mathletics), 10.5 about a closing spread; total: ' +
      '~16 (commonly quoted); Division I averages ~72 points a team',
  },
  nfl: {
    sigmaMargin: 13.9,
    sigmaTotal: 13.4,
    meanTotal: 44,
    layout: 'quarters',
    source:
      'margin: 13.86 about the point spread (Stern 1991, The American Statistician 45(3)); total: 13.4 about the ' +
      'closing total over 7,276 games (nflverse, nflanalytic.com); recent seasons average ~44 points',
  },
  mlb: {
    sigmaMargin: 4.2,
    sigmaTotal: 4.4,
    meanTotal: 8.8,
    layout: 'innings',
    source:
      'runs are over-dispersed (negative binomial, variance ≈ 2 × mean): total ~4.4, margin ~4.2 about the ' +
      'lines; recent seasons average ~8.8 runs a game (prior)',
  },
  nhl: {
    sigmaMargin: Math.sqrt(6.2),
    sigmaTotal: Math.sqrt(6.2),
    meanTotal: 6.2,
    layout: 'periods',
    source:
      'independent Poisson goals (variance = mean) at ~6.2 goals a game (recent seasons, empty-net goals in)',
  },
  epl: {
    sigmaMargin: Math.sqrt(2.9),
    sigmaTotal: Math.sqrt(2.9),
    meanTotal: 2.9,
    layout: 'halves',
    source: 'independent Poisson goals (Maher 1982) at ~2.9 goals a match (Premier League, recent seasons)',
  },
  mls: {
    sigmaMargin: Math.sqrt(3),
    sigmaTotal: Math.sqrt(3),
    meanTotal: 3,
    layout: 'halves',
    source: 'independent Poisson goals (Maher 1982) at ~3.0 goals a match (MLS, recent seasons)',
  },
};

/** The segments of each layout with their share of the game (playing time), and the periods built from them. */
const LAYOUTS: Readonly<
  Record<
    SgpGamePrior['layout'],
    {
      segments: readonly { key: string; share: number }[];
      periods: Partial<Record<Period, readonly string[]>>;
    }
  >
> = {
  quarters: {
    segments: ['q1', 'q2', 'q3', 'q4'].map((key) => ({ key, share: 0.25 })),
    periods: {
      full: ['q1', 'q2', 'q3', 'q4'],
      h1: ['q1', 'q2'],
      h2: ['q3', 'q4'],
      q1: ['q1'],
      q2: ['q2'],
      q3: ['q3'],
      q4: ['q4'],
    },
  },
  halves: {
    segments: ['h1', 'h2'].map((key) => ({ key, share: 0.5 })),
    periods: { full: ['h1', 'h2'], h1: ['h1'], h2: ['h2'] },
  },
  periods: {
    segments: ['p1', 'p2', 'p3'].map((key) => ({ key, share: 1 / 3 })),
    periods: { full: ['p1', 'p2', 'p3'], p1: ['p1'], p2: ['p2'], p3: ['p3'] },
  },
  innings: {
    segments: [
      { key: 'f5', share: 5 / 9 },
      { key: 'i6-9', share: 4 / 9 },
    ],
    periods: { full: ['f5', 'i6-9'], f5: ['f5'] },
  },
};

/**
 * How a player's stat loads on the game: λ on the standardised score of his team (`on: 'team'`) or of the opponent
 * (`'opponent'`: a pitcher strikes out the other side's batters, and his strikeouts go with a low-scoring opponent).
 * Priors: a scorer's points and goals follow his team's score most, volume stats (rebounds, shots) least.
 */
export interface SgpStatPrior {
  loading: number;
  on: 'team' | 'opponent';
}

const team = (loading: number): SgpStatPrior => ({ loading, on: 'team' });

export const SGP_STAT_PRIORS: Readonly<Record<SportKey, Partial<Record<PropStatKey, SgpStatPrior>>>> = {
  basketball: {
    player_points: team(0.45),
    player_rebounds: team(0.2),
    player_assists: team(0.35),
    player_threes: team(0.3),
    player_points_rebounds_assists: team(0.45),
    player_double_double: team(0.25),
  },
  football: {
    player_pass_yds: team(0.5),
    player_pass_tds: team(0.55),
    player_rush_yds: team(0.3),
    player_reception_yds: team(0.35),
    player_receptions: team(0.3),
    player_anytime_td: team(0.4),
  },
  baseball: {
    batter_hits: team(0.35),
    batter_total_bases: team(0.4),
    pitcher_strikeouts: { loading: -0.25, on: 'opponent' },
  },
  hockey: {
    player_points: team(0.5),
    player_shots_on_goal: team(0.2),
    player_goal_scorer_anytime: team(0.45),
  },
  soccer: {
    player_shots: team(0.25),
    player_shots_on_target: team(0.3),
    player_goal_scorer_anytime: team(0.45),
  },
};

/** Correlation of one player's own parts of two stats when a pair is not listed: one player has good and bad nights. */
export const SGP_DEFAULT_PLAYER_CORRELATION = 0.2;

/** The prop stats a league offers (its catalogue in props.ts): the rows of its sport's table. */
const statsOf = (league: LeagueKey): PropStatKey[] => PROP_CATALOGUE[league].map((def) => def.key);

function correlationTable(
  stats: readonly PropStatKey[],
  pairs: readonly (readonly [PropStatKey, PropStatKey, number])[],
): { stats: readonly PropStatKey[]; matrix: readonly (readonly number[])[] } {
  const matrix: number[][] = stats.map((a) =>
    stats.map((b) => (a === b ? 1 : SGP_DEFAULT_PLAYER_CORRELATION)),
  );
  for (const [a, b, r] of pairs) {
    const i = stats.indexOf(a);
    const j = stats.indexOf(b);
    matrix[i]![j] = r;
    matrix[j]![i] = r;
  }
  return { stats, matrix };
}

/**
 * Correlations between the player-specific parts of one player's stats (what is left after his team's score), per
 * sport. Priors: a sum and its main part (points, PRA) move together; a count and its yardage (receptions, receiving
 * yards) strongly; a scoring prop with the volume that produces it moderately. Each table is checked positive
 * definite when this module loads.
 */
export const SGP_PLAYER_CORRELATIONS: Readonly<
  Record<SportKey, { stats: readonly PropStatKey[]; matrix: readonly (readonly number[])[] }>
> = {
  basketball: correlationTable(statsOf('nba'), [
    ['player_points', 'player_points_rebounds_assists', 0.9],
    ['player_points', 'player_threes', 0.6],
    ['player_points', 'player_rebounds', 0.25],
    ['player_points', 'player_assists', 0.3],
    ['player_points', 'player_double_double', 0.35],
    ['player_rebounds', 'player_points_rebounds_assists', 0.5],
    ['player_assists', 'player_points_rebounds_assists', 0.5],
    ['player_threes', 'player_points_rebounds_assists', 0.5],
    ['player_rebounds', 'player_double_double', 0.6],
    ['player_assists', 'player_double_double', 0.4],
    ['player_points_rebounds_assists', 'player_double_double', 0.55],
    ['player_rebounds', 'player_threes', 0.1],
  ]),
  football: correlationTable(statsOf('nfl'), [
    ['player_pass_yds', 'player_pass_tds', 0.6],
    ['player_reception_yds', 'player_receptions', 0.75],
    ['player_reception_yds', 'player_anytime_td', 0.35],
    ['player_receptions', 'player_anytime_td', 0.3],
    ['player_rush_yds', 'player_anytime_td', 0.35],
  ]),
  baseball: correlationTable(statsOf('mlb'), [
    ['batter_hits', 'batter_total_bases', 0.85],
    ['batter_hits', 'pitcher_strikeouts', 0],
    ['batter_total_bases', 'pitcher_strikeouts', 0],
  ]),
  hockey: correlationTable(statsOf('nhl'), [
    ['player_points', 'player_goal_scorer_anytime', 0.7],
    ['player_shots_on_goal', 'player_goal_scorer_anytime', 0.4],
    ['player_points', 'player_shots_on_goal', 0.35],
  ]),
  soccer: correlationTable(statsOf('epl'), [
    ['player_shots', 'player_shots_on_target', 0.75],
    ['player_shots', 'player_goal_scorer_anytime', 0.4],
    ['player_shots_on_target', 'player_goal_scorer_anytime', 0.55],
  ]),
};

for (const [sport, table] of Object.entries(SGP_PLAYER_CORRELATIONS)) {
  if (!isPositiveDefinite(table.matrix)) throw new Error(`The ${sport} player correlation table is not PSD`);
}

/** Cholesky succeeds with positive pivots. */
function isPositiveDefinite(matrix: readonly (readonly number[])[]): boolean {
  const n = matrix.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let s = matrix[i]![j]!;
      for (let k = 0; k < j; k += 1) s -= l[i]![k]! * l[j]![k]!;
      if (i === j) {
        if (!(s > 0)) return false;
        l[i]![i] = Math.sqrt(s);
      } else l[i]![j] = s / l[j]![j]!;
    }
  }
  return true;
}

/**
 * corr(draw, total) of the same period: a draw goes with a low score. Independent Poisson goals at ~1.4 a side give
 * a latent correlation of −0.47 with over 2.5 and about −0.05 with over 1.5 or 3.5 (a 1–1 is over 1.5; a draw over
 * 2.5 needs four goals); the prior sits between them, nearer the main line.
 */
export const SGP_DRAW_TOTAL_CORRELATION = -0.35;
/** |corr(margin, total)| never exceeds this (the independent-Poisson value when one side scores 3× the other). */
export const SGP_MAX_MARGIN_TOTAL_CORRELATION = 0.5;

/**
 * One point of a league's margin–total calibration: at an expected margin of `spread` (the favourite's, in the
 * league's units), corr(favourite's margin, total) = `rho`. `figure` is the published outcome it reproduces.
 */
export interface SgpCorrelationBand {
  spread: number;
  rho: number;
  figure: string;
}

/**
 * corr(margin, total) calibrated to published outcomes (decision 165) for the leagues that have them, as a function of
 * the favourite's expected margin |σM · Φ⁻¹(p)|: linear between the points, 0 at a pick'em, held at the last point
 * beyond it, signed by the favourite (a home favourite's margin is 'high'). Each `rho` is the value at which the
 * model's own joint reproduces the figure for fair lines at that spread (a cover and an over at 0.5; MLB: a −150
 * moneyline and over 8.5 at 0.5). Leagues not listed keep the derived ρ of decision 127.
 */
export const SGP_MARGIN_TOTAL_BANDS: Readonly<Partial<Record<LeagueKey, readonly SgpCorrelationBand[]>>> = {
  nfl: [
    { spread: 3, rho: 0.035, figure: 'P(over | favourite covers) 51.1 % with spreads ≥ 3 (n = 2,184)' },
    { spread: 7, rho: 0.066, figure: 'P(over | favourite covers) 52.1 % with spreads ≥ 7' },
    { spread: 10, rho: 0.022, figure: 'P(over | favourite covers) 50.7 % with spreads ≥ 10' },
  ],
  nba: [
    { spread: 6, rho: -0.069, figure: 'favourite covers and over in 23.9 % of 6,327 games' },
    { spread: 13, rho: -0.426, figure: 'favourite covers and over in 18.0 % of games with spreads ≥ 12' },
  ],
  mlb: [
    {
      // The run margin a −150 favourite (p = 0.6) is expected to win by: 4.2 × Φ⁻¹(0.6).
      spread: 1.06,
      rho: 0.03,
      figure: 'over rate 1.9 pp higher when the favourite wins than when the underdog wins (19,236 games)',
    },
  ],
};

/** ρ of a league's bands at the favourite's expected margin (≥ 0), unsigned. */
function bandCorrelation(bands: readonly SgpCorrelationBand[], spread: number): number {
  let previous = { spread: 0, rho: 0 };
  for (const band of bands) {
    if (spread <= band.spread) {
      const weight = (spread - previous.spread) / (band.spread - previous.spread);
      return previous.rho + weight * (band.rho - previous.rho);
    }
    previous = band;
  }
  return previous.rho;
}

/**
 * corr(home margin, total) at a home expected margin of `expectedMargin` (the league's units): the published-outcome
 * bands' value (`SGP_MARGIN_TOTAL_BANDS`) signed by the favourite, or the derived value of decision 127 for the other
 * leagues, capped at ±0.5. `calibrateSgp` takes it at σM · Φ⁻¹(p); the score distributions' joint carries it
 * (score-distributions.ts, decision 291).
 */
export function sgpMarginTotalCorrelation(league: LeagueKey, expectedMargin: number): number {
  const prior = SGP_GAME_PRIORS[league];
  const bands = SGP_MARGIN_TOTAL_BANDS[league];
  const raw = bands
    ? Math.sign(expectedMargin) * bandCorrelation(bands, Math.abs(expectedMargin))
    : ((expectedMargin / prior.sigmaMargin) * (prior.sigmaMargin ** 2 + prior.sigmaTotal ** 2)) /
      (2 * prior.meanTotal * prior.sigmaTotal);
  return Math.max(-SGP_MAX_MARGIN_TOTAL_CORRELATION, Math.min(SGP_MAX_MARGIN_TOTAL_CORRELATION, raw));
}

/** What `jointProbability` needs of one event, computed once (the route caches it per event and moneyline). */
export interface SgpCalibration {
  league: LeagueKey;
  /** The home side's share of the decisive results: the moneyline's, or p_home / (p_home + p_away) of a 1X2. */
  homeWinProbability: number;
  sport: SportKey;
  sigmaMargin: number;
  sigmaTotal: number;
  meanTotal: number;
  /**
   * corr(margin, total) within every segment: from the league's published-outcome bands at the expected margin
   * σM · Φ⁻¹(p) (NFL, NBA, MLB; decision 165), otherwise Φ⁻¹(p) × (σM² + σT²) / (2 μT σT); capped at ±0.5.
   */
  marginTotalCorrelation: number;
  /** The segments and their shares of the game's variance. */
  segments: readonly { key: string; share: number }[];
  /** Each period the league has, as a bitmask over `segments`. */
  periodMasks: Readonly<Partial<Record<Period, number>>>;
  /**
   * Loadings of the standardised segment margin, total and each team's score on the segment's two independent
   * game factors: margin = (1, 0), total = (ρ, √(1 − ρ²)), score = (σT · total ± σM · margin) normalised.
   */
  loadings: {
    margin: readonly [number, number];
    total: readonly [number, number];
    home: readonly [number, number];
    away: readonly [number, number];
  };
  /**
   * Soccer: the goals model fitted to the match's fair 1X2 and total (src/domain/soccer-goals.ts, decision 166), which
   * prices every parlay whose legs it covers; null elsewhere, or when no 1X2 was given.
   */
  goals: GoalsModel | null;
  /**
   * NFL, NBA, NCAAB, NHL, MLB: what full-game margin and total legs are centred on when the parlay has none of that
   * variable (the fair moneyline, the fair total nearest even), for pricing them on the league's score distributions
   * (src/domain/sgp-scores.ts, decision 287); null for soccer.
   */
  scores: ScoresMarket | null;
}

/**
 * The model's parameters for one event from its league and the consensus home win probability p: the moneyline's,
 * or for a league with draws the home side's share of the decisive results, p_home / (p_home + p_away) of the 1X2
 * (the draw itself is a leg's own probability). RangeError for an unknown league or p outside (0, 1).
 *
 * corr(margin, total), for the leagues with published-outcome bands (`SGP_MARGIN_TOTAL_BANDS`, decision 165): the
 * bands' value at the favourite's expected margin σM · Φ⁻¹(p), signed by the favourite. Otherwise derived: if each team's score has variance proportional to its expected score (exact for Poisson goals,
 * close for points scored in bursts), cov(margin, total) = var(home) − var(away) = k · E[margin] with
 * k = (σM² + σT²) / (2 μT), and E[margin] = σM · Φ⁻¹(p) (a normal margin wins with probability p). A favourite makes the game's
 * variance lopsided towards its own score, so the favourite and the over go together, mildly.
 */
export function calibrateSgp(
  league: LeagueKey,
  homeWinProbability: number,
  goalsMarket: GoalsMarket | null = null,
  scoresTotal: ScoresMarket['total'] = null,
): SgpCalibration {
  if (!Object.prototype.hasOwnProperty.call(LEAGUES, league))
    throw new RangeError(`Unknown league ${league}`);
  const info = LEAGUES[league];
  if (!(homeWinProbability > 0 && homeWinProbability < 1)) {
    throw new RangeError(`A home win probability must be in (0, 1), got ${homeWinProbability}`);
  }
  const prior = SGP_GAME_PRIORS[league];
  const rho = sgpMarginTotalCorrelation(league, prior.sigmaMargin * normalQuantile(homeWinProbability));
  const layout = LAYOUTS[prior.layout];
  const periodMasks: Partial<Record<Period, number>> = {};
  for (const [period, keys] of Object.entries(layout.periods) as [Period, readonly string[]][]) {
    periodMasks[period] = keys.reduce(
      (mask, key) => mask | (1 << layout.segments.findIndex((s) => s.key === key)),
      0,
    );
  }
  const total = [rho, Math.sqrt(1 - rho * rho)] as const;
  const score = (sign: 1 | -1): readonly [number, number] => {
    const u = prior.sigmaTotal * total[0] + sign * prior.sigmaMargin;
    const v = prior.sigmaTotal * total[1];
    const norm = Math.hypot(u, v);
    return [u / norm, v / norm];
  };
  return {
    league,
    homeWinProbability,
    sport: info.sport,
    sigmaMargin: prior.sigmaMargin,
    sigmaTotal: prior.sigmaTotal,
    meanTotal: prior.meanTotal,
    marginTotalCorrelation: rho,
    segments: layout.segments,
    periodMasks,
    loadings: { margin: [1, 0], total, home: score(1), away: score(-1) },
    goals: info.sport === 'soccer' && goalsMarket ? fitGoals(goalsMarket) : null,
    scores: hasScoreDistribution(league) ? { homeWin: homeWinProbability, total: scoresTotal } : null,
  };
}

/** A variable resolved against a calibration: its segments and its loadings within a segment. */
interface Resolved {
  key: string;
  mask: number;
  /** Loadings on the segment's two game factors. */
  g0: number;
  g1: number;
  /** The player part: whose, which stat (index in the sport's table), and its weight; null for game variables. */
  playerId: string | null;
  statIndex: number;
  own: number;
}

/** The identity of a variable: legs with the same key are conditions on one latent variable. */
function variableKey(variable: SgpVariable): string {
  return variable.kind === 'player'
    ? `player:${variable.period}:${variable.stat}:${variable.playerId}`
    : `${variable.kind}:${variable.period}`;
}

function resolve(calibration: SgpCalibration, variable: SgpVariable): Resolved {
  const mask = calibration.periodMasks[variable.period];
  if (mask === undefined) {
    throw new RangeError(`${LEAGUES[calibration.league].name} has no period ${variable.period}`);
  }
  const key = variableKey(variable);
  const { margin, total, home, away } = calibration.loadings;
  switch (variable.kind) {
    case 'margin':
      return { key, mask, g0: margin[0], g1: margin[1], playerId: null, statIndex: -1, own: 0 };
    case 'total':
      return { key, mask, g0: total[0], g1: total[1], playerId: null, statIndex: -1, own: 0 };
    case 'draw': {
      if (!LEAGUES[calibration.league].hasDraws) {
        throw new RangeError(`${LEAGUES[calibration.league].name} has no draws`);
      }
      const k = SGP_DRAW_TOTAL_CORRELATION;
      return { key, mask, g0: k * total[0], g1: k * total[1], playerId: null, statIndex: -1, own: 0 };
    }
    case 'player': {
      const prior = SGP_STAT_PRIORS[calibration.sport][variable.stat];
      const statIndex = SGP_PLAYER_CORRELATIONS[calibration.sport].stats.indexOf(variable.stat);
      if (!prior || statIndex < 0) {
        throw new RangeError(`${variable.stat} is not a ${calibration.sport} prop the model knows`);
      }
      if (typeof variable.playerId !== 'string' || variable.playerId === '') {
        throw new RangeError('A player variable needs a player id');
      }
      let vector: readonly [number, number];
      let loading = prior.loading;
      if (variable.team === null) {
        vector = total;
        loading /= 2;
      } else if (variable.team === 'home' || variable.team === 'away') {
        const own = variable.team === 'home' ? home : away;
        const other = variable.team === 'home' ? away : home;
        vector = prior.on === 'team' ? own : other;
      } else throw new RangeError(`A player's team is 'home', 'away' or null, got ${String(variable.team)}`);
      return {
        key,
        mask,
        g0: loading * vector[0],
        g1: loading * vector[1],
        playerId: variable.playerId,
        statIndex,
        own: Math.sqrt(1 - loading * loading),
      };
    }
    default:
      throw new RangeError(`Unknown variable kind ${(variable as { kind: string }).kind}`);
  }
}

/** Share of the game's variance in the segments of a mask. */
function shareOf(calibration: SgpCalibration, mask: number): number {
  let share = 0;
  calibration.segments.forEach((segment, index) => {
    if (mask & (1 << index)) share += segment.share;
  });
  return share;
}

/**
 * corr(X, Y) = overlap × within-segment correlation: every variable is the normalised sum over its period's segments
 * of independent segment copies, so the overlap is share(P ∩ Q) / √(share(P) share(Q)); within a segment, the game
 * loadings' dot product plus, for one player's two stats, his own parts' correlation. Distinct draws, and a draw's
 * own part, share nothing.
 */
function correlationOf(calibration: SgpCalibration, x: Resolved, y: Resolved): number {
  if (x.key === y.key) return 1;
  const common = x.mask & y.mask;
  if (common === 0) return 0;
  const overlap =
    shareOf(calibration, common) / Math.sqrt(shareOf(calibration, x.mask) * shareOf(calibration, y.mask));
  let within = x.g0 * y.g0 + x.g1 * y.g1;
  if (x.playerId !== null && x.playerId === y.playerId) {
    within += x.own * y.own * SGP_PLAYER_CORRELATIONS[calibration.sport].matrix[x.statIndex]![y.statIndex]!;
  }
  return overlap * within;
}

/** The correlation matrix of these variables, in their order (the joint probability's). RangeError as `resolve`. */
export function sgpCorrelation(calibration: SgpCalibration, variables: readonly SgpVariable[]): number[][] {
  const resolved = variables.map((variable) => resolve(calibration, variable));
  return resolved.map((x) => resolved.map((y) => correlationOf(calibration, x, y)));
}

/** Periods a period is made of (totals and counts are additive and never negative, so a part ≤ the whole). */
const PARTS_OF: Readonly<Record<Period, readonly Period[]>> = {
  full: ['h1', 'h2', 'q1', 'q2', 'q3', 'q4', 'p1', 'p2', 'p3', 'f5'],
  h1: ['q1', 'q2'],
  h2: ['q3', 'q4'],
  q1: [],
  q2: [],
  q3: [],
  q4: [],
  p1: [],
  p2: [],
  p3: [],
  f5: [],
};

const describeLeg = (leg: SgpModelLeg) =>
  `${variableKey(leg.variable)} ${leg.side}${leg.line === null ? '' : ` ${leg.line}`}`;

/** Why two legs cannot both win by their lines alone, or null. */
function conflictOf(a: SgpModelLeg, b: SgpModelLeg): string | null {
  const va = a.variable;
  const vb = b.variable;
  if (variableKey(va) === variableKey(vb)) {
    if (a.side === b.side) return null;
    const [high, low] = a.side === 'high' ? [a, b] : [b, a];
    if (high.line === null && low.line === null)
      return `${describeLeg(a)} and ${describeLeg(b)} are opposites`;
    if (high.line !== null && low.line !== null && high.line >= low.line) {
      return `above ${high.line} and below ${low.line} cannot both hold on ${variableKey(va)}`;
    }
    return null;
  }
  // A draw against a margin leg of its own period: the draw's margin is 0.
  for (const [draw, other] of [
    [a, b],
    [b, a],
  ] as const) {
    if (draw.variable.kind !== 'draw' || draw.side !== 'high') continue;
    if (other.variable.kind !== 'margin' || other.variable.period !== draw.variable.period) continue;
    if (other.line === null) continue;
    if ((other.side === 'high' && other.line >= 0) || (other.side === 'low' && other.line <= 0)) {
      return `a draw leaves ${describeLeg(other)} unwon`;
    }
  }
  // A part of the game cannot score more than the whole.
  const sameCount =
    (va.kind === 'total' && vb.kind === 'total') ||
    (va.kind === 'player' && vb.kind === 'player' && va.playerId === vb.playerId && va.stat === vb.stat);
  if (sameCount && a.side !== b.side && a.line !== null && b.line !== null) {
    const [high, low] = a.side === 'high' ? [a, b] : [b, a];
    const [above, below] = a.side === 'high' ? [a.line, b.line] : [b.line, a.line];
    if (PARTS_OF[low.variable.period].includes(high.variable.period) && above >= below) {
      return `${describeLeg(high)} is a part of ${describeLeg(low)}: the part cannot exceed the whole`;
    }
  }
  return null;
}

/**
 * Pairs of leg indexes that cannot both win by line geometry alone (same variable: 'high' line a and 'low' line b
 * with a >= b, or yes and no; a draw against a win of its period; a period's total or a player's count above a line
 * that its whole game is below), with a reason. Empty = compatible.
 */
export function sgpConflicts(legs: readonly SgpModelLeg[]): { legs: [number, number]; reason: string }[] {
  const conflicts: { legs: [number, number]; reason: string }[] = [];
  for (let i = 0; i < legs.length; i += 1) {
    for (let j = i + 1; j < legs.length; j += 1) {
      const reason = conflictOf(legs[i]!, legs[j]!);
      if (reason !== null) conflicts.push({ legs: [i, j], reason });
    }
  }
  return conflicts;
}

/** The most legs one SGP may have. */
export const MAX_SGP_MODEL_LEGS = 10;
/** The joint is kept in [SGP_PROBABILITY_FLOOR, 1 − SGP_PROBABILITY_FLOOR], for numerical safety only. */
export const SGP_PROBABILITY_FLOOR = 1e-9;

function validateLeg(leg: SgpModelLeg, index: number): void {
  const where = `Leg ${index}`;
  if (!(leg.probability > 0 && leg.probability < 1)) {
    throw new RangeError(`${where}: a probability must be in (0, 1), got ${leg.probability}`);
  }
  if (leg.side !== 'high' && leg.side !== 'low')
    throw new RangeError(`${where}: side must be 'high' or 'low'`);
  if (leg.line !== null && !Number.isFinite(leg.line))
    throw new RangeError(`${where}: the line must be finite`);
  const kind = leg.variable?.kind;
  if ((kind === 'margin' || kind === 'total') && leg.line === null) {
    throw new RangeError(`${where}: a ${kind} leg needs a line (a moneyline is 0)`);
  }
  if (kind === 'draw' && leg.line !== null) throw new RangeError(`${where}: a draw leg has no line`);
}

/**
 * The joint fair probability that every leg wins, in (0, 1) (clamped to [1e-9, 1 − 1e-9] only for numerical
 * safety), deterministic. One leg gives its own probability; legs on one variable intersect (the same outcome twice
 * is that outcome; home moneyline + home −3.5 is the spread's probability; home moneyline + away +3.5 is p₁ + p₂ − 1);
 * uncorrelated variables multiply. A margin leg that a draw of its period implies (home +0.5 with the draw) is dropped,
 * and so is a "no draw" that a margin leg implies. The result never exceeds the smallest leg probability nor falls
 * below the Fréchet bound Σp − (n − 1) of the distinct variables. Compatible lines whose consensus probabilities
 * contradict them (over 25.5 and under 27.5 summing to 1 or less) give the floor.
 *
 * Throws RangeError for conflicts or invalid input (no legs, more than 10, probabilities outside (0, 1), a margin or
 * total without a line, a period or prop the league does not have, one player listed with two teams).
 */
export function jointProbability(calibration: SgpCalibration, legs: readonly SgpModelLeg[]): number {
  return priceSgp(calibration, legs).probability;
}

/**
 * Which model gave a parlay's joint probability: `goals`, a soccer match's score grid (decision 166), whenever every leg
 * is one it covers; `scores`, the league's score distributions (NFL, NBA, NCAAB, NHL, MLB; decision 287) for two or
 * more margin and total legs of the full game or its first part (decision 296), the other legs of a mix joined by the
 * correlation model; else `correlation`,
 * the Gaussian correlation model (decision 127).
 */
export type SgpModel = 'goals' | 'scores' | 'correlation';

/** `jointProbability` with the model that gave it (the answer of /v1/sgp names it). */
export function priceSgp(
  calibration: SgpCalibration,
  legs: readonly SgpModelLeg[],
): { probability: number; model: SgpModel } {
  if (legs.length === 0) throw new RangeError('An SGP needs at least one leg');
  if (legs.length > MAX_SGP_MODEL_LEGS) throw new RangeError(`An SGP has at most ${MAX_SGP_MODEL_LEGS} legs`);
  legs.forEach(validateLeg);
  const conflicts = sgpConflicts(legs);
  if (conflicts.length > 0) {
    const [first] = conflicts;
    throw new RangeError(`Legs ${first!.legs[0]} and ${first!.legs[1]} cannot both win: ${first!.reason}`);
  }
  const teams = new Map<string, 'home' | 'away' | null>();
  for (const leg of legs) {
    const v = leg.variable;
    if (v.kind !== 'player') continue;
    const known = teams.get(v.playerId);
    if (known !== undefined && known !== v.team)
      throw new RangeError(`Player ${v.playerId} is listed with two teams`);
    teams.set(v.playerId, v.team);
  }

  // Soccer with a fitted goals model: the score grid prices every leg it covers (decision 166), kept within the legs'
  // own Fréchet bounds (a leg the fit did not use, another total line or a spread, has the grid's own marginal).
  if (calibration.goals) {
    const goals = goalsJoint(calibration.goals, legs);
    if (goals !== null) {
      const upper = Math.min(...legs.map((leg) => leg.probability));
      const lower = legs.reduce((sum, leg) => sum + leg.probability, 0) - (legs.length - 1);
      const joint = Math.min(upper, Math.max(lower, goals));
      return {
        probability: Math.min(1 - SGP_PROBABILITY_FLOOR, Math.max(SGP_PROBABILITY_FLOOR, joint)),
        model: 'goals',
      };
    }
  }

  // NFL, NBA, NCAAB, NHL, MLB (decision 287): two or more full-game margin and total legs are priced on the league's
  // score distributions, and so are the first part's (first half, first period, first five; decision 296) alone or
  // with them; the other legs of a mix (players, other periods) join by the correlation model's conditional
  // chance given those legs, P(rest | game legs) = copula(all) / copula(game legs), with the same margin–total ρ.
  // A single game leg is its own probability either way, so the correlation model prices it with the rest.
  if (calibration.scores) {
    const game = legs.filter((leg) => isScoresLeg(leg) || isPartLeg(calibration.league, leg));
    if (game.length >= 2) {
      let joint = scoresJoint(
        calibration.league,
        calibration.scores,
        calibration.marginTotalCorrelation,
        game,
      );
      if (game.length < legs.length) {
        const part = copulaJoint(calibration, game);
        joint *= Math.min(1, copulaJoint(calibration, legs) / part);
      }
      const upper = Math.min(...legs.map((leg) => leg.probability));
      const lower = legs.reduce((sum, leg) => sum + leg.probability, 0) - (legs.length - 1);
      joint = Math.min(upper, Math.max(lower, joint));
      return {
        probability: Math.min(1 - SGP_PROBABILITY_FLOOR, Math.max(SGP_PROBABILITY_FLOOR, joint)),
        model: 'scores',
      };
    }
  }

  return { probability: copulaJoint(calibration, legs), model: 'correlation' };
}

/** The Gaussian correlation model's joint of valid, conflict-free legs (decision 127), within the floors. */
function copulaJoint(calibration: SgpCalibration, legs: readonly SgpModelLeg[]): number {
  // Legs a draw of the same period settles: the draw implies a margin leg that holds at 0; a margin leg that fails
  // at 0 implies "no draw".
  const dropped = new Array<boolean>(legs.length).fill(false);
  legs.forEach((draw, i) => {
    if (draw.variable.kind !== 'draw') return;
    legs.forEach((other, j) => {
      if (other.variable.kind !== 'margin' || other.variable.period !== draw.variable.period) return;
      const line = other.line!;
      const holdsAtZero = other.side === 'high' ? line < 0 : line > 0;
      if (draw.side === 'high' && holdsAtZero) dropped[j] = true;
      if (draw.side === 'low' && !holdsAtZero) dropped[i] = true;
    });
  });

  // One interval per distinct variable, in the standard normal scale of that variable.
  const order: string[] = [];
  const byKey = new Map<string, { variable: SgpVariable; lo: number; hi: number }>();
  legs.forEach((leg, i) => {
    if (dropped[i]) return;
    const key = variableKey(leg.variable);
    let entry = byKey.get(key);
    if (!entry) {
      entry = { variable: leg.variable, lo: Number.NEGATIVE_INFINITY, hi: Number.POSITIVE_INFINITY };
      byKey.set(key, entry);
      order.push(key);
    }
    const z = normalQuantile(leg.probability);
    if (leg.side === 'high') entry.lo = Math.max(entry.lo, -z);
    else entry.hi = Math.min(entry.hi, z);
  });
  const entries = order.map((key) => byKey.get(key)!);
  const matrix = sgpCorrelation(
    calibration,
    entries.map((entry) => entry.variable),
  );
  const lower = entries.map((entry) => entry.lo);
  const upper = entries.map((entry) => entry.hi);

  let frechet = 1;
  for (const entry of entries) {
    const marginal = entry.lo >= entry.hi ? 0 : intervalProbability(entry.lo, entry.hi);
    frechet += marginal - 1;
  }
  const raw = mvnProbability(lower, upper, matrix);
  const smallest = Math.min(...legs.map((leg) => leg.probability));
  const joint = Math.min(smallest, Math.max(frechet, raw));
  return Math.min(1 - SGP_PROBABILITY_FLOOR, Math.max(SGP_PROBABILITY_FLOOR, joint));
}

function intervalProbability(lo: number, hi: number): number {
  return lo > 0 ? normalCdf(-lo) - normalCdf(-hi) : normalCdf(hi) - normalCdf(lo);
}

/** A book's SGP pricing: per-leg compounding plus an SGP premium. */
export interface SgpMarginSchedule {
  perLeg: number;
  premium: number;
}

/** The book's total margin for k legs: (1 + perLeg)^k × (1 + premium) − 1. RangeError for k < 1 or negative rates. */
export function sgpMargin(schedule: SgpMarginSchedule, legCount: number): number {
  if (!Number.isInteger(legCount) || legCount < 1) throw new RangeError(`A leg count is a whole number ≥ 1`);
  if (!(schedule.perLeg >= 0 && schedule.premium >= 0)) throw new RangeError('Margins are never negative');
  return (1 + schedule.perLeg) ** legCount * (1 + schedule.premium) - 1;
}

/** The cover rule's slack: the parlay's implied probability stays this far above the arbitrage bound. */
export const SGP_COVER_SLACK = 0.01;
/** The lowest decimal a book quotes. */
export const SGP_MIN_DECIMAL = 1.01;

/**
 * A book's SGP decimal odds: 1 / (joint × (1 + margin)), then made safe against the same book's single legs: given
 * the book's own decimal odds of the OTHER side of each leg (`oppositeDecimals[i]`, undefined when it has none), the
 * parlay's implied probability is raised to at least 1 − Σ_i 1/opposite_i + 0.01 (otherwise betting the parlay and
 * every opposite single would cover every result at a profit), and the decimal is never above the product of the
 * book's own single-leg decimals when the model's correlation is non-negative (joint ≥ naiveJoint, the product of
 * the marginals). Returns a decimal ≥ 1.01 rounded DOWN to 2 places (never overstates the payout).
 *
 * The cover rule applies only when every leg has an opposite: with one leg unhedgeable, the result where only that
 * leg loses pays nothing, so no set of bets covers every result. RangeError for invalid input.
 */
export function bookSgpDecimal(
  joint: number,
  legCount: number,
  schedule: SgpMarginSchedule,
  book: { legDecimals: readonly number[]; oppositeDecimals: readonly (number | undefined)[] },
  naiveJoint: number,
): number {
  if (!(joint > 0 && joint < 1)) throw new RangeError(`A joint probability must be in (0, 1), got ${joint}`);
  if (!(naiveJoint > 0 && naiveJoint < 1))
    throw new RangeError(`A naive joint must be in (0, 1), got ${naiveJoint}`);
  if (book.legDecimals.length !== legCount || book.oppositeDecimals.length !== legCount) {
    throw new RangeError(`One single and one opposite (or undefined) per leg: ${legCount} legs`);
  }
  const valid = (decimal: number) => Number.isFinite(decimal) && decimal > 1;
  if (!book.legDecimals.every(valid) || !book.oppositeDecimals.every((d) => d === undefined || valid(d))) {
    throw new RangeError('Decimal odds must be finite and > 1');
  }
  let decimal = 1 / (joint * (1 + sgpMargin(schedule, legCount)));
  if (book.oppositeDecimals.every((d) => d !== undefined)) {
    const floor = 1 - book.oppositeDecimals.reduce((sum, d) => sum + 1 / d!, 0) + SGP_COVER_SLACK;
    if (floor > 0) decimal = Math.min(decimal, 1 / floor);
  }
  if (joint >= naiveJoint)
    decimal = Math.min(
      decimal,
      book.legDecimals.reduce((product, d) => product * d, 1),
    );
  const rounded = Math.floor(decimal * 100 * (1 + 1e-12)) / 100;
  return Math.max(SGP_MIN_DECIMAL, rounded);
}
