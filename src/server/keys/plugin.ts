import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RedisRevocationBus } from './revocation-bus.ts';
import { ApiKeyService, type ApiKeyServiceOptions } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    apiKeys: ApiKeyService;
  }
}

/** app.apiKeys, and with REDIS_URL set the bus telling every instance of key changes (decision 086). */
export const apiKeysPlugin = fp(
  async (app: FastifyInstance, options: ApiKeyServiceOptions) => {
    app.decorate('apiKeys', new ApiKeyService(app.db, options));
    const { REDIS_URL, REDIS_PREFIX } = app.config;
    if (REDIS_URL) {
      const bus = new RedisRevocationBus(REDIS_URL, `${REDIS_PREFIX}api-keys:revoked`, app.apiKeys, app.log);
      await bus.start();
      app.addHook('onClose', () => bus.close());
    }
  },
  { name: 'api-keys', dependencies: ['db'] },
);
