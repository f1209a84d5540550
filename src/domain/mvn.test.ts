import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bivariateNormalCdf,
  fastNormalCdf,
  fastNormalQuantile,
  mvnEstimate,
  mvnProbability,
  normalCdf,
  normalQuantile,
} from './mvn.ts';
import { seededRandom } from './random.ts';

// The normal probabilities under the SGP model (decision 127): Φ and Φ⁻¹ against published values, the bivariate CDF
// against closed forms and a numerical integral written here, the box probability against closed forms and a seeded
// Monte Carlo.

/** Standard normals from a seeded uniform generator (Box–Muller). */
function normals(seed: number): () => number {
  const random = seededRandom(seed);
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };
}

/** P(X < h, Y < k) by Simpson's rule on ∫_{−12}^{h} φ(x) Φ((k − ρx)/√(1 − ρ²)) dx: slow, simple, independent. */
function bivariateByIntegral(h: number, k: number, rho: number): number {
  const steps = 20_000;
  const top = Math.min(h, 12);
  const width = (top + 12) / steps;
  let sum = 0;
  for (let i = 0; i <= steps; i += 1) {
    const x = -12 + i * width;
    const weight = i === 0 || i === steps ? 1 : i % 2 === 1 ? 4 : 2;
    sum +=
      weight *
      (Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI)) *
      normalCdf((k - rho * x) / Math.sqrt(1 - rho * rho));
  }
  return (sum * width) / 3;
}

describe('normalCdf and normalQuantile', () => {
  it('normalCdf matches published values of Φ and is symmetric', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1)).toBeCloseTo(0.8413447460685429, 15);
    expect(normalCdf(-1.96)).toBeCloseTo(0.024997895148220435, 15);
    expect(normalCdf(-3)).toBeCloseTo(0.0013498980316301035, 15);
    expect(normalCdf(-6) / 9.86587645037698e-10).toBeCloseTo(1, 8);
    expect(normalCdf(-40)).toBe(0);
    expect(normalCdf(40)).toBe(1);
    for (let x = -8; x <= 8; x += 0.37) expect(normalCdf(x) + normalCdf(-x)).toBeCloseTo(1, 15);
  });

  it('normalQuantile matches published quantiles and inverts normalCdf to 1e-15', () => {
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 13);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 12);
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).toBe(Number.POSITIVE_INFINITY);
    expect(normalQuantile(1.5)).toBeNaN();
    fc.assert(
      fc.property(fc.double({ min: 1e-12, max: 1 - 1e-12, noNaN: true }), (p) => {
        expect(Math.abs(normalCdf(normalQuantile(p)) - p)).toBeLessThanOrEqual(1e-15 + 1e-13 * p);
      }),
    );
  });

  it("the integrand's table lookups stay within 1e-10 (Φ) and 1e-8 (Φ⁻¹) of the exact functions", () => {
    let cdfError = 0;
    for (let x = -10; x <= 10; x += 0.0007)
      cdfError = Math.max(cdfError, Math.abs(fastNormalCdf(x) - normalCdf(x)));
    expect(cdfError).toBeLessThan(1e-10);
    let quantileError = 0;
    for (let u = 1e-7; u < 1; u += 7.3e-6) {
      quantileError = Math.max(quantileError, Math.abs(fastNormalQuantile(u) - normalQuantile(u)));
    }
    expect(quantileError).toBeLessThan(1e-8);
  });
});

