import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLeagueKey, LEAGUES } from '#domain/markets.ts';
import {
  CLOSING_EVENTS_MAX,
  type ClosingFeed,
  type ResultsFeed,
  type ResultsFeedGame,
} from '#domain/schemas/results-feed.ts';
import { MAX_FINALS, RECENT_FINAL_MS, type GameScore } from '#engine/scores.ts';
import { feedCors } from '../feed/arbs-feed.ts';
import { snapshotEntry } from '../feed/plugin.ts';
import { historyGameScore } from '../history/service.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { HttpProblem } from '../http/problem.ts';
import { sendEntry } from '../http/send-entry.ts';
import { closeChoice, finalCloses, startedCloses } from '../history-api/closes.ts';
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

/** Answers of GET /tools/closing.json kept (each RESULTS_CACHE_MS). */
const CLOSING_ANSWERS_KEPT = 1_000;

interface Held {
  until: number;
  entry: StaticEntry;
  /** The event ids of the answer's finals. */
  finals: ReadonlySet<string>;
}

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
  let held: Held | undefined;
  /** The answer being made: one history read at a time, whoever asks meanwhile waits for it. */
  let making: Promise<Held> | null = null;

  const make = async (now: number): Promise<Held> => {
    const body: ResultsFeed = {
      source: app.engine.source,
      generated_at: Math.floor(now / 1000),
      window_hours: RECENT_FINAL_MS / 3_600_000,
      games: await recentFinals(app, now),
    };
    return {
      until: now + RESULTS_CACHE_MS,
      entry: snapshotEntry(Buffer.from(JSON.stringify(body))),
      finals: new Set(body.games.map((game) => game.event_id)),
    };
  };
  /** The feed's answer of now: the one held, or a new one (one at a time). */
  const current = async (now: number): Promise<Held> => {
    if (!held || now >= held.until) {
      making ??= make(now).finally(() => {
        making = null;
      });
      held = await making;
    }
    return held;
  };
  const limited = async (request: FastifyRequest, what: 'results' | 'closing') => {
    const limit = await app.rateLimiter.hit(
      `${what}:ip:${clientAddressKey(request.ip)}`,
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
  };

  app.get('/tools/results.json', async (request, reply) => {
    const headers: Record<string, string> = {
      'cache-control': `public, max-age=${RESULTS_CACHE_MS / 1000}`,
      ...cors.headers(request.headers.origin),
    };
    await limited(request, 'results');
    const entry = (await current((options.now ?? Date.now)())).entry;
    if (entry.ready) await entry.ready.catch(() => undefined);
    return sendEntry(request, reply, entry, headers);
  });

  // GET /tools/closing.json?events=a,b (decisions 289, 310): the fair close of the feed's finals and of games started
  // (in play, their closing lines taken), for the tracker's CLV. Each answer is held RESULTS_CACHE_MS.
  const answers = new Map<string, { until: number; entry: StaticEntry }>();
  app.get('/tools/closing.json', async (request, reply) => {
    const headers: Record<string, string> = {
      'cache-control': `public, max-age=${RESULTS_CACHE_MS / 1000}`,
      ...cors.headers(request.headers.origin),
    };
    const asked = (request.query as { events?: unknown }).events;
    const ids = typeof asked === 'string' ? [...new Set(asked.split(',').map((id) => id.trim()))].sort() : [];
    if (ids.length === 0 || ids.length > CLOSING_EVENTS_MAX || ids.some((id) => id === '' || id.length > 200))
      throw new HttpProblem(
        400,
        'invalid-request',
        'Invalid request',
        `events: 1 to ${CLOSING_EVENTS_MAX} event ids of the results feed, separated by commas.`,
      );
    await limited(request, 'closing');
    const now = (options.now ?? Date.now)();
    const key = ids.join(',');
    let answer = answers.get(key);
    if (!answer || now >= answer.until) {
      const { finals } = await current(now);
      // Finals (their close kept once read), and games started but not final (decision 310: their close read again
      // at most every STARTED_CLOSE_MS); a game not started, or unknown, is left out.
      const read = async () => {
        const [final, started] = await Promise.all([
          finalCloses(
            app,
            ids.filter((id) => finals.has(id)),
          ),
          startedCloses(
            app,
            ids.filter((id) => !finals.has(id)),
            now,
          ),
        ]);
        return new Map([...final, ...started]);
      };
      const closes = await read().catch((error: unknown) => {
        app.log.warn({ err: error }, 'closing feed: the history could not be read');
        throw new HttpProblem(
          503,
          'unavailable',
          'Closing lines unavailable',
          'The odds history could not be read; try again in a minute.',
        );
      });
      const choice = closeChoice(app);
      const body: ClosingFeed = {
        reference: choice.reference,
        method: choice.method,
        games: ids.flatMap((id) => {
          const markets = closes.get(id);
          return markets ? [{ event_id: id, markets }] : [];
        }),
      };
      answer = { until: now + RESULTS_CACHE_MS, entry: snapshotEntry(Buffer.from(JSON.stringify(body))) };
      answers.set(key, answer);
      for (const [other, held] of answers) if (now >= held.until) answers.delete(other);
      if (answers.size > CLOSING_ANSWERS_KEPT) answers.delete(answers.keys().next().value!);
    }
    const entry = answer.entry;
    if (entry.ready) await entry.ready.catch(() => undefined);
    return sendEntry(request, reply, entry, headers);
  });
}
