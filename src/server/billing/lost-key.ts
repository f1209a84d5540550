import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LostKeyRequestSchema } from '#domain/schemas/trial-request.ts';
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
import { lostKeyNoticePath } from '#domain/site-notices.ts';

// POST /api/lost-key: the pricing page's "Lost your key?" form (decision 142). Every usable paid key of the address's
// mailbox gets a successor, emailed to the key's own address; the previous key keeps working until the new one is
// first used, so that someone typing a customer's address cannot cut them off. The answer is the same whether or not
// the address has a key, and so is its timing (issue 31, decision 149): the route records the request (one INSERT)
// and answers; the lookup and the rotation run after the answer (LostKeyQueue). The form is rate limited like trial
// requests (per client address and per email). The form also posts here as a plain HTML form (before its script has
// run, or without JavaScript; decision 208), answered with a 303 to the pricing page's notice of what happened.

export const LOST_KEY_PATH = '/api/lost-key';

export async function lostKeyRoutes(app: FastifyInstance) {
  const { config } = app;
  publicFormCors(app, LOST_KEY_PATH);
  acceptUrlEncodedForms(app, 4 * 1024);
  app.withTypeProvider<ZodTypeProvider>().post(
    LOST_KEY_PATH,
    {
      bodyLimit: 4 * 1024,
      schema: { body: LostKeyRequestSchema, response: { 200: z.object({ success: z.literal(true) }) } },
      onRequest: jsonOrFormOnly('Send the request as application/json.'),
      preValidation: async (request) => {
        if (!isFormPost(request)) return;
        const website = field(request.body, 'website', 500);
        request.body = { email: field(request.body, 'email', 1000) ?? '', ...(website ? { website } : {}) };
      },
      errorHandler: formFailuresAsNotices(config.SITE_URL, {
        invalid: lostKeyNoticePath('invalid'),
        busy: lostKeyNoticePath('busy'),
        failed: lostKeyNoticePath('failed'),
      }),
      // The work starts once the answer has been sent, so the answer cannot wait for (or tell) what it finds.
      onResponse: async (_request, reply) => {
        if (reply.statusCode === 200) app.lostKeys.kick();
      },
    },
    async (request, reply) => {
      const answer = () =>
        isFormPost(request)
          ? reply.redirect(formAnswerUrl(request, config.SITE_URL, lostKeyNoticePath('sent')), 303)
          : { success: true as const };
      const { email, website } = request.body;
      if (website && website.trim() !== '') {
        request.log.info('lost-key request discarded by the honeypot');
        return answer();
      }
      const mailKey = emailHash(emailIdentity(email));
      await enforceFormLimits(
        app,
        {
          name: 'lost-key',
          ...formLimitsOf(config),
          ipDetail: 'Too many key requests from this network. Try again later.',
          emailDetail: 'Too many key requests for this address. Try again later.',
          mailboxesDetail:
            'Too many key requests for different addresses from this network today. Try again later.',
        },
        clientAddressKey(request.ip),
        mailKey,
      );
      // The same INSERT for every address; whether it has a key is found after the answer.
      try {
        await app.lostKeys.record(email);
      } catch (error) {
        request.log.error({ to: mailKey, error: describeError(error) }, 'lost-key request not stored');
        throw notStored('The request could not be processed. Please try again.');
      }
      request.log.info({ to: mailKey }, 'lost-key request recorded');
      return answer();
    },
  );
}
