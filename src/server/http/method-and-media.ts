import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpProblem, PROBLEM_CONTENT_TYPE, problemType } from './problem.ts';

// Two refusals a route table can make by itself (issue 58, decision 254), as problem+json:
// - 405 `method-not-allowed` with `Allow` (RFC 9110 §15.5.6) when the path is a route of the scope but the method is
//   not one of its methods (`DELETE /v1/odds`); a path no route has stays a 404;
// - 415 `unsupported-media-type` when a request carries a body that is not JSON (`text/plain`, a form), before the
//   body is parsed or anything is charged. Every /v1 route that takes a body takes `application/json`.

/** A path pattern of the router (`/v1/events/:eventId/lines`) as a regular expression over request paths. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? '[^/]+'
        : segment === '*'
          ? '.*'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * Collects the routes the scope registers from now on (call it before they are registered) and answers which
 * methods a path takes.
 */
export function routeMethods(scope: FastifyInstance): (path: string) => string[] {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  scope.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ pattern: patternOf(route.url), methods: methods.map(String) });
  });
  return (path) => {
    const allowed = new Set<string>();
    for (const route of routes)
      if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method);
    return [...allowed].sort();
  };
}

/** The 405 of a path that `methodsOf` knows with other methods; false (nothing sent) when it knows none. */
export function sendMethodNotAllowed(
  request: FastifyRequest,
  reply: FastifyReply,
  methodsOf: (path: string) => string[],
): boolean {
  const path = request.url.split('?')[0]!;
  const allowed = methodsOf(path);
  if (allowed.length === 0 || allowed.includes(request.method)) return false;
  const first = allowed.find((method) => method !== 'HEAD') ?? allowed[0];
  void reply
    .code(405)
    .header('allow', allowed.join(', '))
    .type(PROBLEM_CONTENT_TYPE)
    .send({
      type: problemType('method-not-allowed'),
      title: 'Method not allowed',
      status: 405,
      detail: `${first} ${path} exists, ${request.method} does not; allowed: ${allowed.join(', ')}.`,
      allow: allowed,
    });
  return true;
}

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

/** True when the request says it has a body (a length above 0, or a chunked one). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** A `preParsing` hook: a body that is not JSON is refused with 415 before it is read. */
export async function requireJsonBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!hasBody(request)) return;
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (JSON_MEDIA.test(type)) return;
  const path = request.url.split('?')[0];
  if (request.method === 'POST') void reply.header('accept-post', 'application/json');
  throw new HttpProblem(
    415,
    'unsupported-media-type',
    'Unsupported media type',
    `${request.method} ${path} takes an application/json body, not ${type || 'a body without Content-Type'}.`,
  );
}
