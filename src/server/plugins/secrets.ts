import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { loadSecrets, type Secrets } from '../lib/secrets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    secrets: Secrets;
  }
}

/**
 * Server secret (SERVER_SECRET, else SECRETS_DIR/server-secret) and admin token (ADMIN_TOKEN, else
 * DATA_DIR/admin-token), files created at start with mode 0600.
 */
export const secretsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'secrets',
      loadSecrets(app.config, (message) => app.log.warn(`server secret: ${message}`)),
    );
  },
  { name: 'secrets' },
);
