import type { FastifyInstance } from 'fastify';
import {
  CALIBRATION_CACHE_MS,
  calibrationGroups,
  type CalibrationForecast,
  type CalibrationReport,
} from '#domain/calibration.ts';
import { devig } from '#domain/history.ts';
import { isLeagueKey } from '#domain/markets.ts';
import { isValidDecimal } from '#domain/odds.ts';
import { fairChoice, marketFair, seriesSpec } from '../history-api/history-reads.ts';
import { specOutcomes } from '#domain/market-labels.ts';
import type { HistorySeries } from '../history/service.ts';

// GET /tools/calibration.json: the public calibration report (issue 57, decision 266, docs/calibration.md), computed
// from the graded results in the odds history: the finished games of the last CALIBRATION_WINDOW_DAYS (at most
// CALIBRATION_MAX_EVENTS, the latest), each game line's closing fair probability (the server's reference and de-vig
// method, as CLV uses) and each book's own de-vigged close, against the result. One answer is computed at a time and
// kept CALIBRATION_CACHE_MS, so the public route costs the database one read of it every few minutes.

export const CALIBRATION_WINDOW_DAYS = 30;
export const CALIBRATION_MAX_EVENTS = 2_000;
export { CALIBRATION_CACHE_MS };
/** Events whose series are read in one statement. */
const EVENTS_PER_READ = 200;

export interface CalibrationFeedOptions {
  now?: (() => number) | undefined;
}

export async function calibrationFeedRoutes(app: FastifyInstance, options: CalibrationFeedOptions) {
  let kept: { report: CalibrationReport; until: number } | null = null;
  let pending: Promise<CalibrationReport> | null = null;
  const clock = options.now ?? Date.now;

  app.get('/tools/calibration.json', async (_request, reply) => {
    const now = clock();
    if (!kept || kept.until <= now) {
      pending ??= calibrationReport(app, now).finally(() => {
        pending = null;
      });
      const report = await pending;
      kept = { report, until: now + CALIBRATION_CACHE_MS };
    }
    void reply.header('cache-control', `public, max-age=${CALIBRATION_CACHE_MS / 1000}`);
    return kept.report;
  });
}

/** The report at `now` from the history. */
export async function calibrationReport(app: FastifyInstance, now: number): Promise<CalibrationReport> {
  const choice = fairChoice(app.config.CLV_REFERENCE_BOOK, {});
  const events = await app.history.completedSince(
    now - CALIBRATION_WINDOW_DAYS * 86_400_000,
    CALIBRATION_MAX_EVENTS,
  );
  const forecasts: (CalibrationForecast & { market: string })[] = [];
  for (let i = 0; i < events.length; i += EVENTS_PER_READ) {
    const chunk = events.slice(i, i + EVENTS_PER_READ);
    const leagues = new Map(chunk.map((event) => [event.id, event.league]));
    const series = await app.history.series(
      chunk.map((event) => event.id),
      { gameLines: true },
    );
    const markets = new Map<string, HistorySeries[]>();
    for (const row of series) {
      const key = `${row.eventId}\n${row.marketKey}`;
      let list = markets.get(key);
      if (!list) markets.set(key, (list = []));
      list.push(row);
    }
    for (const [key, rows] of markets) {
      const league = leagues.get(rows[0]!.eventId);
      if (!league || !isLeagueKey(league)) continue;
      forecasts.push(...marketForecasts(key, league, rows, choice));
    }
  }
  const source = app.engine.source;
  return {
    source,
    demo: source === 'simulator',
    as_of: Math.floor(now / 1000),
    window_days: CALIBRATION_WINDOW_DAYS,
    events: events.length,
    fair: { reference: String(choice.reference), method: choice.method },
    groups: calibrationGroups(forecasts),
  };
}

/** One market's forecasts: per outcome with a result, our fair close and each complete book's own de-vigged close. */
function marketForecasts(
  market: string,
  league: CalibrationForecast['league'],
  rows: readonly HistorySeries[],
  choice: ReturnType<typeof fairChoice>,
): (CalibrationForecast & { market: string })[] {
  const spec = seriesSpec(rows[0]!);
  if (!spec || spec.type === 'prop') return [];
  const fair = marketFair(rows, (row) => row.closing, choice);
  if (!fair) return [];
  const outcomes = specOutcomes(spec) as readonly string[];
  // Each book's closing decimals per outcome; its own de-vigged probabilities when it priced every outcome.
  const byBook = new Map<string, (number | undefined)[]>();
  for (const row of rows) {
    const index = outcomes.indexOf(row.outcome);
    if (index < 0) continue;
    let decimals = byBook.get(row.book);
    if (!decimals) byBook.set(row.book, (decimals = outcomes.map(() => undefined)));
    decimals[index] = row.closing?.decimal;
  }
  const own = new Map<string, number[]>();
  for (const [book, decimals] of byBook) {
    if (decimals.every((d) => d !== undefined && isValidDecimal(d)))
      own.set(book, devig(decimals as number[], choice.method));
  }
  // The result is the same for every book's series of an outcome: the first graded one says it.
  const results = new Map<string, HistorySeries['result']>();
  for (const row of rows)
    if (row.result !== null && !results.has(row.outcome)) results.set(row.outcome, row.result);
  return outcomes.flatMap((outcome, index) => {
    const result = results.get(outcome);
    const p = fair.exact.get(outcome);
    if (!result || p === undefined) return [];
    const books = new Map([...own].map(([book, probabilities]) => [book, probabilities[index]!]));
    return [{ market, league, marketType: spec.type, result, fair: p, books }];
  });
}
