import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MiddlesBoard } from './board.ts';
import { middlesFeedRoutes } from './middles-feed.ts';

// Middles (issue 36, decision 167): the board of spread and total middles as `app.middlesBoard`, read by
// GET /v1/middles (odds-api/routes/middles.ts) and by the public page's delayed, coarse feed GET /tools/middles.json
// (middles-feed.ts, decision 169), delayed as the positive-EV page's feed (EV_PUBLIC_DELAY_S).

declare module 'fastify' {
  interface FastifyInstance {
    middlesBoard: MiddlesBoard;
  }
}

export interface MiddlesPluginOptions {
  now?: (() => number) | undefined;
  /** Origins allowed to read the public feed cross-origin (as the arbitrage feed's). */
  origins: readonly string[];
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
    await app.register(middlesFeedRoutes, {
      now: options.now ?? Date.now,
      origins: options.origins,
      delayMs: app.config.EV_PUBLIC_DELAY_S * 1000,
    });
  },
  { name: 'middles', dependencies: ['engine'] },
);
