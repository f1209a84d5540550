// Distributions over the integers (a final margin, a total, a team's goals) and what a line does on them: whole,
// half and quarter lines, their pushes and half results, and the fair two-way probability a book's two prices of a
// line stand for (decision 264). Shared by the score distributions, middles and the soccer goals model.

/** A distribution over the integers: `probabilities[i]` is P(X = min + i); they sum to 1. */
export interface IntegerDistribution {
  min: number;
  probabilities: number[];
}

export function probabilityOf(distribution: IntegerDistribution, x: number): number {
  return distribution.probabilities[x - distribution.min] ?? 0;
}

/** The distribution of weights (indexed from `min`), trimmed of zero ends and normalised. RangeError without mass. */
export function normalise(min: number, weights: ArrayLike<number>): IntegerDistribution {
  let first = 0;
  while (first < weights.length - 1 && weights[first] === 0) first += 1;
  let last = weights.length - 1;
  while (last > first && weights[last] === 0) last -= 1;
  let sum = 0;
  for (let i = first; i <= last; i += 1) sum += weights[i]!;
  if (!(sum > 0)) throw new RangeError('A distribution needs some mass');
  const probabilities = new Array<number>(last - first + 1);
  for (let i = first; i <= last; i += 1) probabilities[i - first] = weights[i]! / sum;
  return { min: min + first, probabilities };
}

export function meanOf(distribution: IntegerDistribution): number {
  let mean = 0;
  distribution.probabilities.forEach((p, i) => (mean += p * (distribution.min + i)));
  return mean;
}

const cumulatives = new WeakMap<IntegerDistribution, Float64Array>();

/** P(X ≤ min + i) at index i, computed once per distribution object (distributions are not changed once made). */
function cumulativeOf(distribution: IntegerDistribution): Float64Array {
  let found = cumulatives.get(distribution);
  if (!found) {
    found = new Float64Array(distribution.probabilities.length);
    let sum = 0;
    distribution.probabilities.forEach((p, i) => (found![i] = sum += p));
    cumulatives.set(distribution, found);
  }
  return found;
}

/** P(X ≤ min + i) from the cumulative sums: 0 below the support, 1 (its last sum) above it. */
function cumulativeAt(cumulative: Float64Array, i: number): number {
  const at = Math.min(i, cumulative.length - 1);
  return at < 0 ? 0 : cumulative[at]!;
}

/** P(X ≤ x). */
export function cdfAt(distribution: IntegerDistribution, x: number): number {
  let sum = 0;
  const top = Math.min(Math.floor(x) - distribution.min, distribution.probabilities.length - 1);
  for (let i = 0; i <= top; i += 1) sum += distribution.probabilities[i]!;
  return Math.min(1, sum);
}

/** The least x with P(X ≤ x) ≥ u (the inverse CDF a uniform draw is mapped through). */
export function quantileOf(distribution: IntegerDistribution, u: number): number {
  let sum = 0;
  const last = distribution.probabilities.length - 1;
  for (let i = 0; i < last; i += 1) {
    sum += distribution.probabilities[i]!;
    if (sum >= u) return distribution.min + i;
  }
  return distribution.min + last;
}

/** What a bet on one side of a line does at each value: 1 won, 0.5 half won, 0 push, −0.5 half lost, −1 lost. */
export function lineOutcome(side: 'high' | 'low', line: number, x: number): number {
  if (!Number.isInteger(line * 4)) throw new RangeError(`A line is in quarter points, got ${line}`);
  if (!Number.isInteger(line * 2)) {
    // A quarter line is two half stakes, on the half and whole lines either side.
    return (lineOutcome(side, line - 0.25, x) + lineOutcome(side, line + 0.25, x)) / 2;
  }
  const sign = side === 'high' ? Math.sign(x - line) : Math.sign(line - x);
  return sign;
}

/** P(win), P(push) and P(lose) of one side of a line, a half-win or half-loss counting half to each. */
export function lineChances(
  distribution: IntegerDistribution,
  side: 'high' | 'low',
  line: number,
): { win: number; push: number; lose: number } {
  let win = 0;
  let push = 0;
  let lose = 0;
  distribution.probabilities.forEach((p, i) => {
    const o = lineOutcome(side, line, distribution.min + i);
    if (o > 0) {
      win += p * o;
      push += p * (1 - o);
    } else if (o < 0) {
      lose += -p * o;
      push += p * (1 + o);
    } else push += p;
  });
  return { win, push, lose };
}

/**
 * The fair two-way probability of the high side of a line (as a book's two prices de-vigged by their sum read it):
 * each side's break-even price (pushes and half results included) taken as an implied probability, normalised. On a
 * half line it is P(X > line); on a whole line P(X > line) / (1 − P(X = line)); a quarter line as its two halves.
 */
export function fairHighProbability(distribution: IntegerDistribution, line: number): number {
  if (Number.isInteger(line * 2)) {
    // A half or whole line: the mass below and above it (a whole line's push left out), from the cumulative sums.
    // No closure per call (decision 309: run through tsx, each named closure is also named at run time).
    const cumulative = cumulativeOf(distribution);
    const below = cumulativeAt(cumulative, Math.ceil(line) - 1 - distribution.min);
    const above = 1 - cumulativeAt(cumulative, Math.floor(line) - distribution.min);
    const settled = above + below;
    return settled > 0 ? Math.min(1, Math.max(0, above / settled)) : 0.5;
  }
  const high = lineChances(distribution, 'high', line);
  const low = lineChances(distribution, 'low', line);
  // Break-even decimal d: win·(d − 1) = lose, so the implied 1/d = win / (win + lose).
  const impliedHigh = high.win + high.lose > 0 ? high.win / (high.win + high.lose) : 0.5;
  const impliedLow = low.win + low.lose > 0 ? low.win / (low.win + low.lose) : 0.5;
  const sum = impliedHigh + impliedLow;
  return sum > 0 ? impliedHigh / sum : 0.5;
}
