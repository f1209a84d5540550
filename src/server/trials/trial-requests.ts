import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TrialRequestSchema } from '#domain/schemas/trial-request.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { describeError, emailHash } from '../http/log-safe.ts';
import { enforceFormLimits, notStored, publicFormCors, requireJson } from '../http/public-form.ts';
import { emailIdentity } from '../keys/email-identity.ts';

// POST /api/trial-requests: docs/product.md §7 call 1. JSON only, 16 KiB at most, validated with the form's schema, rate limited
// per client address and per email, answered only after the commit. CORS for SITE_URL and CORS_ORIGINS.

export const TRIAL_PATH = '/api/trial-requests';
export const TRIAL_BODY_LIMIT = 16 * 1024;
const SuccessSchema = z.object({ success: z.literal(true) });

export async function trialRequestRoutes(app: FastifyInstance) {
  const { config } = app;
  // Every answer of these routes (errors included) says which origins may read it.
  publicFormCors(app, TRIAL_PATH);

  app.withTypeProvider<ZodTypeProvider>().post(
    TRIAL_PATH,
    {
      bodyLimit: TRIAL_BODY_LIMIT,
      schema: { body: TrialRequestSchema, response: { 200: SuccessSchema } },
      onRequest: requireJson('Send the trial request as application/json.'),
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
      await enforceFormLimits(
        app,
        {
          name: 'trial',
          perIpPerHour: config.TRIAL_LIMIT_PER_IP,
          perEmailPerDay: config.TRIAL_LIMIT_PER_EMAIL,
          ipDetail: 'Too many trial requests from this network. Try again later.',
          emailDetail: 'Too many trial requests for this address. Try again later.',
        },
        address,
        mailKey,
      );

      let result;
      try {
        result = await app.trials.submit(body, address);
      } catch (error) {
        // Not the default 500 log: Drizzle's error carries the query parameters (the address among them).
        request.log.error({ to: mailKey, error: describeError(error) }, 'trial request not stored');
        throw notStored('The request could not be stored. Please try again.');
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
