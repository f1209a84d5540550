import type { LeagueKey, Period } from '#domain/markets.ts';
import { decimalToAmerican, toDecimalOdds } from '#domain/odds.ts';
import {
  cdfAt,
  fairHighProbability,
  firstPartShare,
  gameDistributions,
  halfDistributions,
  halfShares,
  LIVE_PART_STEP,
  livePartDistributions,
  periodDistributions,
  probabilityOf,
  type GameDistributions,
} from '#domain/score-distributions.ts';
import { FIRST_PART, periodShare, type BookProfile, type MarketPlan, type SportModel } from './models.ts';

// The simulator's pricing: a fixture's fair model (expected home margin and total) → fair probabilities of a market's
// outcomes at a line → one book's American odds, with its margin, bias and rounding. Pure: no state, no randomness.

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

function halfLine(value: number): number {
  return Math.floor(value) + 0.5;
}

/** The fair model of one fixture at an instant. */
export interface FairModel {
  league: LeagueKey;
  /** Expected home margin (points, runs, goals). */
  margin: number;
  /** Expected total. */
  total: number;
  /** In play: the full game is priced on the live model's logistic, not the pre-game distributions. */
  live?: boolean;
  /** In play, the first part not yet over: its score so far and what is left of it (score-model.ts `LiveState`). */
  part?: LivePart;
}

/** A first part in play (decision 288): the pre-game centre, the part's score so far, the share of its time left. */
export interface LivePart {
  period: Period;
  pregame: { margin: number; total: number };
  home: number;
  away: number;
  left: number;
}

/** The market's main line (the home spread or the total) where most books hang it; null for moneyline and 1X2. */
export function mainLine(fixture: FairModel, plan: MarketPlan): number | null {
  const half = periodShare(fixture.league, plan.period);
  // A points league's first half: its published shares of the total and the margin (decision 288).
  const shares = plan.period === 'h1' ? halfShares(fixture.league) : undefined;
  if (plan.type === 'total') return halfLine(fixture.total * (shares?.total ?? half));
  if (plan.type === 'spread') {
    if (fixture.league === 'mlb' || fixture.league === 'nhl') return fixture.margin > 0 ? -1.5 : 1.5;
    return halfLine(-fixture.margin * (shares?.margin ?? half));
  }
  return null;
}

/** Fair probabilities of the market's outcomes (in `outcomesOf` order) at a given line. */
export function fairProbabilities(
  fixture: FairModel,
  model: SportModel,
  plan: MarketPlan,
  line: number | null,
): number[] {
  if (!fixture.live) {
    if (plan.period === 'full')
      return distributionProbabilities(gameDistributions(fixture.league, fixture), plan, line);
    if (plan.period === FIRST_PART[fixture.league]) {
      // The first part of a goal or run league: its own distributions, the full game's thinned (decision 284).
      const share = firstPartShare(fixture.league);
      if (share !== undefined)
        return distributionProbabilities(periodDistributions(fixture.league, fixture, share), plan, line);
      // A points league's first half: the full game split by the segment model (decision 288).
      if (halfShares(fixture.league))
        return distributionProbabilities(halfDistributions(fixture.league, fixture), plan, line);
    }
  } else if (fixture.part && fixture.part.period === plan.period) {
    // The first part in play: its score so far and the rest of it on the same model (decision 288), between the two
    // twentieths of its time the rest is read to (decision 293).
    return livePartProbabilities(fixture.league, fixture.part, plan, line);
  }
  const half = periodShare(fixture.league, plan.period);
  const marginScale = model.marginScale * Math.sqrt(half);
  const margin = fixture.margin * half;
  switch (plan.type) {
    case 'moneyline': {
      const home = logistic(margin / marginScale);
      return [1 - home, home];
    }
    case 'spread': {
      const home = logistic((margin + (line ?? 0)) / marginScale);
      return [1 - home, home];
    }
    case 'total': {
      const over = logistic((fixture.total * half - (line ?? 0)) / (model.totalScale * Math.sqrt(half)));
      return [over, 1 - over];
    }
    case '1x2': {
      const x = margin / marginScale;
      const draw = 0.28 * Math.exp(-x * x * 0.35);
      const home = (1 - draw) * logistic(x * 1.6);
      return [home, draw, 1 - draw - home];
    }
  }
}

/**
 * A first part's fair probabilities in play (decision 288): its score so far plus the rest of it, whose model is built
 * at twentieths of the part's time (`LIVE_PART_STEP`, cached per pre-game centre). Between two twentieths the
 * probabilities are interpolated linearly in the time left (decision 293), so the price moves with the clock as the
 * score stands: read to the twentieth above, as before, the rest's expectation dropped by a twentieth at once (5.7
 * points of an NBA half's total every 225 s), a jump no score made, which a lagging book's last price stood against.
 * At a twentieth exactly it is that twentieth's price.
 */
