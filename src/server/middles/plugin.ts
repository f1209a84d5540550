import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MiddlesBoard } from './board.ts';

// Middles (issue 36, decision 167): the board of spread and total middles as `app.middlesBoard`, read by
// GET /v1/middles (odds-api/routes/middles.ts).

declare module 'fastify' {
  interface FastifyInstance {
    middlesBoard: MiddlesBoard;
  }
}

export const middlesPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'middlesBoard',
      new MiddlesBoard(app.engine, {
        maxAgePreMatchMs: app.config.ARB_MAX_AGE_PREMATCH_S * 1000,
        maxAgeLiveMs: app.config.ARB_MAX_AGE_LIVE_S * 1000,
      }),
    );
  },
  { name: 'middles', dependencies: ['engine'] },
);
