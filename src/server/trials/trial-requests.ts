import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TrialRequestSchema } from '#domain/schemas/trial-request.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { describeError, emailHash } from '../http/log-safe.ts';
import { HttpProblem } from '../http/problem.ts';
import { emailIdentity } from './email-identity.ts';

// POST /api/trial-requests: SPEC §7 call 1. JSON only, 16 KiB at most, validated with the form's schema, rate limited
// per client address and per email, answered only after the commit. CORS for SITE_URL and CORS_ORIGINS.

export const TRIAL_PATH = '/api/trial-requests';
export const TRIAL_BODY_LIMIT = 16 * 1024;
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

const SuccessSchema = z.object({ success: z.literal(true) });

function tooMany(retryAfterMs: number, detail: string): HttpProblem {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpProblem(
    429,
    'rate-limited',
    'Too many requests',
    detail,
    { retryAfter: seconds },
    { 'retry-after': String(seconds) },
  );
}

/** Per client address (5/hour) and per email (3/day) by default; throws a 429 problem with Retry-After. */
async function enforceLimits(app: FastifyInstance, address: string, mailKey: string) {
  const { config } = app;
  const addressKey = app.secrets.hashAddress(address).slice(0, 32);
  const perIp = await app.rateLimiter.hit(`trial:ip:${addressKey}`, config.TRIAL_LIMIT_PER_IP, HOUR);
  if (!perIp.allowed) {
    throw tooMany(perIp.retryAfterMs, 'Too many trial requests from this network. Try again later.');
  }
  const perEmail = await app.rateLimiter.hit(`trial:email:${mailKey}`, config.TRIAL_LIMIT_PER_EMAIL, DAY);
  if (!perEmail.allowed) {
    throw tooMany(perEmail.retryAfterMs, 'Too many trial requests for this address. Try again later.');
  }
}

export async function trialRequestRoutes(app: FastifyInstance) {
  const { config } = app;
  const allowedOrigins = new Set([
    config.SITE_URL,
    ...config.CORS_ORIGINS.map((origin) => origin.replace(/\/+$/, '')),
  ]);

  // Every answer of these routes (errors included) says which origins may read it.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    void reply.header('vary', 'Origin');
    if (origin && allowedOrigins.has(origin)) void reply.header('access-control-allow-origin', origin);
  });

  app.options(TRIAL_PATH, async (request, reply) => {
    const origin = request.headers.origin;
    if (origin && allowedOrigins.has(origin) && request.headers['access-control-request-method'] === 'POST') {
      void reply.headers({
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'Content-Type',
        'access-control-max-age': '600',
      });
    }
    return reply.code(204).send();
  });

  app.withTypeProvider<ZodTypeProvider>().post(
    TRIAL_PATH,
    {
      bodyLimit: TRIAL_BODY_LIMIT,
      schema: { body: TrialRequestSchema, response: { 200: SuccessSchema } },
      onRequest: async (request) => {
        // Refuse other media types before reading the body (Fastify would parse text/plain as a string).
        const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== 'application/json') {
          throw new HttpProblem(
            415,
            'unsupported-media-type',
            'Unsupported media type',
            'Send the trial request as application/json.',
          );
        }
      },
    },
    async (request) => {
      const body = request.body;
      if (body.website && body.website.trim() !== '') {
        request.log.info('trial request discarded by the honeypot');
        return { success: true as const };
      }
      const address = clientAddressKey(request.ip);
      // Counted per mailbox (+tags and Gmail dots folded: docs/decisions/028-one-trial-per-mailbox.md).
      const mailKey = emailHash(emailIdentity(body.email));
      await enforceLimits(app, address, mailKey);

      let result;
      try {
        result = await app.trials.submit(body, address);
      } catch (error) {
        // Not the default 500 log: Drizzle's error carries the query parameters (the address among them).
        request.log.error({ to: mailKey, error: describeError(error) }, 'trial request not stored');
        throw new HttpProblem(
          503,
          'unavailable',
          'Service unavailable',
          'The request could not be stored. Please try again.',
          {},
          { 'retry-after': '5' },
        );
      }
      request.log.info(
        { to: mailKey, outcome: result.outcome, trialRequestId: result.requestId },
        'trial request stored',
      );
      if (result.outcome !== 'duplicate') app.outbox.kick();
      return { success: true as const };
    },
  );
}
