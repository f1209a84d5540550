import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpProblem, PROBLEM_CONTENT_TYPE, problemType, type Problem } from './problem.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

const TITLES: Record<number, [code: string, title: string]> = {
  400: ['bad-request', 'Bad request'],
  401: ['unauthorized', 'Unauthorized'],
  403: ['forbidden', 'Forbidden'],
  404: ['not-found', 'Not found'],
  405: ['method-not-allowed', 'Method not allowed'],
  406: ['not-acceptable', 'Not acceptable'],
  408: ['request-timeout', 'Request timeout'],
  411: ['length-required', 'Length required'],
  413: ['payload-too-large', 'Payload too large'],
  414: ['uri-too-long', 'URI too long'],
  415: ['unsupported-media-type', 'Unsupported media type'],
  429: ['rate-limited', 'Too many requests'],
  431: ['headers-too-large', 'Request header fields too large'],
};

/** What a 5xx says: never the cause (which the log keeps). */
const INTERNAL_DETAIL = 'The server failed to answer this request. Try again later.';

/** One error handler for the whole app: RFC 9457 problem+json, 5xx details never leaked. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      let problem: Problem;
      const headers: Record<string, string> = {};
      if (error instanceof HttpProblem) {
        problem = error.toProblem();
        Object.assign(headers, error.headers);
      } else if (hasZodFastifySchemaValidationErrors(error)) {
        const errors: Record<string, string[]> = {};
        for (const issue of error.validation) {
          const field =
            String(issue.instancePath ?? '')
              .replace(/^\//, '')
              .replace(/\//g, '.') || '(body)';
          (errors[field] ??= []).push(issue.message ?? 'Invalid value');
        }
        problem = {
          type: problemType('validation'),
          title: 'Invalid request',
          status: 400,
          detail: 'One or more fields are invalid.',
          errors,
        };
      } else {
        const status =
          error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
        if (status >= 500) {
          request.log.error({ err: error }, 'request failed');
          problem = {
            type: problemType('internal'),
            title: 'Internal server error',
            status,
            detail: INTERNAL_DETAIL,
          };
        } else {
          const [code, title] = TITLES[status] ?? ['client-error', 'Bad request'];
          problem = { type: problemType(code), title, status, detail: error.message };
        }
      }
      void reply.code(problem.status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(problem);
    });
  },
  { name: 'errors' },
);

function titledProblem(status: number, detail: string): Problem {
  const [code, title] = TITLES[status] ?? ['client-error', 'Bad request'];
  return { type: problemType(code), title, status, detail };
}

/** Sockets answered by `clientErrorHandler` and closing in stages: what they still send is read and dropped. */
const lingering = new WeakSet<Socket>();
/** How long such a socket is read after its answer before it is closed whatever the client does. */
const LINGER_MS = 1_000;

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refused (bad request line or header, headers over the
 * limit, headers or body too slow) gets a problem+json answer with the usual security headers, then the socket is
 * closed. The raw bytes (which may hold a key) are never logged (decisions 010 and 014).
 *
 * The close comes in stages (RFC 9112 §9.6): the answer and our end of the connection are sent, then what the client
 * still sends is read and dropped, without parsing, until it closes or `LINGER_MS` pass. A socket closed at once with
 * unread bytes (a client still sending its headers) makes the kernel reset the connection, and a reset can erase the
 * answer before the client reads it.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || lingering.has(socket)) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431
      ? 'The request headers are too large.'
      : status === 408
        ? 'The request was not received in time.'
        : 'The request could not be parsed as HTTP/1.1.';
  this.log.debug({ code: error.code, status }, 'client error');
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !pending?.headersSent) {
    const body = JSON.stringify(titledProblem(status, detail));
    const headers = {
      ...SECURITY_HEADERS,
      'cache-control': 'no-store',
      'content-type': PROBLEM_CONTENT_TYPE,
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    lingering.add(socket);
    // Node's parser stops here: no request that the client completes later is routed.
    socket.removeAllListeners('data');
    socket.on('data', () => {});
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
    const close = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(close));
    return;
  }
  socket.destroy();
}

/** Fastify's `frameworkErrors`: its refusals before routing (malformed URL, over-long parameter) as problem+json. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  const problem: Problem =
    status >= 500
      ? { type: problemType('internal'), title: 'Internal server error', status, detail: INTERNAL_DETAIL }
      : titledProblem(
          status,
          error.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? 'A path segment is too long.'
            : 'The URL is malformed (check its percent-encoding).',
        );
  void reply
    .code(status)
    .headers({ ...SECURITY_HEADERS, 'cache-control': 'no-store' })
    .type(PROBLEM_CONTENT_TYPE)
    .send(problem);
}
