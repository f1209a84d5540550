import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', async (_request, reply) => {
    const result = await app.readiness.run();
    void reply.header('cache-control', 'no-store').code(result.ok ? 200 : 503);
    return { status: result.ok ? 'ready' : 'not-ready', checks: result.checks };
  });
}
