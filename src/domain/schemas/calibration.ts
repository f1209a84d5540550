import { z } from 'zod/mini';

// The public calibration report (issue 57, decision 266): GET /tools/calibration.json. Shared by the server route that
// computes it (src/server/calibration/calibration-feed.ts, from src/domain/calibration.ts) and the page that shows it
// (/betting-tools/calibration). Written with zod/mini like the other public feeds, so the page loads only the checks
// it uses.

const probability = z.number().check(z.gte(0), z.lte(1));
const count = z.int().check(z.nonnegative());
const score = z.number().check(z.nonnegative());

export const CalibrationBinSchema = z.object({
  from: probability,
  to: probability,
  forecasts: count,
  /** The mean fair probability of the bin's forecasts (0 when it has none). */
  mean_fair: probability,
  /** The share of them that won (0 when it has none). */
  observed: probability,
});

export const CalibrationBookSchema = z.object({
  book: z.string().check(z.minLength(1), z.maxLength(64)),
  forecasts: count,
  /** The book's own de-vigged closing probabilities. */
  brier: score,
  log_loss: score,
  /** Our fair closing probabilities on the same forecasts. */
  fair_brier: score,
  fair_log_loss: score,
});

export const CalibrationGroupSchema = z.object({
  league: z.string().check(z.minLength(1), z.maxLength(32)),
  league_name: z.string().check(z.minLength(1), z.maxLength(64)),
  market_type: z.string().check(z.minLength(1), z.maxLength(32)),
  markets: count,
  forecasts: count,
  brier: score,
  log_loss: score,
  bins: z.array(CalibrationBinSchema).check(z.maxLength(20)),
  books: z.array(CalibrationBookSchema).check(z.maxLength(100)),
});

export const CalibrationReportSchema = z.object({
  /** The odds source the results come from. */
  source: z.string().check(z.minLength(1), z.maxLength(64)),
  /** True when the source is the built-in simulator: demo data. */
  demo: z.boolean(),
  /** Unix seconds. */
  as_of: count,
  window_days: count,
  /** Finished games counted. */
  events: count,
  /** How our fair probabilities are taken: the server's reference and de-vig method. */
  fair: z.object({ reference: z.string(), method: z.string() }),
  groups: z.array(CalibrationGroupSchema).check(z.maxLength(200)),
});

export type CalibrationBin = z.infer<typeof CalibrationBinSchema>;
export type CalibrationBook = z.infer<typeof CalibrationBookSchema>;
export type CalibrationGroup = z.infer<typeof CalibrationGroupSchema>;
export type CalibrationReport = z.infer<typeof CalibrationReportSchema>;
