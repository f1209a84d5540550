import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { snapshotEntry } from '../feed/plugin.ts';
import { AnswerCache, ANSWER_CACHE_BYTES } from '../http/answer-cache.ts';
import { MiddlesBoard } from './board.ts';
import { middlesFeedRoutes } from './middles-feed.ts';

// Middles (issue 36, decision 167): the board of spread and total middles as `app.middlesBoard`, read by
// GET /v1/middles (routes.ts) and by the public page's delayed, coarse feed GET /tools/middles.json
// (middles-feed.ts, decision 169), delayed as the positive-EV page's feed (EV_PUBLIC_DELAY_S); GET /v1/middles's
// finished answers as `app.middlesAnswers` (decision 205).

declare module 'fastify' {
  interface FastifyInstance {
    middlesBoard: MiddlesBoard;
    /** GET /v1/middles's finished answers, per normalised question and board, within a byte budget. */
    middlesAnswers: AnswerCache;
  }
}

export interface MiddlesPluginOptions {
  now?: (() => number) | undefined;
  /** Origins allowed to read the public feed cross-origin (as the arbitrage feed's). */
  origins: readonly string[];
  /** The byte budget of `middlesAnswers` (default ANSWER_CACHE_BYTES). */
  answerCacheBytes?: number | undefined;
}

export const middlesPlugin = fp(
  async (app: FastifyInstance, options: MiddlesPluginOptions) => {
    app.decorate(
      'middlesBoard',
      new MiddlesBoard(app.engine, {
        maxAgePreMatchMs: app.config.ARB_MAX_AGE_PREMATCH_S * 1000,
        maxAgeLiveMs: app.config.ARB_MAX_AGE_LIVE_S * 1000,
      }),
    );
    app.decorate(
      'middlesAnswers',
      new AnswerCache({ budgetBytes: options.answerCacheBytes ?? ANSWER_CACHE_BYTES, encode: snapshotEntry }),
    );
    await app.register(middlesFeedRoutes, {
      now: options.now ?? Date.now,
      origins: options.origins,
      delayMs: app.config.EV_PUBLIC_DELAY_S * 1000,
    });
  },
  { name: 'middles', dependencies: ['engine'] },
);
