import type { FastifyInstance } from 'fastify';
import { LEAGUES } from '#domain/markets.ts';
import type { ResultsFeed, ResultsFeedGame } from '#domain/schemas/results-feed.ts';
import { RECENT_FINAL_MS, type GameScore } from '#engine/scores.ts';
import { feedCors } from '../feed/arbs-feed.ts';
import { snapshotEntry } from '../feed/plugin.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { HttpProblem } from '../http/problem.ts';
import { sendEntry } from '../http/send-entry.ts';
import type { StaticEntry } from '../http/static-files.ts';

// GET /tools/results.json (issue 57, decision 256): the bet tracker page's results without a key. Every game the
// engine's scoreboard holds as final (the last three days), with its score period by period, as bets settle on it,
// and its box score (each player's figures of the stats he had props on; decision 282) where the source gives one.
// Public, read-only and cheap: one answer is made at most every RESULTS_CACHE_MS and served as bytes with gzip, brotli
// and an ETag like the finder feeds, and a client may ask at most RESULTS_PER_MINUTE times a minute. GET /v1/scores
// has the same finals on every plan (decision 210: no plan gets less than the free page).

/** How long one answer is served before the scoreboard is read again. */
export const RESULTS_CACHE_MS = 15_000;
/** Requests a minute per client address (the page asks once a minute while a tracked bet is open). */
export const RESULTS_PER_MINUTE = 30;

const iso = (ms: number) => new Date(ms).toISOString();

/** A final on the scoreboard as the feed carries it (`full` added: the score the game's bets settle on). */
export function resultsFeedGame(score: GameScore): ResultsFeedGame {
  return {
    event_id: score.eventId,
    sport: LEAGUES[score.league].sport,
    league: score.league,
    home_team: score.home.name,
    away_team: score.away.name,
    commence_time: iso(score.startsAt),
    completed_at: iso(score.completedAt ?? score.updatedAt),
    periods: { ...score.periods, full: score.score },
    periods_reported: score.periodScores,
    // The box score as grading a prop needs it: id, name, and the figures of those who played (null: did not play).
    players:
      score.players === null
        ? null
        : score.players.map((player) => ({
            id: player.id,
            name: player.name,
            periods: player.played ? player.periods : null,
          })),
  };
}

export async function resultsFeedRoutes(
  app: FastifyInstance,
  options: { now?: (() => number) | undefined; origins: readonly string[] },
) {
  const cors = feedCors(options.origins);
  let held: { until: number; entry: StaticEntry } | undefined;

  app.get('/tools/results.json', async (request, reply) => {
    const headers: Record<string, string> = {
      'cache-control': `public, max-age=${RESULTS_CACHE_MS / 1000}`,
      ...cors.headers(request.headers.origin),
    };
    const limit = await app.rateLimiter.hit(
      `results:ip:${clientAddressKey(request.ip)}`,
      RESULTS_PER_MINUTE,
      60_000,
    );
    if (!limit.allowed) {
      throw new HttpProblem(
        429,
        'rate-limited',
        'Too many requests',
        'Try again in a minute.',
        {},
        { 'retry-after': String(Math.max(1, Math.ceil(limit.retryAfterMs / 1000))) },
      );
    }
    const now = (options.now ?? Date.now)();
    if (!held || now >= held.until) {
      const games = app.engine.scores
        .list()
        .filter((score) => score.status === 'final')
        .sort((a, b) => (b.completedAt ?? 0) - (a.completedAt ?? 0))
        .map(resultsFeedGame);
      const body: ResultsFeed = {
        source: app.engine.source,
        generated_at: Math.floor(now / 1000),
        window_hours: RECENT_FINAL_MS / 3_600_000,
        games,
      };
      held = { until: now + RESULTS_CACHE_MS, entry: snapshotEntry(Buffer.from(JSON.stringify(body))) };
    }
    const entry = held.entry;
    if (entry.ready) await entry.ready.catch(() => undefined);
    return sendEntry(request, reply, entry, headers);
  });
}
