import { seededRandom } from './random.ts';

// Normal probabilities for the same-game-parlay model (issue 16, decision 127): the standard normal CDF and quantile,
// the bivariate normal CDF, and the probability that a standard multivariate normal vector falls in a box,
// P(lo_i < Z_i < hi_i for every i) with Z ~ N(0, R) and R a correlation matrix (±Infinity bounds allowed).
//
// Methods: Φ by Hart's algorithm 5666 as given by West (2005), ~1e-15; Φ⁻¹ by Acklam's rational approximation
// refined by one Halley step, ~1e-15; the bivariate CDF by Genz's BVND (Drezner–Wesolowsky with 6/12/20-point
// Gauss–Legendre rules), ~1e-15; three or more dimensions by Genz's separation of variables with his variable
// reordering, integrated by a randomised quasi-Monte Carlo lattice (a Korobov rule, the baker's transform,
// antithetic pairs, fixed shifts): deterministic, with an error of ~1e-5 absolute on the model's cases (decision 127).
// Groups of variables uncorrelated with the rest are computed apart and multiplied, so independence gives the exact
// product; variables correlated at ±1 are merged first; a variable fixed by the earlier ones (a singular R, such as
// a game's margin beside both halves') becomes bounds on the last variable it depends on.

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** Φ(x), the standard normal CDF: Hart (1968) algorithm 5666 as given by West (2005); absolute error ~1e-15. */
export function normalCdf(x: number): number {
  const z = Math.abs(x);
  let tail: number;
  if (z > 37) tail = 0;
  else {
    const e = Math.exp((-z * z) / 2);
    if (z < 7.07106781186547) {
      let num = 3.52624965998911e-2 * z + 0.700383064443688;
      num = num * z + 6.37396220353165;
      num = num * z + 33.912866078383;
      num = num * z + 112.079291497871;
      num = num * z + 221.213596169931;
      num = num * z + 220.206867912376;
      let den = 8.83883476483184e-2 * z + 1.75566716318264;
      den = den * z + 16.064177579207;
      den = den * z + 86.7807322029461;
      den = den * z + 296.564248779674;
      den = den * z + 637.333633378831;
      den = den * z + 793.826512519948;
      den = den * z + 440.413735824752;
      tail = (e * num) / den;
    } else {
      tail = e / (z + 1 / (z + 2 / (z + 3 / (z + 4 / (z + 0.65))))) / SQRT_2PI;
    }
  }
  return x > 0 ? 1 - tail : tail;
}

const A = [
  -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
  2.506628277459239,
] as const;
const B = [
  -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1,
] as const;
const C = [
  -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
  2.938163982698783,
] as const;
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416] as const;
const P_LOW = 0.02425;

/** Acklam's approximation of Φ⁻¹(p) for p in (0, 1): relative error below 1.2e-9, no refinement (the hot loop's). */
function acklam(p: number): number {
  if (p < P_LOW) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) /
      ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1)
    );
  }
  if (p > 1 - P_LOW) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return (
      -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) /
      ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q) /
    (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1)
  );
}

/**
 * Φ⁻¹(p), the standard normal quantile: Acklam's approximation refined by one Halley step on `normalCdf`; absolute
 * error ~1e-15 in the centre, so `normalCdf(normalQuantile(p))` returns p to ~1e-16. −Infinity at 0, +Infinity at 1,
 * NaN outside [0, 1].
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return Number.NaN;
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  const x = acklam(p);
  // Halley's step on the smaller tail, where Φ is computed without cancellation.
  const e = x > 0 ? 1 - p - normalCdf(-x) : normalCdf(x) - p;
  const u = e * SQRT_2PI * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/** Gauss–Legendre nodes in (0, 1) and weights of the n-point rule on [−1, 1] (n even), by Newton's method. */
