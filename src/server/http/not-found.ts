import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemType } from './problem.ts';

/**
 * The problem+json 404 of a request no route answers (the site's and the paid API's not-found handlers): "No route
 * for GET /path" without the query, `routes` naming what is missing ("API route") and `hint` following a semicolon.
 */
export function sendNotFound(
  request: FastifyRequest,
  reply: FastifyReply,
  { routes = 'route', hint }: { routes?: string; hint?: string } = {},
): FastifyReply {
  return reply
    .code(404)
    .type(PROBLEM_CONTENT_TYPE)
    .send({
      type: problemType('not-found'),
      title: 'Not found',
      status: 404,
      detail: `No ${routes} for ${request.method} ${request.url.split('?')[0]}${hint ? `; ${hint}` : ''}`,
    });
}
