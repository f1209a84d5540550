import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PlanIdSchema } from '#domain/schemas/api/common.ts';
import type { ApiKeyRecord } from '../keys/service.ts';
import { guardAdminRoutes } from './admin-guard.ts';
import { HttpProblem } from '../http/problem.ts';
import { normaliseEmail } from '../trials/service.ts';

// Operators' routes behind `npm run keys` (docs/decisions/080-086) and the streams' figures, guarded exactly like `/admin/trials`: loopback peers
// only (socket address) and the admin bearer token of DATA_DIR/admin-token or ADMIN_TOKEN. The plain key appears in
// the answer to `create` and nowhere else; email addresses travel in bodies, never in URLs.

/** A key as the operators' routes show it (never its hash). */
export function keyView(record: ApiKeyRecord) {
  return {
    id: record.id,
    prefix: record.prefix,
    kind: record.kind,
    plan: record.plan.id,
    email: record.ownerEmail,
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
    stripeCustomer: record.stripeCustomerId,
    stripeSubscription: record.stripeSubscriptionId,
    billingHold: record.billingHold
      ? `${record.billingHold.reason} since ${record.billingHold.since.toISOString()}`
      : null,
  };
}

/** A key's public prefix, e.g. `sl_live_AbC123` (not secret: it may travel in a URL). */
export const KeyPrefixSchema = z.string().regex(/^sl_(live|trial)_[0-9A-Za-z]{6}$/);

export async function adminKeyRoutes(app: FastifyInstance) {
  guardAdminRoutes(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/admin/keys',
    {
      schema: {
        body: z.object({
          plan: PlanIdSchema,
          email: z.email().max(254),
          expiresAt: z.iso.datetime().optional(),
        }),
      },
    },
    async (request) => {
      const { plan, email, expiresAt } = request.body;
      const { plain, record } = await app.apiKeys.create({
        planId: plan,
        email: normaliseEmail(email),
        expiresAt: expiresAt ? new Date(expiresAt) : null,
      });
      request.log.info({ keyPrefix: record.prefix, plan }, 'api key created');
      return { key: plain, ...keyView(record) };
    },
  );

  routes.get(
    '/admin/keys',
    { schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) }) } },
    async (request) => ({ keys: (await app.apiKeys.list(request.query.limit)).map(keyView) }),
  );

  routes.post(
    '/admin/keys/revoke',
    { schema: { body: z.object({ prefix: KeyPrefixSchema }) } },
    async (request) => {
      const revoked = await app.apiKeys.revoke(request.body.prefix);
      if (revoked.length === 0) {
        throw new HttpProblem(404, 'key-not-found', 'Key not found', 'No active key has this prefix.');
      }
      request.log.info({ keyPrefix: request.body.prefix, count: revoked.length }, 'api key revoked');
      return { revoked: revoked.map(keyView) };
    },
  );

  // A new key by email for the key of `prefix` (same plan, owner, subscription, credits); the old one is revoked.
  routes.post(
    '/admin/keys/rotate',
    { schema: { body: z.object({ prefix: KeyPrefixSchema }) } },
    async (request) => {
      const rotated = await app.paidKeys.rotate(request.body.prefix);
      if (!rotated) {
        throw new HttpProblem(
          404,
          'key-not-found',
          'Key not found',
          'No usable key has this prefix (revoked, expired or already replaced keys cannot be rotated).',
        );
      }
      app.apiKeys.changed([rotated.fromId], 'local', 'revoked');
      app.outbox.kick();
      request.log.info({ from: rotated.fromPrefix, to: rotated.toPrefix }, 'api key rotated');
      return { from: rotated.fromPrefix, to: rotated.toPrefix, emailId: rotated.emailId };
    },
  );

  // How the open streams fare: how many, how many slow readers were dropped, and how long real-time releases took
  // (fan-out, and from a change becoming known to its last write) since `since` (unix ms), e.g. a load test's start,
  // and how late the event loop ran meanwhile (p50, p99 and the longest stall).
  routes.get(
    '/admin/streams',
    { schema: { querystring: z.object({ since: z.coerce.number().int().min(0).default(0) }) } },
    async (request) => ({
      clients: app.streamHub.clientCount,
      dropped: app.streamHub.dropped,
      ...app.streamHub.releaseStats(request.query.since),
      eventLoop: app.streamHub.loopStats(request.query.since),
    }),
  );
}
