import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { adminCreditRoutes } from './admin-credits.ts';
import { adminKeyRoutes } from './admin-keys.ts';
import { adminTrialRoutes } from './admin-trials.ts';

// The operators' routes (`/admin/...`, used by `npm run trials` and `npm run keys`), each behind the admin guard:
// trial requests, API keys, the streams' figures, and the keys' same-game-parlay credits.

export const adminPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(adminTrialRoutes);
    await app.register(adminKeyRoutes);
    await app.register(adminCreditRoutes);
  },
  { name: 'admin', dependencies: ['trials', 'email-outbox', 'api', 'sgp-credits'] },
);