describe('bivariateNormalCdf', () => {
  it('gives 1/4 + asin(ρ)/(2π) at the origin (1/3 for ρ = 0.5), on both sides of the |ρ| = 0.925 switch', () => {
    expect(bivariateNormalCdf(0, 0, 0.5)).toBeCloseTo(1 / 3, 15);
    for (const rho of [-0.999, -0.95, -0.7, -0.2, 0, 0.1, 0.4, 0.8, 0.93, 0.99, 0.9999]) {
      expect(bivariateNormalCdf(0, 0, rho)).toBeCloseTo(0.25 + Math.asin(rho) / (2 * Math.PI), 14);
    }
  });

  it('is Φ(h)Φ(k) at ρ = 0, Φ(min) at ρ = 1 and max(0, Φ(h) + Φ(k) − 1) at ρ = −1', () => {
    for (const [h, k] of [
      [-1.3, 0.4],
      [2, 2.5],
      [0.3, -2.2],
      [-0.5, 0.5],
    ] as const) {
      expect(bivariateNormalCdf(h, k, 0)).toBeCloseTo(normalCdf(h) * normalCdf(k), 15);
      expect(bivariateNormalCdf(h, k, 1)).toBeCloseTo(normalCdf(Math.min(h, k)), 15);
      expect(bivariateNormalCdf(h, k, -1)).toBeCloseTo(Math.max(0, normalCdf(h) + normalCdf(k) - 1), 15);
    }
  });

  it('agrees with a numerical integral to 1e-9 over a grid of limits and correlations', () => {
    for (const rho of [-0.98, -0.93, -0.6, -0.25, 0.15, 0.5, 0.85, 0.95, 0.995]) {
      for (const h of [-2.8, -0.7, 0, 1.1, 3]) {
        for (const k of [-2.2, -0.1, 0.6, 2.4]) {
          expect(Math.abs(bivariateNormalCdf(h, k, rho) - bivariateByIntegral(h, k, rho))).toBeLessThan(1e-9);
        }
      }
    }
  });

  it('takes infinite limits', () => {
    expect(bivariateNormalCdf(Number.POSITIVE_INFINITY, 0.7, 0.4)).toBeCloseTo(normalCdf(0.7), 15);
    expect(bivariateNormalCdf(-0.2, Number.POSITIVE_INFINITY, -0.4)).toBeCloseTo(normalCdf(-0.2), 15);
    expect(bivariateNormalCdf(Number.NEGATIVE_INFINITY, 0.7, 0.4)).toBe(0);
  });
});

/** A random correlation matrix with a factor structure: R = ΛΛᵀ + diag(1 − |λ_i|²), and its loadings. */
function factorCase(random: () => number, d: number) {
  const loadings = Array.from({ length: d }, () => {
    const raw = [random() * 1.4 - 0.5, random() * 1.2 - 0.6, random() - 0.5];
    const scale = Math.sqrt(0.1 + random() * 0.75) / Math.hypot(...raw);
    return raw.map((value) => value * scale);
  });
  const matrix = loadings.map((a, i) =>
    loadings.map((b, j) => (i === j ? 1 : a.reduce((sum, value, f) => sum + value * b[f]!, 0))),
  );
  const lower: number[] = [];
  const upper: number[] = [];
  for (let i = 0; i < d; i += 1) {
    const z = normalQuantile(0.2 + 0.65 * random());
    const kind = random();
    if (kind < 0.45) {
      lower.push(z);
      upper.push(Number.POSITIVE_INFINITY);
    } else if (kind < 0.9) {
      lower.push(Number.NEGATIVE_INFINITY);
      upper.push(z);
    } else {
      lower.push(z - 1.5);
      upper.push(z + 0.5);
    }
  }
  return { loadings, matrix, lower, upper };
}

/** The box probability by sampling Z = Λf + √(1 − |λ|²) ε directly: shares no code with mvn.ts. */
function monteCarloBox(
  loadings: readonly (readonly number[])[],
  lower: readonly number[],
  upper: readonly number[],
  samples: number,
  seed: number,
): number {
  const normal = normals(seed);
  let hits = 0;
  const factors = new Float64Array(3);
  for (let n = 0; n < samples; n += 1) {
    for (let f = 0; f < 3; f += 1) factors[f] = normal();
    let inside = true;
    for (let i = 0; i < loadings.length; i += 1) {
      const row = loadings[i]!;
      let z = 0;
      let common = 0;
      for (let f = 0; f < 3; f += 1) {
        z += row[f]! * factors[f]!;
        common += row[f]! ** 2;
      }
      z += Math.sqrt(1 - common) * normal();
      if (!(z > lower[i]! && z < upper[i]!)) inside = false;
    }
    if (inside) hits += 1;
  }
  return hits / samples;
}

