import type { GradeResult } from './grading.ts';
import { LEAGUES, type LeagueKey } from './markets.ts';
import type { CalibrationGroup } from './schemas/calibration.ts';

export type { CalibrationReport } from './schemas/calibration.ts';

// The calibration report (issue 57, decision 266, docs/calibration.md): how well closing fair probabilities forecast
// graded results. Each outcome of a finished market with a won or lost result is one forecast: our fair probability at
// the close (the server's reference and de-vig method) and, for each book that priced every outcome at the close, the
// book's own de-vigged probability. Per league and market type: a reliability table (forecasts binned by our fair
// probability: the mean forecast against the share that won), and the Brier score and log loss of ours and of each
// book's on the forecasts that book priced. Pushes, voids and half results are left out (they are not a yes or no).

/** Reliability bins: [0, 0.1), [0.1, 0.2), … [0.9, 1]. */
export const CALIBRATION_BINS = 10;
/** How long GET /tools/calibration.json keeps a report before working it out again (the page says so). */
export const CALIBRATION_CACHE_MS = 5 * 60_000;
/** Log loss takes probabilities within [ε, 1 − ε]. */
const EPSILON = 1e-6;

/** One outcome of one finished market at the close. */
export interface CalibrationForecast {
  league: LeagueKey;
  marketType: string;
  result: GradeResult;
  /** Our fair probability at the close. */
  fair: number;
  /** Each book's own de-vigged closing probability of the outcome (books that priced every outcome). */
  books: ReadonlyMap<string, number>;
}

/** 1 for a win, 0 for a loss; null for a result that is not a yes or no. */
export function outcomeValue(result: GradeResult): 0 | 1 | null {
  if (result === 'won') return 1;
  if (result === 'lost') return 0;
  return null;
}

const clamp = (p: number) => Math.min(1 - EPSILON, Math.max(EPSILON, p));
export const brierTerm = (p: number, y: number) => (p - y) ** 2;
export const logLossTerm = (p: number, y: number) =>
  -(y * Math.log(clamp(p)) + (1 - y) * Math.log(1 - clamp(p)));

/** The bin of a probability (1 falls in the last). */
export function binOf(p: number): number {
  return Math.min(CALIBRATION_BINS - 1, Math.max(0, Math.floor(p * CALIBRATION_BINS)));
}

/** Rounded to 4 places for the report. */
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * The groups of the report from forecasts, each with `markets` counted by the caller's market ids: per league and
 * market type, ordered by league then type. Forecasts whose result is not won or lost are left out.
 */
export function calibrationGroups(
  forecasts: readonly (CalibrationForecast & { market: string })[],
): CalibrationGroup[] {
  interface Acc {
    league: LeagueKey;
    type: string;
    markets: Set<string>;
    n: number;
    brier: number;
    log: number;
    bins: { n: number; p: number; y: number }[];
    books: Map<string, { n: number; brier: number; log: number; fairBrier: number; fairLog: number }>;
  }
  const groups = new Map<string, Acc>();
  for (const f of forecasts) {
    const y = outcomeValue(f.result);
    if (y === null || !(f.fair >= 0 && f.fair <= 1)) continue;
    const key = `${f.league}|${f.marketType}`;
    let acc = groups.get(key);
    if (!acc) {
      acc = {
        league: f.league,
        type: f.marketType,
        markets: new Set(),
        n: 0,
        brier: 0,
        log: 0,
        bins: Array.from({ length: CALIBRATION_BINS }, () => ({ n: 0, p: 0, y: 0 })),
        books: new Map(),
      };
      groups.set(key, acc);
    }
    acc.markets.add(f.market);
    acc.n += 1;
    acc.brier += brierTerm(f.fair, y);
    acc.log += logLossTerm(f.fair, y);
    const bin = acc.bins[binOf(f.fair)]!;
    bin.n += 1;
    bin.p += f.fair;
    bin.y += y;
    for (const [book, p] of f.books) {
      let b = acc.books.get(book);
      if (!b) acc.books.set(book, (b = { n: 0, brier: 0, log: 0, fairBrier: 0, fairLog: 0 }));
      b.n += 1;
      b.brier += brierTerm(p, y);
      b.log += logLossTerm(p, y);
      b.fairBrier += brierTerm(f.fair, y);
      b.fairLog += logLossTerm(f.fair, y);
    }
  }
  const leagues = Object.keys(LEAGUES);
  return [...groups.values()]
    .sort((a, b) => leagues.indexOf(a.league) - leagues.indexOf(b.league) || a.type.localeCompare(b.type))
    .map((acc) => ({
      league: acc.league,
      league_name: LEAGUES[acc.league].name,
      market_type: acc.type,
      markets: acc.markets.size,
      forecasts: acc.n,
      brier: r4(acc.brier / acc.n),
      log_loss: r4(acc.log / acc.n),
      bins: acc.bins.map((bin, i) => ({
        from: i / CALIBRATION_BINS,
        to: (i + 1) / CALIBRATION_BINS,
        forecasts: bin.n,
        mean_fair: bin.n > 0 ? r4(bin.p / bin.n) : 0,
        observed: bin.n > 0 ? r4(bin.y / bin.n) : 0,
      })),
      books: [...acc.books]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([book, b]) => ({
          book,
          forecasts: b.n,
          brier: r4(b.brier / b.n),
          log_loss: r4(b.log / b.n),
          fair_brier: r4(b.fairBrier / b.n),
          fair_log_loss: r4(b.fairLog / b.n),
        })),
    }));
}
