import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SgpCredits } from './sgp-credits.ts';

// Same-game parlays (issue 16, decisions 127-129): the credits ledger as `app.sgpCredits`, registered before the paid
// API, whose /v1 scope serves POST /v1/sgp (`routes.ts`) and shows the month's credits in GET /v1/me; the operators'
// routes read and grant them.

declare module 'fastify' {
  interface FastifyInstance {
    sgpCredits: SgpCredits;
  }
}

export interface SgpCreditsPluginOptions {
  /** The clock deciding the month (unix ms); tests pass a virtual clock to cross a month's end. */
  now?: () => number;
}

export const sgpCreditsPlugin = fp(
  async (app: FastifyInstance, options: SgpCreditsPluginOptions) => {
    app.decorate('sgpCredits', new SgpCredits(app.db, options.now));
  },
  { name: 'sgp-credits', dependencies: ['db'] },
);
