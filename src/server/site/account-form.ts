import type { FastifyInstance } from 'fastify';
import { accountNoticePath } from '#domain/site-notices.ts';
import { formAnswerUrl, refuseCrossSiteForms } from '../http/site-forms.ts';

// POST /account: where the account page's key form points (decision 208), so that it could never put a key in a URL.
// The form's button stays disabled until the page's script has run, so browsers do not send it; should one be sent
// all the same (a script-less client), its body is drained unread (a key is never parsed, kept or logged) and the
// visitor is sent back to the page's notice saying why nothing was shown.

export async function accountFormRoute(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: 4 * 1024 }, (_request, payload, done) => {
    payload.resume();
    payload.once('end', () => done(null, undefined));
    payload.once('error', done);
  });
  app.addHook('onRequest', refuseCrossSiteForms([app.config.SITE_URL, ...app.config.CORS_ORIGINS]));
  app.post('/account', { bodyLimit: 4 * 1024 }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return reply.redirect(formAnswerUrl(request, app.config.SITE_URL, accountNoticePath()), 303);
  });
}
