import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { loadSecrets, type Secrets } from '../lib/secrets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    secrets: Secrets;
  }
}

/** Server secret and admin token: from SERVER_SECRET/ADMIN_TOKEN, else files in DATA_DIR created at start (0600). */
export const secretsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('secrets', loadSecrets(app.config));
  },
  { name: 'secrets' },
);
