import { desc, eq, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeys, emailOutbox, trialRequests } from '../db/schema.ts';
import { guardAdminRoutes } from '../lib/admin-guard.ts';
import { emailIdentity } from '../trials/email-identity.ts';
import { normaliseEmail } from '../trials/service.ts';

// Operators' routes behind `npm run trials`: loopback peers only (the socket address, not X-Forwarded-For) with the
// admin bearer token. Email addresses travel in POST bodies, never in URLs, so access logs never hold them.

const EmailBody = z.object({ email: z.string().trim().min(3).max(254) });

export async function adminTrialRoutes(app: FastifyInstance) {
  guardAdminRoutes(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/admin/trials',
    { schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(50) }) } },
    async (request) => {
      const rows = await app.db
        .select({
          id: trialRequests.id,
          receivedAt: trialRequests.receivedAt,
          email: trialRequests.email,
          name: trialRequests.name,
          company: trialRequests.company,
          status: trialRequests.status,
          keyPrefix: apiKeys.prefix,
          keyExpiresAt: apiKeys.expiresAt,
          emailStatus: emailOutbox.status,
        })
        .from(trialRequests)
        .leftJoin(apiKeys, eq(apiKeys.id, trialRequests.apiKeyId))
        .leftJoin(emailOutbox, eq(emailOutbox.trialRequestId, trialRequests.id))
        .orderBy(desc(trialRequests.id))
        .limit(request.query.limit);
      return { requests: rows };
    },
  );

  // One mailbox identity (docs/decisions/028): `show a+x@gmail.com` shows every spelling that counts as it.
  routes.post('/admin/trials/show', { schema: { body: EmailBody } }, async (request) => {
    const email = emailIdentity(request.body.email);
    const [requests, keys, emails] = await Promise.all([
      app.db
        .select({
          id: trialRequests.id,
          receivedAt: trialRequests.receivedAt,
          email: trialRequests.email,
          name: trialRequests.name,
          company: trialRequests.company,
          status: trialRequests.status,
          referrer: trialRequests.referrer,
          clientIpHash: trialRequests.clientIpHash,
        })
        .from(trialRequests)
        .where(eq(trialRequests.emailIdentity, email))
        .orderBy(desc(trialRequests.id)),
      app.db
        .select({
          id: apiKeys.id,
          prefix: apiKeys.prefix,
          plan: apiKeys.plan,
          createdAt: apiKeys.createdAt,
          expiresAt: apiKeys.expiresAt,
          revokedAt: apiKeys.revokedAt,
        })
        .from(apiKeys)
        .where(
          or(eq(apiKeys.ownerIdentity, email), eq(apiKeys.ownerEmail, normaliseEmail(request.body.email))),
        )
        .orderBy(desc(apiKeys.id)),
      app.db
        .select({
          id: emailOutbox.id,
          kind: emailOutbox.kind,
          status: emailOutbox.status,
          attempts: emailOutbox.attempts,
          createdAt: emailOutbox.createdAt,
          sentAt: emailOutbox.sentAt,
          nextAttemptAt: emailOutbox.nextAttemptAt,
          lastError: emailOutbox.lastError,
        })
        .from(emailOutbox)
        .where(eq(emailOutbox.toIdentity, email))
        .orderBy(desc(emailOutbox.id)),
    ]);
    return { email, requests, keys, emails };
  });

  routes.post('/admin/trials/resend', { schema: { body: EmailBody } }, async (request) => {
    const result = await app.trials.resend(request.body.email);
    if (result.action !== 'none') app.outbox.kick();
    return result;
  });
}
