// Removing the bookmaker's margin (the overround) from one market's implied probabilities (issue 35, decision 164).
//
// Input: q_i = 1/d_i for each outcome of an n-way market (n ≥ 2), each in (0, 1); their sum Q is 1 + the overround
// (a median across books can also sum to less than 1: an underround). Output: fair probabilities p_i that sum to 1
// (within 1e-12), each in [0, 1], in the same weak order as the q_i, and equal to the q_i when Q = 1 exactly.
//
// - multiplicative: p_i = q_i / Q. Every outcome loses the same share of its probability, so a longshot keeps most of
//   its margin: it cannot model the favourite–longshot bias.
// - additive: p_i = q_i − (Q − 1)/n, the overround taken in equal parts. A longshot priced below its part would go
//   negative: such outcomes get 0 and the rest is shared again among the others (the nearest point of the simplex to q
//   in the Euclidean sense, which is the plain formula whenever that has no negative). A 0 is a probability a bettor
//   cannot use: the answer shows it, and CLV treats it as no fair price.
// - power: p_i = q_i^k with k solved so that Σ q_i^k = 1 (Clarke, Kovalchik & Ingram 2017; k > 1 for an overround,
//   k < 1 for an underround). Longshots lose proportionally more.
// - shin: Shin's model (Shin 1993; the closed form as Jullien & Salanié 1994 and Štrumbelj 2014 write it), with z the
//   share of money from insiders: p_i = (√(z² + 4(1 − z) q_i² / Q) − z) / (2(1 − z)), z solved so that Σ p_i = 1.
//   z ∈ [0, 1) for an overround; an underround gives z < 0, where the same formula still gives a unique solution in
//   (−1, 0) (outside Shin's model, and documented as such). For two outcomes Shin's p equals the additive one.
//
// Both unknowns (k and z) are found by bisection on a bracket where the sum is monotone, run until the bracket can
// shrink no more (adjacent doubles): |Σ p_i − 1| is then below 1e-12, and the result is divided by its sum. Shin's two
// outcomes need no search: Σ p = 1 solves to p_1 = (1 + q_1 − q_2) / 2 whatever z is (the additive answer), and
// z = 1 − 2(q_1² + q_2² − Q) / (Q(k² − 1)) with k = (q_1² − q_2²) / Q (docs/decisions/185).

export const DEVIG_METHODS = ['multiplicative', 'additive', 'power', 'shin'] as const;

export type DevigMethod = (typeof DEVIG_METHODS)[number];

/** The method the API uses when a request names none (decision 164: Shin, after Štrumbelj 2014). */
export const DEFAULT_DEVIG_METHOD: DevigMethod = 'shin';

export const isDevigMethod = (value: unknown): value is DevigMethod =>
  (DEVIG_METHODS as readonly unknown[]).includes(value);

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

function checkImplied(implied: readonly number[]): void {
  if (implied.length < 2) throw new RangeError(`A market needs at least 2 outcomes, got ${implied.length}`);
  for (const q of implied) {
    if (!(q > 0 && q < 1)) throw new RangeError(`An implied probability must be in (0, 1), got ${q}`);
  }
}

/** Divides by the sum: the last step of every method, and the whole multiplicative one. */
const normalised = (values: readonly number[]) => {
  const total = sum(values);
  return values.map((value) => value / total);
};

/**
 * The root of a decreasing function f on [lo, hi] (f(lo) > 0 > f(hi)), by bisection until the bracket cannot shrink
 * (its midpoint equals an end) or f is exactly 0.
 */
