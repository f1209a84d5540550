import type { FastifyInstance } from 'fastify';
import { isLeagueKey, LEAGUES } from '#domain/markets.ts';
import type { ResultsFeed, ResultsFeedGame } from '#domain/schemas/results-feed.ts';
import { MAX_FINALS, RECENT_FINAL_MS, type GameScore } from '#engine/scores.ts';
import { feedCors } from '../feed/arbs-feed.ts';
import { snapshotEntry } from '../feed/plugin.ts';
import { historyGameScore } from '../history/service.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { HttpProblem } from '../http/problem.ts';
import { sendEntry } from '../http/send-entry.ts';
import type { StaticEntry } from '../http/static-files.ts';

// GET /tools/results.json (issue 57, decisions 256, 282 and 283): the bet tracker page's results without a key. Every
// game finished in the last three days, with its score period by period, as bets settle on it, and its box score
// (each priced player's figures, or that he did not play; decision 282) where the source gives one: the finals the
// odds history keeps (so an `api` instance, or a server started after a game ended, has them too) merged with the
// engine's scoreboard (a final the history has not written yet). Public, read-only and cheap: one answer is made at
// most every RESULTS_CACHE_MS (one history read at a time) and served as bytes with gzip, brotli and an ETag like the
// finder feeds, and a client may ask at most RESULTS_PER_MINUTE times a minute. GET /v1/scores lists the same finals on
// every plan (decision 210: no plan gets less than the free page).

/** How long one answer is served before the scoreboard is read again. */
export const RESULTS_CACHE_MS = 15_000;
/** Requests a minute per client address (the page asks once a minute while a tracked bet is open). */
export const RESULTS_PER_MINUTE = 30;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The finals of the window, latest first: the history's, and the scoreboard's over them (the same final, or one the
 * history has not written yet). When the history cannot be read, the scoreboard's alone (logged).
 */
export async function recentFinals(app: FastifyInstance, now: number): Promise<ResultsFeedGame[]> {
  const games = new Map<string, { at: number; game: ResultsFeedGame }>();
  try {
    for (const final of await app.history.finalsSince(now - RECENT_FINAL_MS, MAX_FINALS)) {
      const league = final.league;
      if (!isLeagueKey(league)) continue;
      games.set(final.id, {
        at: final.completedAt,
        game: resultsFeedGame(historyGameScore({ ...final, league })),
      });
    }
  } catch (error) {
    app.log.warn({ err: error }, 'results feed: the history could not be read; the scoreboard only');
  }
  for (const score of app.engine.scores.list()) {
    if (score.status !== 'final') continue;
    games.set(score.eventId, { at: score.completedAt ?? score.updatedAt, game: resultsFeedGame(score) });
  }
  return [...games.values()]
    .sort((a, b) => b.at - a.at || (a.game.event_id < b.game.event_id ? -1 : 1))
    .map(({ game }) => game);
}

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
  /** The answer being made: one history read at a time, whoever asks meanwhile waits for it. */
  let making: Promise<{ until: number; entry: StaticEntry }> | null = null;

  const make = async (now: number) => {
    const body: ResultsFeed = {
      source: app.engine.source,
      generated_at: Math.floor(now / 1000),
      window_hours: RECENT_FINAL_MS / 3_600_000,
      games: await recentFinals(app, now),
    };
    return { until: now + RESULTS_CACHE_MS, entry: snapshotEntry(Buffer.from(JSON.stringify(body))) };
  };

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
      making ??= make(now).finally(() => {
        making = null;
      });
      held = await making;
    }
    const entry = held.entry;
    if (entry.ready) await entry.ready.catch(() => undefined);
    return sendEntry(request, reply, entry, headers);
  });
}
