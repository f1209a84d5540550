import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LostKeyRequestSchema } from '#domain/schemas/trial-request.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { describeError, emailHash } from '../http/log-safe.ts';
import { enforceFormLimits, notStored, publicFormCors, requireJson } from '../http/public-form.ts';
import { emailIdentity } from '../trials/email-identity.ts';

// POST /api/lost-key: the pricing page's "Lost your key?" form (decision 142). Every usable paid key of the address's
// mailbox gets a successor, emailed to the key's own address; the previous key keeps working until the new one is
// first used, so that someone typing a customer's address cannot cut them off. The answer is the same whether or not
// the address has a key, and the form is rate limited like trial requests (per client address and per email).

export const LOST_KEY_PATH = '/api/lost-key';

export async function lostKeyRoutes(app: FastifyInstance) {
  const { config } = app;
  publicFormCors(app, LOST_KEY_PATH);
  app.withTypeProvider<ZodTypeProvider>().post(
    LOST_KEY_PATH,
    {
      bodyLimit: 4 * 1024,
      schema: { body: LostKeyRequestSchema, response: { 200: z.object({ success: z.literal(true) }) } },
      onRequest: requireJson('Send the request as application/json.'),
    },
    async (request) => {
      const { email, website } = request.body;
      if (website && website.trim() !== '') {
        request.log.info('lost-key request discarded by the honeypot');
        return { success: true as const };
      }
      const mailKey = emailHash(emailIdentity(email));
      await enforceFormLimits(
        app,
        {
          name: 'lost-key',
          perIpPerHour: config.TRIAL_LIMIT_PER_IP,
          perEmailPerDay: config.TRIAL_LIMIT_PER_EMAIL,
          ipDetail: 'Too many key requests from this network. Try again later.',
          emailDetail: 'Too many key requests for this address. Try again later.',
        },
        clientAddressKey(request.ip),
        mailKey,
      );
      let rotated;
      try {
        rotated = await app.paidKeys.lostKey(email);
      } catch (error) {
        request.log.error({ to: mailKey, error: describeError(error) }, 'lost-key request not processed');
        throw notStored('The request could not be processed. Please try again.');
      }
      if (rotated.length > 0) app.outbox.kick();
      request.log.info(
        { to: mailKey, rotated: rotated.map((result) => `${result.fromPrefix}→${result.toPrefix}`) },
        'lost-key request',
      );
      return { success: true as const };
    },
  );
}