function bisect(f: (x: number) => number, lo: number, hi: number): number {
  for (let step = 0; step < 2_000; step += 1) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) return mid;
    const value = f(mid);
    if (value === 0) return mid;
    if (value > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export function multiplicative(implied: readonly number[]): number[] {
  checkImplied(implied);
  return normalised(implied);
}

export function additive(implied: readonly number[]): number[] {
  checkImplied(implied);
  // Outcomes from the largest down: the first m keep q_i − τ with τ = (Σ_{j≤m} q_j − 1) / m, for the largest m whose
  // smallest kept value stays positive; the rest get 0 (the Euclidean projection onto the simplex).
  const sorted = [...implied].sort((a, b) => b - a);
  let running = 0;
  let tau = 0;
  for (let m = 1; m <= sorted.length; m += 1) {
    running += sorted[m - 1]!;
    const candidate = (running - 1) / m;
    if (sorted[m - 1]! - candidate > 0) tau = candidate;
  }
  return normalised(implied.map((q) => Math.max(q - tau, 0)));
}

/** The power method's exponent k (Σ q_i^k = 1) and probabilities. */
export function solvePower(implied: readonly number[]): { k: number; probabilities: number[] } {
  checkImplied(implied);
  if (sum(implied) === 1) return { k: 1, probabilities: [...implied] };
  // f(k) = Σ q^k − 1 decreases from n − 1 > 0 at k = 0 towards −1; bracket the root by doubling.
  const f = (k: number) => sum(implied.map((q) => q ** k)) - 1;
  let lo = 0;
  let hi = 1;
  while (f(hi) > 0) {
    lo = hi;
    hi *= 2;
  }
  const k = bisect(f, lo, hi);
  return { k, probabilities: normalised(implied.map((q) => q ** k)) };
}

export function power(implied: readonly number[]): number[] {
  return solvePower(implied).probabilities;
}

/** Shin's probabilities for a given z. */
export function shinProbabilities(implied: readonly number[], z: number): number[] {
  const total = sum(implied);
  return implied.map((q) => (Math.sqrt(z * z + (4 * (1 - z) * q * q) / total) - z) / (2 * (1 - z)));
}

/** Shin's z (the insiders' share) and probabilities. */
export function solveShin(implied: readonly number[]): { z: number; probabilities: number[] } {
  checkImplied(implied);
  if (sum(implied) === 1) return { z: 0, probabilities: [...implied] };
  if (implied.length === 2) {
    const [q1, q2] = implied as [number, number];
    const total = q1 + q2;
    const k = (q1 * q1 - q2 * q2) / total;
    const z = 1 - (2 * (q1 * q1 + q2 * q2 - total)) / (total * (k * k - 1));
    return { z, probabilities: normalised(shinPair(q1, q2)) };
  }
  // Σ p(z) − 1 is above 0 as z → −1 (each p_i > 1/2) and below 0 as z → 1 (Σ p → Σ q²/Q < 1), decreasing between.
  const z = bisect((candidate) => sum(shinProbabilities(implied, candidate)) - 1, -1, 1);
  return { z, probabilities: normalised(shinProbabilities(implied, z)) };
}

/** Shin's two probabilities in closed form (before the division by their sum, as the bisection's are). */
function shinPair(q1: number, q2: number): [number, number] {
  return [(1 + q1 - q2) / 2, (1 + q2 - q1) / 2];
}

export function shin(implied: readonly number[]): number[] {
  return solveShin(implied).probabilities;
}

const METHODS: Readonly<Record<DevigMethod, (implied: readonly number[]) => number[]>> = {
  multiplicative,
  additive,
  power,
  shin,
};

/**
 * Fair probabilities of one market from its implied probabilities (1/decimal per outcome, or medians of them across
 * books) by `method`. RangeError for fewer than 2 outcomes or an implied probability outside (0, 1).
 */
export function devigImplied(
  implied: readonly number[],
  method: DevigMethod = DEFAULT_DEVIG_METHOD,
): number[] {
  return METHODS[method](implied);
}

/**
 * `shin(implied)` into `out`, without allocating: the same bisection and the same arithmetic in the same order, so
 * the same doubles (the engine's value scan judges thousands of markets a second with it; decision 170). `implied`
 * holds `width` values, each in (0, 1) (not checked: the caller's medians of valid decimal odds are).
 */
export function shinInto(implied: ArrayLike<number>, width: number, out: Float64Array): void {
  let total = 0;
  for (let i = 0; i < width; i += 1) total += implied[i]!;
  if (total === 1) {
    for (let i = 0; i < width; i += 1) out[i] = implied[i]!;
    return;
  }
  if (width === 2) {
    // shinPair's arithmetic, without its array.
    const p1 = (1 + implied[0]! - implied[1]!) / 2;
    const p2 = (1 + implied[1]! - implied[0]!) / 2;
    const pairSum = p1 + p2;
    out[0] = p1 / pairSum;
    out[1] = p2 / pairSum;
    return;
  }
  const excess = (z: number): number => {
    let s = 0;
    for (let i = 0; i < width; i += 1) {
      const q = implied[i]!;
      s += (Math.sqrt(z * z + (4 * (1 - z) * q * q) / total) - z) / (2 * (1 - z));
    }
    return s - 1;
  };
  const z = bisect(excess, -1, 1);
  let sum = 0;
  for (let i = 0; i < width; i += 1) {
    const q = implied[i]!;
    const p = (Math.sqrt(z * z + (4 * (1 - z) * q * q) / total) - z) / (2 * (1 - z));
    out[i] = p;
    sum += p;
  }
  for (let i = 0; i < width; i += 1) out[i] = out[i]! / sum;
}
