import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TrialRequestSchema, type TrialRequestInput } from '#domain/schemas/trial-request.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { describeError, emailHash } from '../http/log-safe.ts';
import { enforceFormLimits, formLimitsOf, notStored, publicFormCors } from '../http/public-form.ts';
import {
  acceptUrlEncodedForms,
  field,
  formAnswerUrl,
  formFailuresAsNotices,
  isFormPost,
  jsonOrFormOnly,
} from '../http/site-forms.ts';
import { emailIdentity } from '../keys/email-identity.ts';
import { trialNoticePath } from '#domain/site-notices.ts';

// POST /api/trial-requests: docs/product.md §7 call 1. JSON, 16 KiB at most, validated with the form's schema, rate
// limited per client address and per email, answered only after the commit. CORS for SITE_URL and CORS_ORIGINS.
// The home page's form also posts here as a plain HTML form (before its script has run, or without JavaScript;
// decision 208): the same request, the browser's part of the payload taken from the request's headers, answered with
// a 303 to the home page's notice of what happened.

export const TRIAL_PATH = '/api/trial-requests';
export const TRIAL_BODY_LIMIT = 16 * 1024;
const SuccessSchema = z.object({ success: z.literal(true) });

export async function trialRequestRoutes(app: FastifyInstance) {
  const { config } = app;
  // Every answer of these routes (errors included) says which origins may read it.
  publicFormCors(app, TRIAL_PATH);
  acceptUrlEncodedForms(app, TRIAL_BODY_LIMIT);

  app.withTypeProvider<ZodTypeProvider>().post(
    TRIAL_PATH,
    {
      bodyLimit: TRIAL_BODY_LIMIT,
      schema: { body: TrialRequestSchema, response: { 200: SuccessSchema } },
      onRequest: jsonOrFormOnly('Send the trial request as application/json.'),
      // A form post's fields become the JSON payload the page's script would have sent.
      preValidation: async (request) => {
        if (!isFormPost(request)) return;
        // Validated next, as a JSON payload is.
        request.body = trialPayloadOfForm(request.body, request.headers, new Date()) as typeof request.body;
      },
      errorHandler: formFailuresAsNotices(config.SITE_URL, {
        invalid: trialNoticePath('invalid'),
        busy: trialNoticePath('busy'),
        failed: trialNoticePath('failed'),
      }),
    },
    async (request, reply) => {
      const answer = () =>
        isFormPost(request)
          ? reply.redirect(formAnswerUrl(request, config.SITE_URL, trialNoticePath('sent')), 303)
          : { success: true as const };
      const body = request.body;
      if (body.website && body.website.trim() !== '') {
        request.log.info('trial request discarded by the honeypot');
        return answer();
      }
      const address = clientAddressKey(request.ip);
      // Counted per mailbox (+tags and Gmail dots folded: docs/decisions/028-one-trial-per-mailbox.md).
      const mailKey = emailHash(emailIdentity(body.email));
      await enforceFormLimits(
        app,
        {
          name: 'trial',
          ...formLimitsOf(config),
          ipDetail: 'Too many trial requests from this network. Try again later.',
          emailDetail: 'Too many trial requests for this address. Try again later.',
          mailboxesDetail:
            'Too many trial requests for different addresses from this network today. Try again later.',
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
      return answer();
    },
  );
}

/** Drops what the request schema refuses in text (controls, text-direction characters) and cuts to `max`. */
function headerText(value: string | string[] | undefined, max: number): string {
  const text = Array.isArray(value) ? value.join(', ') : (value ?? '');
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .slice(0, max);
}

/**
 * The trial payload of a plain form post: the visitor's fields as typed, and what the page's script would have added
 * from the browser taken from the request (the time it arrived, its User-Agent, the `promotekit_referral` cookie). The
 * page the visitor came from is unknown without the script: `Direct`.
 */
export function trialPayloadOfForm(
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
  now: Date,
): TrialRequestInput {
  const text = (name: string) => field(body, name, TRIAL_BODY_LIMIT) ?? '';
  const cookie = headerText(headers.cookie, 4096);
  const referral = /(?:^|;\s*)promotekit_referral=([^;]*)/.exec(cookie)?.[1];
  let decoded = referral;
  try {
    decoded = referral === undefined ? undefined : decodeURIComponent(referral);
  } catch {
    // kept as sent
  }
  const website = text('website');
  return {
    name: text('name'),
    email: text('email'),
    company: text('company'),
    timestamp: now.toISOString(),
    userAgent: headerText(headers['user-agent'], 512),
    referrer: 'Direct',
    ...(decoded ? { promotekit_referral: headerText(decoded, 200) } : {}),
    ...(website ? { website } : {}),
  };
}
