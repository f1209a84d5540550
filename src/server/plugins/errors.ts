import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpProblem, PROBLEM_CONTENT_TYPE, problemType, type Problem } from '../lib/problem.ts';

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
          problem = { type: problemType('internal'), title: 'Internal server error', status };
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
