import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guardAdminRoutes } from './admin-guard.ts';

// Operators' routes behind `npm run trials`: loopback peers only (the socket address, not X-Forwarded-For) with the
// admin bearer token. Email addresses travel in POST bodies, never in URLs, so access logs never hold them.

const EmailBody = z.object({ email: z.string().trim().min(3).max(254) });

export async function adminTrialRoutes(app: FastifyInstance) {
  guardAdminRoutes(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/admin/trials',
    { schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(50) }) } },
    async (request) => ({ requests: await app.trials.recent(request.query.limit) }),
  );

  routes.post('/admin/trials/show', { schema: { body: EmailBody } }, async (request) =>
    app.trials.mailbox(request.body.email),
  );

  routes.post('/admin/trials/resend', { schema: { body: EmailBody } }, async (request) => {
    const result = await app.trials.resend(request.body.email);
    if (result.action !== 'none') app.outbox.kick();
    return result;
  });
}