describe('mvnProbability', () => {
  it('is Φ(hi) − Φ(lo) in one dimension', () => {
    expect(mvnProbability([-0.4], [1.2], [[1]])).toBeCloseTo(normalCdf(1.2) - normalCdf(-0.4), 15);
    expect(mvnProbability([Number.NEGATIVE_INFINITY], [0.3], [[1]])).toBe(normalCdf(0.3));
    expect(mvnProbability([2.5], [Number.POSITIVE_INFINITY], [[1]])).toBe(normalCdf(-2.5));
  });

  it('is the bivariate CDF by inclusion–exclusion in two dimensions', () => {
    const r = 0.6;
    const box = mvnProbability(
      [-0.5, -1],
      [1, 0.8],
      [
        [1, r],
        [r, 1],
      ],
    );
    const F = (h: number, k: number) => bivariateByIntegral(h, k, r);
    expect(box).toBeCloseTo(F(1, 0.8) - F(-0.5, 0.8) - F(1, -1) + F(-0.5, -1), 9);
  });

  it('multiplies independent variables exactly, also inside a larger matrix with independent blocks', () => {
    const lower = [-0.3, 0.2, Number.NEGATIVE_INFINITY, -1, 0.5];
    const upper = [Number.POSITIVE_INFINITY, 1.4, 0.7, 0.1, Number.POSITIVE_INFINITY];
    const identity = lower.map((_, i) => lower.map((__, j) => (i === j ? 1 : 0)));
    const product = lower.reduce((p, lo, i) => p * (normalCdf(upper[i]!) - normalCdf(lo)), 1);
    expect(mvnProbability(lower, upper, identity)).toBeCloseTo(product, 15);
    // Variables 0–1 correlated, 2–4 correlated, nothing across: the product of the two groups.
    const blocks = [
      [1, 0.5, 0, 0, 0],
      [0.5, 1, 0, 0, 0],
      [0, 0, 1, 0.3, -0.2],
      [0, 0, 0.3, 1, 0.4],
      [0, 0, -0.2, 0.4, 1],
    ];
    const first = mvnProbability(lower.slice(0, 2), upper.slice(0, 2), [
      [1, 0.5],
      [0.5, 1],
    ]);
    const second = mvnProbability(
      lower.slice(2),
      upper.slice(2),
      blocks.slice(2).map((row) => row.slice(2)),
    );
    expect(mvnProbability(lower, upper, blocks)).toBe(first * second);
  });

  it('matches the 3-D equicorrelated orthant 1/8 + 3·asin(ρ)/(4π) within 1e-4', () => {
    for (const rho of [-0.45, -0.2, 0.25, 0.5, 0.75, 0.95]) {
      const matrix = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? 1 : rho)));
      const exact = 1 / 8 + (3 * Math.asin(rho)) / (4 * Math.PI);
      const zero = [0, 0, 0];
      const infinite = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
      expect(Math.abs(mvnProbability(zero, infinite, matrix) - exact)).toBeLessThan(1e-4);
    }
  });

  it('agrees with a seeded Monte Carlo in 4 to 8 dimensions within 3.5 standard errors + 2e-4', () => {
    const random = seededRandom(127);
    const samples = 100_000;
    for (const d of [4, 5, 6, 7, 8]) {
      for (let repeat = 0; repeat < 2; repeat += 1) {
        const { loadings, matrix, lower, upper } = factorCase(random, d);
        const model = mvnProbability(lower, upper, matrix);
        const sampled = monteCarloBox(loadings, lower, upper, samples, 1000 * d + repeat);
        const standardError = Math.sqrt((model * (1 - model)) / samples);
        expect(Math.abs(model - sampled)).toBeLessThan(3.5 * standardError + 2e-4);
      }
    }
  });

  it('reports an error estimate that covers the distance to a 64 × 2,003-point rule', () => {
    const random = seededRandom(7);
    for (const d of [3, 4, 6]) {
      const { matrix, lower, upper } = factorCase(random, d);
      const quick = mvnEstimate(lower, upper, matrix);
      const reference = mvnEstimate(lower, upper, matrix, { shifts: 64, points: 2003 });
      expect(reference.error).toBeLessThan(1e-5);
      expect(Math.abs(quick.probability - reference.probability)).toBeLessThan(5 * quick.error + 3e-5);
    }
  });

  it('merges variables correlated at ±1: two identical variables give the tighter interval', () => {
    const same = [
      [1, 1],
      [1, 1],
    ];
    expect(mvnProbability([0.3, -0.1], [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY], same)).toBe(
      normalCdf(-0.3),
    );
    const opposite = [
      [1, -1],
      [-1, 1],
    ];
    // Z2 = −Z1: Z1 > −0.5 and −Z1 > −1 (Z1 < 1).
    expect(
      mvnProbability([-0.5, -1], [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY], opposite),
    ).toBeCloseTo(normalCdf(1) - normalCdf(-0.5), 15);
    // With a third variable: the pair counts once.
    const three = [
      [1, 1, 0.4],
      [1, 1, 0.4],
      [0.4, 0.4, 1],
    ];
    const pair = [
      [1, 0.4],
      [0.4, 1],
    ];
    expect(mvnProbability([0.2, 0.2, -0.3], [Infinity, Infinity, 1], three)).toBe(
      mvnProbability([0.2, -0.3], [Infinity, 1], pair),
    );
  });

  it('handles a singular matrix (a variable fixed by two others) to 2e-5 of a one-dimensional integral', () => {
    // X3 = (X1 + X2)/√2, as a full-game margin is of its halves: rank 2.
    const s = Math.SQRT1_2;
    const matrix = [
      [1, 0, s],
      [0, 1, s],
      [s, s, 1],
    ];
    for (const [a, b, c] of [
      [-0.2, 0.1, -0.3],
      [0.4, -0.6, 0.9],
      [-1, -1, 1.2],
    ] as const) {
      const model = mvnProbability([a, b, c], [Infinity, Infinity, Infinity], matrix);
      // P(X1 > a, X2 > max(b, c√2 − X1)) = ∫_a^∞ φ(x) Φ(−max(b, c√2 − x)) dx, by Simpson's rule.
      const steps = 20_000;
      const width = (12 - a) / steps;
      let sum = 0;
      for (let i = 0; i <= steps; i += 1) {
        const x = a + i * width;
        const weight = i === 0 || i === steps ? 1 : i % 2 === 1 ? 4 : 2;
        sum +=
          (weight * Math.exp((-x * x) / 2) * normalCdf(-Math.max(b, c / s - x))) / Math.sqrt(2 * Math.PI);
      }
      expect(Math.abs(model - (sum * width) / 3)).toBeLessThan(2e-5);
    }
  });

  it('is deterministic and never above the smallest single-variable probability', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 9 }), fc.integer({ min: 0, max: 2 ** 31 }), (d, seed) => {
        const { matrix, lower, upper } = factorCase(seededRandom(seed), d);
        const p = mvnProbability(lower, upper, matrix);
        expect(mvnProbability(lower, upper, matrix)).toBe(p);
        const smallest = Math.min(...lower.map((lo, i) => normalCdf(upper[i]!) - normalCdf(lo)));
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(smallest + 1e-15);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses mismatched sizes', () => {
    expect(() => mvnProbability([0, 0], [1], [[1]])).toThrow(RangeError);
  });
});