function livePartProbabilities(
  league: LeagueKey,
  part: LivePart,
  plan: MarketPlan,
  line: number | null,
): number[] {
  const { pregame, home, away } = part;
  const left = Math.min(Math.max(part.left, 0), 1);
  const below = Math.floor(left / LIVE_PART_STEP + 1e-9) * LIVE_PART_STEP;
  const weight = (left - below) / LIVE_PART_STEP;
  const at = (rest: number) =>
    distributionProbabilities(livePartDistributions(league, pregame, { home, away }, rest), plan, line);
  const low = at(below);
  if (weight < 1e-9 || below >= 1) return low;
  const high = at(Math.min(1, below + LIVE_PART_STEP));
  for (let index = 0; index < low.length; index += 1)
    low[index] = low[index]! * (1 - weight) + high[index]! * weight;
  return low;
}

/**
 * Fair probabilities before kick-off from score distributions (score-distributions.ts, decision 264): a full game's
 * (every league) or a goal or run league's first part's (`periodDistributions`, decision 284), centred on the fair
 * model: the chance a result gives each side, a whole line's push left out as a two-way price leaves it
 * (`fairHighProbability`), a two-way moneyline's tie too. The score model draws the result from the same
 * distributions, so every closing price is the result's chance.
 */
function distributionProbabilities(game: GameDistributions, plan: MarketPlan, line: number | null): number[] {
  switch (plan.type) {
    case 'moneyline': {
      const home = fairHighProbability(game.margin, 0);
      return [1 - home, home];
    }
    case 'spread': {
      const home = fairHighProbability(game.margin, -(line ?? 0));
      return [1 - home, home];
    }
    case 'total': {
      const over = fairHighProbability(game.total, line ?? 0);
      return [over, 1 - over];
    }
    case '1x2': {
      const draw = probabilityOf(game.margin, 0);
      const home = 1 - cdfAt(game.margin, 0);
      return [home, draw, Math.max(0, 1 - home - draw)];
    }
  }
}

/** Highest implied probability a book quotes on one outcome. */
const MAX_IMPLIED = 0.985;

/**
 * One book's American odds per outcome: the fair probabilities leaned by the book's bias, grossed up by its margin
 * (one point more live), capped at 98.5 % implied, and rounded as the book quotes. What the cap takes off a near-sure
 * outcome goes onto the others, so the book keeps its margin (a game decided in play, issue 57, quotes its longshot
 * short rather than hand out an arb).
 */
export function bookOdds(
  fair: readonly number[],
  bias: readonly number[],
  profile: BookProfile,
  live: boolean,
): number[] {
  const margin = profile.margin + (live ? 0.01 : 0);
  // One array, the weights first, then the implied probabilities, then the odds in their place (issue 59: per quote,
  // no intermediate arrays). The sums are added in the same order as before, so the figures are the same to the bit.
  const odds: number[] = [];
  let sum = 0;
  for (let index = 0; index < fair.length; index += 1) {
    const weight = Math.max(fair[index]!, 0.004) * Math.exp(bias[index]!);
    odds.push(weight);
    sum += weight;
  }
  let over = 0;
  for (let index = 0; index < odds.length; index += 1) {
    const implied = (odds[index]! / sum) * (1 + margin);
    odds[index] = implied;
    over += Math.max(0, implied - MAX_IMPLIED);
  }
  // A near-certain side capped at MAX_IMPLIED gives its excess to the others, so the book keeps its margin.
  if (over > 0) {
    let rest = 0;
    for (const p of odds) rest += p > MAX_IMPLIED ? 0 : p;
    for (let index = 0; index < odds.length; index += 1) {
      const p = odds[index]!;
      odds[index] = p > MAX_IMPLIED ? MAX_IMPLIED : Math.min(MAX_IMPLIED, p + (over * p) / rest);
    }
  }
  for (let index = 0; index < odds.length; index += 1)
    odds[index] = bookAmerican(1 / odds[index]!, profile.roundToFive);
  return odds;
}

/**
 * Decimal → American as a book would quote it: the domain's exact conversion, rounded to an integer (to fives beyond
 * ±150 for books that do). Rounding keeps it valid: the exact figure is already >= +100 or <= −100.
 */
export function bookAmerican(decimal: number, roundToFive: boolean): number {
  const american = decimalToAmerican(toDecimalOdds(decimal));
  const step = roundToFive && Math.abs(american) > 150 ? 5 : 1;
  return Math.round(american / step) * step;
}