function gaussLegendre(n: number): { x: Float64Array; w: Float64Array } {
  const half = n / 2;
  const x = new Float64Array(half);
  const w = new Float64Array(half);
  for (let i = 0; i < half; i += 1) {
    let root = Math.cos((Math.PI * (i + 0.75)) / (n + 0.5));
    let derivative = 0;
    for (let iteration = 0; iteration < 100; iteration += 1) {
      let p0 = 1;
      let p1 = root;
      for (let k = 2; k <= n; k += 1) {
        const p2 = ((2 * k - 1) * root * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      derivative = (n * (root * p1 - p0)) / (root * root - 1);
      const step = p1 / derivative;
      root -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    x[i] = root;
    w[i] = 2 / ((1 - root * root) * derivative * derivative);
  }
  return { x, w };
}

const GL = [gaussLegendre(6), gaussLegendre(12), gaussLegendre(20)] as const;

/** P(X > h, Y > k) for a standard bivariate normal with correlation r: Genz's BVND (Drezner–Wesolowsky). */
function bvnUpper(h0: number, k0: number, r: number): number {
  if (h0 === Number.POSITIVE_INFINITY || k0 === Number.POSITIVE_INFINITY) return 0;
  if (h0 === Number.NEGATIVE_INFINITY) return k0 === Number.NEGATIVE_INFINITY ? 1 : normalCdf(-k0);
  if (k0 === Number.NEGATIVE_INFINITY) return normalCdf(-h0);
  const absR = Math.abs(r);
  const rule = absR < 0.3 ? GL[0] : absR < 0.75 ? GL[1] : GL[2];
  const { x, w } = rule;
  const h = h0;
  let k = k0;
  let hk = h * k;
  let bvn = 0;
  if (absR < 0.925) {
    if (r !== 0) {
      const hs = (h * h + k * k) / 2;
      const asr = Math.asin(r);
      for (let i = 0; i < x.length; i += 1) {
        let sn = Math.sin((asr * (1 - x[i]!)) / 2);
        bvn += w[i]! * Math.exp((sn * hk - hs) / (1 - sn * sn));
        sn = Math.sin((asr * (1 + x[i]!)) / 2);
        bvn += w[i]! * Math.exp((sn * hk - hs) / (1 - sn * sn));
      }
      bvn = (bvn * asr) / (4 * Math.PI);
    }
    return clamp01(bvn + normalCdf(-h) * normalCdf(-k));
  }
  if (r < 0) {
    k = -k;
    hk = -hk;
  }
  if (absR < 1) {
    const as = (1 - r) * (1 + r);
    let a = Math.sqrt(as);
    const bs = (h - k) * (h - k);
    const c = (4 - hk) / 8;
    const d = (12 - hk) / 16;
    let asr = -(bs / as + hk) / 2;
    if (asr > -100)
      bvn = a * Math.exp(asr) * (1 - (c * (bs - as) * (1 - (d * bs) / 5)) / 3 + (c * d * as * as) / 5);
    if (hk > -100) {
      const b = Math.sqrt(bs);
      const sp = SQRT_2PI * normalCdf(-b / a);
      bvn -= Math.exp(-hk / 2) * sp * b * (1 - (c * bs * (1 - (d * bs) / 5)) / 3);
    }
    a /= 2;
    for (let i = 0; i < x.length; i += 1) {
      for (let sign = -1; sign <= 1; sign += 2) {
        const xs = (a + sign * a * x[i]!) ** 2;
        const rs = Math.sqrt(1 - xs);
        asr = -(bs / xs + hk) / 2;
        if (asr > -100) {
          const sp = 1 + c * xs * (1 + d * xs);
          const ep = Math.exp((-hk * (1 - rs)) / (2 * (1 + rs))) / rs;
          bvn += a * w[i]! * Math.exp(asr) * (ep - sp);
        }
      }
    }
    bvn = -bvn / (2 * Math.PI);
  }
  if (r > 0) return clamp01(bvn + normalCdf(-Math.max(h, k)));
  bvn = -bvn;
  if (k > h) bvn += h < 0 ? normalCdf(k) - normalCdf(h) : normalCdf(-h) - normalCdf(-k);
  return clamp01(bvn);
}

const clamp01 = (p: number) => (p < 0 ? 0 : p > 1 ? 1 : p);

/** P(X < h, Y < k) for a standard bivariate normal with correlation `rho` in [−1, 1]; ±Infinity allowed. */
export function bivariateNormalCdf(h: number, k: number, rho: number): number {
  if (!(rho >= -1 && rho <= 1)) throw new RangeError(`A correlation must be in [-1, 1], got ${rho}`);
  return bvnUpper(-h, -k, rho);
}

/** P(lo < Z < hi) for one standard normal, computed on the side that avoids cancellation. */
function intervalProbability(lo: number, hi: number): number {
  if (!(lo < hi)) return 0;
  if (lo > 0) return normalCdf(-lo) - normalCdf(-hi);
  return normalCdf(hi) - normalCdf(lo);
}

/** P(lo0 < X < hi0, lo1 < Y < hi1) with correlation r, by inclusion–exclusion of `bvnUpper`. */
function bivariateBox(lo0: number, hi0: number, lo1: number, hi1: number, r: number): number {
  if (!(lo0 < hi0 && lo1 < hi1)) return 0;
  let p = bvnUpper(lo0, lo1, r);
  if (hi0 !== Number.POSITIVE_INFINITY) p -= bvnUpper(hi0, lo1, r);
  if (hi1 !== Number.POSITIVE_INFINITY) p -= bvnUpper(lo0, hi1, r);
  if (hi0 !== Number.POSITIVE_INFINITY && hi1 !== Number.POSITIVE_INFINITY) p += bvnUpper(hi0, hi1, r);
  return Math.min(clamp01(p), intervalProbability(lo0, hi0), intervalProbability(lo1, hi1));
}

/** Correlations this close to ±1 merge two variables into one. */
const MERGE_TOLERANCE = 1e-12;
/** A conditional variance at or below this makes the variable a deterministic function of the earlier ones. */
const SINGULAR_VARIANCE = 1e-10;
/** Correlations of magnitude at or below this count as zero when splitting into independent groups. */
const ZERO_CORRELATION = 1e-15;

/**
 * The quasi-Monte Carlo rule: `shifts` randomly shifted copies of a `points`-point Korobov lattice, each point used
 * with its antithetic. 4 × 61 × 2 = 488 integrand values: ~1e-4 absolute error (decision 127 has the measurements).
 */
export const MVN_QMC = { shifts: 4, points: 61 } as const;
/** The most correlated variables one group may have. */
const MAX_DIMENSION = 20;
/** The most shifts a caller may ask for (tests measure the error with more points and shifts). */
const MAX_SHIFTS = 64;
const SHIFT_TABLE = (() => {
  const random = seededRandom(0x5e9c0127);
  return Float64Array.from({ length: MAX_SHIFTS * MAX_DIMENSION }, () => random());
})();

const generators = new Map<string, Float64Array>();

/**
 * The Korobov generating vector (1, a, a², …) mod n, divided by n, for `dims` dimensions: a minimises the lattice's
 * P₂ figure of merit (the worst-case error for smooth periodic integrands, Sloan & Joe 1994). Every a below n/2 is
 * tried for n ≤ 1000, 64 evenly spaced ones above; computed once per (n, dims).
 */
function korobovGenerator(n: number, dims: number): Float64Array {
  const key = `${n}:${dims}`;
  const cached = generators.get(key);
  if (cached) return cached;
  const b2 = (x: number) => x * x - x + 1 / 6;
  const vector = (a: number) => {
    const z = [1];
    for (let j = 1; j < dims; j += 1) z.push((z[j - 1]! * a) % n);
    return z;
  };
  const candidates: number[] = [];
  const top = Math.max(2, Math.floor((n - 1) / 2));
  if (n <= 1000) for (let a = 1; a <= top; a += 1) candidates.push(a);
  else for (let c = 0; c < 64; c += 1) candidates.push(2 + Math.floor((c * (top - 2)) / 63));
  let best = 1;
  let bestMerit = Number.POSITIVE_INFINITY;
  for (const a of candidates) {
    const z = vector(a);
    let merit = 0;
    for (let k = 0; k < n; k += 1) {
      let product = 1;
      for (const zj of z) product *= 1 + 2 * Math.PI * Math.PI * b2(((k * zj) % n) / n);
      merit += product;
    }
    if (merit < bestMerit) {
      bestMerit = merit;
      best = a;
    }
  }
  const generator = Float64Array.from(vector(best), (zj) => zj / n);
  generators.set(key, generator);
  return generator;
}

/** An estimate and its standard error (the spread of the shifted lattice copies). */
export interface MvnEstimate {
  probability: number;
  error: number;
}

/**
 * P(lower_i < Z_i < upper_i for every i), Z ~ N(0, R), R a correlation matrix (unit diagonal, symmetric, positive
 * semi-definite; not checked beyond that). Exact for one and two dimensions after merging and splitting, a
 * deterministic quasi-Monte Carlo estimate from three (at most 20 in one correlated group). RangeError for mismatched sizes.
 */
export function mvnProbability(
  lower: readonly number[],
  upper: readonly number[],
  correlation: readonly (readonly number[])[],
): number {
  return mvnEstimate(lower, upper, correlation).probability;
}

/** `mvnProbability` with the standard error of the quasi-Monte Carlo part (0 when everything was exact). */
export function mvnEstimate(
  lower: readonly number[],
  upper: readonly number[],
  correlation: readonly (readonly number[])[],
  qmc: { shifts: number; points: number } = MVN_QMC,
): MvnEstimate {
  const n = lower.length;
  if (upper.length !== n || correlation.length !== n || correlation.some((row) => row.length !== n)) {
    throw new RangeError('The bounds and the correlation matrix must have the same size');
  }
  if (!(qmc.shifts >= 2 && qmc.shifts <= MAX_SHIFTS && qmc.points >= 1)) {
    throw new RangeError(`Between 2 and ${MAX_SHIFTS} shifts and at least one point`);
  }
  const lo = Array.from(lower);
  const hi = Array.from(upper);
  // Merge variables correlated at ±1: one variable carries both intervals.
  const alive: number[] = [];
  for (let i = 0; i < n; i += 1) {
    if (Number.isNaN(lo[i]!) || Number.isNaN(hi[i]!)) throw new RangeError('A bound is NaN');
    let merged = false;
    for (const j of alive) {
      const r = correlation[i]![j]!;
      if (r >= 1 - MERGE_TOLERANCE) {
        lo[j] = Math.max(lo[j]!, lo[i]!);
        hi[j] = Math.min(hi[j]!, hi[i]!);
        merged = true;
      } else if (r <= -1 + MERGE_TOLERANCE) {
        lo[j] = Math.max(lo[j]!, -hi[i]!);
        hi[j] = Math.min(hi[j]!, -lo[i]!);
        merged = true;
      }
      if (merged) break;
    }
    if (!merged) alive.push(i);
  }
  // Unbounded variables impose nothing; an empty interval makes the probability 0.
  const kept: number[] = [];
  for (const i of alive) {
    if (!(lo[i]! < hi[i]!)) return { probability: 0, error: 0 };
    if (lo[i] !== Number.NEGATIVE_INFINITY || hi[i] !== Number.POSITIVE_INFINITY) kept.push(i);
  }
  // Independent groups (connected components of non-zero correlations) multiply.
  let probability = 1;
  let variance = 0;
  const seen = new Set<number>();
  for (const start of kept) {
    if (seen.has(start)) continue;
    const group = [start];
    seen.add(start);
    for (let g = 0; g < group.length; g += 1) {
      for (const j of kept) {
        if (!seen.has(j) && Math.abs(correlation[group[g]!]![j]!) > ZERO_CORRELATION) {
          seen.add(j);
          group.push(j);
        }
      }
    }
    group.sort((a, b) => a - b);
    const part = groupProbability(group, lo, hi, correlation, qmc);
    // Var(XY) ≈ Y²Var(X) + X²Var(Y) for the product of independent estimates.
    variance = part.probability ** 2 * variance + probability ** 2 * part.error ** 2;
    probability *= part.probability;
    if (probability === 0) return { probability: 0, error: 0 };
  }
  return { probability, error: Math.sqrt(variance) };
}

function groupProbability(
  group: readonly number[],
  lo: readonly number[],
  hi: readonly number[],
  correlation: readonly (readonly number[])[],
  qmc: { shifts: number; points: number },
): MvnEstimate {
  const [a, b] = group as [number, number];
  if (group.length === 1) return { probability: intervalProbability(lo[a]!, hi[a]!), error: 0 };
  if (group.length === 2) {
    return { probability: bivariateBox(lo[a]!, hi[a]!, lo[b]!, hi[b]!, correlation[a]![b]!), error: 0 };
  }
  if (group.length > MAX_DIMENSION) throw new RangeError(`At most ${MAX_DIMENSION} correlated variables`);
  return genz(
    group.map((i) => lo[i]!),
    group.map((i) => hi[i]!),
    group.map((i) => group.map((j) => (i === j ? 1 : correlation[i]![j]!))),
    qmc,
  );
}

const phi = (x: number) => (Number.isFinite(x) ? Math.exp((-x * x) / 2) / SQRT_2PI : 0);

/**
 * Cubic Hermite pieces of a function on cells [first, end) of width h: for cell i, from its value and slope at both
 * ends (`at(x) = [value, slope]`, x the cell's start `origin + i·h`), the coefficients c0…c3 of c0 + f(c1 + f(c2 + f·c3))
 * with f in [0, 1) the position in the cell.
 */
function hermitePieces(
  first: number,
  end: number,
  h: number,
  origin: number,
  at: (x: number) => readonly [number, number],
): Float64Array {
  const pieces = new Float64Array(4 * end);
  for (let i = first; i < end; i += 1) {
    const [v0, s0] = at(origin + i * h);
    const [v1, s1] = at(origin + (i + 1) * h);
    const m0 = s0 * h;
    const m1 = s1 * h;
    pieces[4 * i] = v0;
    pieces[4 * i + 1] = m0;
    pieces[4 * i + 2] = 3 * (v1 - v0) - 2 * m0 - m1;
    pieces[4 * i + 3] = 2 * (v0 - v1) + m0 + m1;
  }
  return pieces;
}

/** Φ on a grid of step 1/64 over [−9, 9] as cubic Hermite pieces (value and density at both ends). */
const CDF_STEP = 64;
const CDF_LIMIT = 9;
const CDF_PIECES = hermitePieces(0, 2 * CDF_LIMIT * CDF_STEP, 1 / CDF_STEP, -CDF_LIMIT, (x) => [
  normalCdf(x),
  phi(x),
]);

/**
 * Φ(x) by the interpolation table: absolute error below 1e-10 (measured in the tests), a quarter of `normalCdf`'s
 * time. The integrand's conditional probabilities use it; every exact path uses `normalCdf`.
 */
export function fastNormalCdf(x: number): number {
  if (!(x > -CDF_LIMIT)) return x !== x ? x : 0;
  if (x >= CDF_LIMIT) return 1;
  const t = (x + CDF_LIMIT) * CDF_STEP;
  const i = t | 0;
  const f = t - i;
  const k = 4 * i;
  return CDF_PIECES[k]! + f * (CDF_PIECES[k + 1]! + f * (CDF_PIECES[k + 2]! + f * CDF_PIECES[k + 3]!));
}

/** Φ⁻¹ on a grid of step 1/2048 over the cells inside [0.02425, 0.97575] as cubic Hermite pieces. */
const QUANTILE_STEP = 2048;
const QUANTILE_FIRST = Math.ceil(P_LOW * QUANTILE_STEP);
const QUANTILE_END = Math.floor((1 - P_LOW) * QUANTILE_STEP);
const QUANTILE_PIECES = hermitePieces(QUANTILE_FIRST, QUANTILE_END, 1 / QUANTILE_STEP, 0, (u) => {
  const x = normalQuantile(u);
  return [x, 1 / phi(x)];
});

/**
 * Φ⁻¹(u) for the integrand: the interpolation table inside [0.02425, 0.97575] (absolute error below 1e-9, measured
 * in the tests), Acklam's tails outside, u clamped to [1e-300, 1 − 1e-16].
 */
export function fastNormalQuantile(u: number): number {
  const t = u * QUANTILE_STEP;
  const i = t | 0;
  if (i >= QUANTILE_FIRST && i < QUANTILE_END) {
    const f = t - i;
    const k = 4 * i;
    return (
      QUANTILE_PIECES[k]! +
      f * (QUANTILE_PIECES[k + 1]! + f * (QUANTILE_PIECES[k + 2]! + f * QUANTILE_PIECES[k + 3]!))
    );
  }
  return acklam(u < 1e-300 ? 1e-300 : u > 1 - 1e-16 ? 1 - 1e-16 : u);
}

/**
 * Genz's separation of variables: a Cholesky factor with the variables reordered (at each step, the one with the
 * smallest conditional interval probability given the expected values of the earlier ones, Gibson–Glasbey–Elston),
 * then the (d − 1)-dimensional integral over the unit cube by the shifted lattice rule.
 */
function genz(
  lower: number[],
  upper: number[],
  sigma: number[][],
  qmc: { shifts: number; points: number },
): MvnEstimate {
  const d = lower.length;
  const chol = Array.from({ length: d }, () => new Float64Array(d));
  const y = new Float64Array(d);
  const degenerate = new Uint8Array(d);
  for (let i = 0; i < d; i += 1) {
    // Choose the pivot.
    let best = -1;
    let bestScore = Number.POSITIVE_INFINITY;
    let bestMean = 0;
    for (let j = i; j < d; j += 1) {
      let s = 0;
      let v = sigma[j]![j]!;
      for (let k = 0; k < i; k += 1) {
        s += chol[j]![k]! * y[k]!;
        v -= chol[j]![k]! ** 2;
      }
      let score: number;
      let mean = 0;
      if (v > SINGULAR_VARIANCE) {
        const sd = Math.sqrt(v);
        const al = (lower[j]! - s) / sd;
        const bl = (upper[j]! - s) / sd;
        score = intervalProbability(al, bl);
        mean = score > 1e-300 ? (phi(al) - phi(bl)) / score : Number.isFinite(al) ? al : bl;
      } else score = 2; // deterministic given the earlier variables: last
      if (best < 0 || score < bestScore) {
        best = j;
        bestScore = score;
        bestMean = mean;
      }
    }
    if (best !== i) {
      [lower[i], lower[best]] = [lower[best]!, lower[i]!];
      [upper[i], upper[best]] = [upper[best]!, upper[i]!];
      [sigma[i], sigma[best]] = [sigma[best]!, sigma[i]!];
      for (const row of sigma) [row[i], row[best]] = [row[best]!, row[i]!];
      [chol[i], chol[best]] = [chol[best]!, chol[i]!];
    }
    // Column i of the Cholesky factor.
    let v = sigma[i]![i]!;
    for (let k = 0; k < i; k += 1) v -= chol[i]![k]! ** 2;
    if (v > SINGULAR_VARIANCE) {
      const cii = Math.sqrt(v);
      chol[i]![i] = cii;
      for (let j = i + 1; j < d; j += 1) {
        let s = sigma[j]![i]!;
        for (let k = 0; k < i; k += 1) s -= chol[j]![k]! * chol[i]![k]!;
        chol[j]![i] = s / cii;
      }
      y[i] = bestMean;
    } else {
      degenerate[i] = 1;
      for (let j = i; j < d; j += 1) chol[j]![i] = 0;
      y[i] = 0;
    }
  }
  // Scale each row by its diagonal, so that the conditional bounds are (bound − Σ c·y) directly in sd units; a
  // deterministic row keeps its raw coefficients.
  const lo = new Float64Array(d);
  const hi = new Float64Array(d);
  const coef = new Float64Array(d * d);
  for (let i = 0; i < d; i += 1) {
    const scale = degenerate[i] ? 1 : 1 / chol[i]![i]!;
    lo[i] = lower[i]! * scale;
    hi[i] = upper[i]! * scale;
    for (let k = 0; k < i; k += 1) coef[i * d + k] = chol[i]![k]! * scale;
  }
  // A deterministic row, lo < Σ c·y < hi, is folded into the last sampled variable it depends on, as bounds on that
  // variable: the integrand stays a product of interval probabilities instead of taking an indicator's jumps.
  const attached: number[][] = Array.from({ length: d }, () => []);
  let lastSampled = 0;
  for (let i = 0; i < d; i += 1) {
    if (!degenerate[i]) {
      lastSampled = i;
      continue;
    }
    let j = -1;
    for (let k = i - 1; k >= 0; k -= 1) {
      if (!degenerate[k] && Math.abs(coef[i * d + k]!) > 1e-12) {
        j = k;
        break;
      }
    }
    if (j >= 0) attached[j]!.push(i);
    else if (!(lo[i]! < 0 && 0 < hi[i]!)) return { probability: 0, error: 0 };
  }
  /** The bounds of row i's standard normal given the earlier samples, its attached rows included. */
  const bounds = (i: number, ys: Float64Array, out: Float64Array) => {
    let s = 0;
    for (let k = 0; k < i; k += 1) s += coef[i * d + k]! * ys[k]!;
    let a = lo[i]! - s;
    let b = hi[i]! - s;
    for (const r of attached[i]!) {
      let rest = 0;
      for (let k = 0; k < i; k += 1) rest += coef[r * d + k]! * ys[k]!;
      const c = coef[r * d + i]!;
      const l = (lo[r]! - rest) / c;
      const h = (hi[r]! - rest) / c;
      a = Math.max(a, c > 0 ? l : h);
      b = Math.min(b, c > 0 ? h : l);
    }
    out[0] = a;
    out[1] = b;
  };
  const attachedCount = Uint8Array.from(attached, (rows) => rows.length);
  const ys = new Float64Array(d);
  const ab = new Float64Array(2);
  bounds(0, ys, ab);
  if (!(ab[0]! < ab[1]!)) return { probability: 0, error: 0 };
  const e0 = intervalProbability(ab[0]!, ab[1]!);
  const d0 = normalCdf(ab[0]!);
  const dims = d - 1;
  const x = new Float64Array(dims);

  const generator = korobovGenerator(qmc.points, dims);
  let sum = 0;
  let sumSquares = 0;
  for (let shift = 0; shift < qmc.shifts; shift += 1) {
    for (let j = 0; j < dims; j += 1) x[j] = SHIFT_TABLE[shift * MAX_DIMENSION + j]!;
    let total = 0;
    for (let point = 0; point < qmc.points; point += 1) {
      // The lattice point, then the integrand at its baker's transform w and at the antithetic 1 − w.
      for (let j = 0; j < dims; j += 1) {
        const next = x[j]! + generator[j]!;
        x[j] = next >= 1 ? next - 1 : next;
      }
      for (let side = 0; side < 2; side += 1) {
        let w = 2 * x[0]! - 1;
        w = w < 0 ? -w : w;
        if (side === 1) w = 1 - w;
        let f = e0;
        ys[0] = fastNormalQuantile(d0 + w * e0);
        for (let i = 1; i <= lastSampled; i += 1) {
          if (degenerate[i]) continue;
          let a: number;
          let b: number;
          if (attachedCount[i]) {
            bounds(i, ys, ab);
            a = ab[0]!;
            b = ab[1]!;
          } else {
            let s = 0;
            const row = i * d;
            for (let k = 0; k < i; k += 1) s += coef[row + k]! * ys[k]!;
            a = lo[i]! - s;
            b = hi[i]! - s;
          }
          if (!(a < b)) {
            f = 0;
            break;
          }
          const di = fastNormalCdf(a);
          const width = fastNormalCdf(b) - di;
          if (width <= 0) {
            f = 0;
            break;
          }
          f *= width;
          if (i < lastSampled) {
            w = 2 * x[i]! - 1;
            w = w < 0 ? -w : w;
            if (side === 1) w = 1 - w;
            ys[i] = fastNormalQuantile(di + w * width);
          }
        }
        total += f;
      }
    }
    const estimate = total / (2 * qmc.points);
    sum += estimate;
    sumSquares += estimate * estimate;
  }
  const mean = sum / qmc.shifts;
  const spread = Math.max(0, sumSquares / qmc.shifts - mean * mean);
  return { probability: Math.min(mean, e0), error: Math.sqrt(spread / (qmc.shifts - 1)) };
}
