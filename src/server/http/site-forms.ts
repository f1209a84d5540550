import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientAddressKey } from './client-address.ts';
import { describeError } from './log-safe.ts';
import { HttpProblem } from './problem.ts';
import { HOUR } from './public-form.ts';

// What the site's plain HTML forms need (decisions 151 and 208): they post application/x-www-form-urlencoded, so that
// they work before the page's script has run and without JavaScript, and they are answered with 303 redirects to a
// page that says what happened, rather than JSON. A form post from another site is refused (issue 55): any page could
// otherwise spend a visitor's checkout and portal-link quotas, or ask for a trial in their name.

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** The media type of a request, lower case, without parameters (`''` when absent). */
export function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether the request is a plain HTML form post (the page's script did not send it as JSON). */
export function isFormPost(request: FastifyRequest): boolean {
  return mediaType(request) === FORM_CONTENT_TYPE;
}

/**
 * Takes the site's form posts in this plugin's routes: parses their bodies (flat `name=value` pairs, the last of a
 * repeated name wins) and refuses those sent from another site's page (`SITE_URL`, `CORS_ORIGINS` and the server's own
 * origin are ours).
 */
export function acceptUrlEncodedForms(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addHook('onRequest', refuseCrossSiteForms([app.config.SITE_URL, ...app.config.CORS_ORIGINS]));
}

/** A form field as a string of at most `max` characters (anything else: undefined). */
export function field(body: unknown, name: string, max: number): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

/** Counts one request of the client's address against `limit` per hour under `name`; false when over it. */
export async function withinHourlyLimit(
  app: FastifyInstance,
  request: FastifyRequest,
  name: string,
  limit: number,
): Promise<boolean> {
  const address = app.secrets.hashAddress(clientAddressKey(request.ip)).slice(0, 32);
  return (await app.rateLimiter.hit(`${name}:ip:${address}`, limit, HOUR)).allowed;
}

/**
 * Whether a browser sent this form post from a page of another site. The browser says so itself: `Sec-Fetch-Site`
 * (every current browser) and `Origin` (sent with every cross-origin POST since long before). A post whose page is
 * this server's own origin, `SITE_URL` or one of `CORS_ORIGINS` is ours; one that says neither header (a script, an
 * old browser) is no cross-site forgery, since no browser page can make another site's visitor send it.
 */
export function isCrossSite(request: FastifyRequest, allowedOrigins: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  const fetchSite = request.headers['sec-fetch-site'];
  if (origin !== undefined) {
    // `null`: a sandboxed frame, a data: page or a redirect across origins; never one of our pages.
    if (origin === 'null') return true;
    return !(allowedOrigins.has(origin) || origin === ownOrigin(request));
  }
  return fetchSite === 'cross-site' || fetchSite === 'same-site';
}

/** The origin this request was addressed to, as the browser saw it (through a trusted proxy, its forwarded scheme). */
function ownOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * An `onRequest` hook refusing, with a 403 problem, a form post sent from another site's page (before its body is
 * read). JSON posts are not concerned: a browser sends them across origins only after a CORS preflight allows it.
 */
export function refuseCrossSiteForms(origins: readonly string[]) {
  const allowed = new Set(origins.map((origin) => origin.replace(/\/+$/, '')));
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (request.method !== 'POST' || !isFormPost(request)) return;
    if (!isCrossSite(request, allowed)) return;
    request.log.warn(
      { origin: request.headers.origin ?? null, fetchSite: request.headers['sec-fetch-site'] ?? null },
      'cross-site form post refused',
    );
    throw new HttpProblem(
      403,
      'cross-site-form',
      'Cross-site form refused',
      "This form is accepted from this site's own pages only. Nothing was done.",
    );
  };
}

/**
 * Where a form's answer sends the visitor back to: the page's own origin when the form was posted from it (a relative
 * URL, so that a server reached at another address than `SITE_URL` keeps its visitors), else `SITE_URL`.
 */
export function formAnswerUrl(request: FastifyRequest, siteUrl: string, path: string): string {
  const origin = request.headers.origin;
  if (origin === undefined || origin === ownOrigin(request)) return path;
  return `${siteUrl.replace(/\/+$/, '')}${path}`;
}

/** The notices a form's answer can name, by what happened. */
export interface FormNoticePaths {
  /** The input was refused (400). */
  invalid: string;
  /** Too many requests (429). */
  busy: string;
  /** Anything else went wrong (503, 500). */
  failed: string;
}

/**
 * A route's error handler for the site's forms: a plain form post's failure is answered with a 303 to the page's
 * notice of that failure (the visitor sees a page saying what happened, never a JSON problem), except a refused
 * cross-site post; a JSON post's failure goes on to the app's error handler (its problem answer).
 */
export function formFailuresAsNotices(siteUrl: string, paths: FormNoticePaths) {
  return (
    error: Error & { statusCode?: number; status?: number },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    const status = error instanceof HttpProblem ? error.status : (error.statusCode ?? 500);
    if (!isFormPost(request) || (error instanceof HttpProblem && error.code === 'cross-site-form'))
      throw error;
    const path = status === 400 ? paths.invalid : status === 429 ? paths.busy : paths.failed;
    if (status >= 500) request.log.error({ status, error: describeError(error) }, 'form post failed');
    return reply.redirect(formAnswerUrl(request, siteUrl, path), 303);
  };
}

/** An `onRequest` hook refusing, before the body is read, anything but JSON and a plain form post (415). */
export function jsonOrFormOnly(detail: string) {
  return async (request: FastifyRequest) => {
    const type = mediaType(request);
    if (type !== 'application/json' && type !== FORM_CONTENT_TYPE) {
      throw new HttpProblem(415, 'unsupported-media-type', 'Unsupported media type', detail);
    }
  };
}
