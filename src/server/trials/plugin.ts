import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { TrialService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    trials: TrialService;
  }
}

export const trialsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('trials', new TrialService(app.db, app.secrets, app.config.SITE_URL));
  },
  { name: 'trials', dependencies: ['db', 'secrets'] },
);
