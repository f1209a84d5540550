import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { snapshotEntry } from '../feed/plugin.ts';
import { AnswerCache, ANSWER_CACHE_BYTES } from '../http/answer-cache.ts';
import { EvBoard } from './board.ts';
import { evFeedRoutes } from './ev-feed.ts';

// Positive EV (issue 36, decision 163): the board of prices with positive expected value as `app.evBoard`, read by
// GET /v1/ev (routes.ts) and by the public page's delayed, coarse feed GET /tools/ev.json (ev-feed.ts);
// GET /v1/ev's finished answers as `app.evAnswers` (decision 205).

declare module 'fastify' {
  interface FastifyInstance {
    evBoard: EvBoard;
    /** GET /v1/ev's finished answers, per normalised question and board, within a byte budget. */
    evAnswers: AnswerCache;
  }
}

export interface EvPluginOptions {
  now?: (() => number) | undefined;
  /** Origins allowed to read the public feed cross-origin (as the arbitrage feed's). */
  origins: readonly string[];
  /** The byte budget of `evAnswers` (default ANSWER_CACHE_BYTES). */
  answerCacheBytes?: number | undefined;
}

export const evPlugin = fp(
  async (app: FastifyInstance, options: EvPluginOptions) => {
    const board = new EvBoard(app.engine, {
      maxAgePreMatchMs: app.config.ARB_MAX_AGE_PREMATCH_S * 1000,
      maxAgeLiveMs: app.config.ARB_MAX_AGE_LIVE_S * 1000,
    });
    app.decorate('evBoard', board);
    app.decorate(
      'evAnswers',
      new AnswerCache({ budgetBytes: options.answerCacheBytes ?? ANSWER_CACHE_BYTES, encode: snapshotEntry }),
    );
    await app.register(evFeedRoutes, {
      now: options.now ?? Date.now,
      origins: options.origins,
      delayMs: app.config.EV_PUBLIC_DELAY_S * 1000,
    });
  },
  { name: 'ev', dependencies: ['engine'] },
);
