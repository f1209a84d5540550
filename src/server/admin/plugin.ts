import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { adminKeyRoutes } from './admin-keys.ts';
import { adminTrialRoutes } from './admin-trials.ts';

// The operators' routes (`/admin/...`, used by `npm run trials` and `npm run keys`), each behind the admin guard:
// trial requests, API keys, and the streams' figures.

export const adminPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(adminTrialRoutes);
    await app.register(adminKeyRoutes);
  },
  { name: 'admin', dependencies: ['trials', 'email-outbox', 'api'] },
);
