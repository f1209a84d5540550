import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ProblemSchema } from '#domain/schemas/api/common.ts';
import { HttpProblem } from '../../http/problem.ts';
import { delayMs } from '#domain/plans.ts';
import type { EvChoice } from '#domain/ev.ts';

// What the REST routes of the paid API (one file per resource in this folder) share. Handlers stay short: filters are
// parsed by the zod schemas, reads live in views.ts.

export const API_TAG = 'Odds API';
export const tags = [API_TAG];
export const security = [{ ApiKey: [] }];

/** Errors every authenticated route may answer. */
export const COMMON_ERRORS = {
  400: ProblemSchema.describe(
    'Invalid parameters (`validation`) or a key in the query string (`api-key-in-query`).',
  ),
  401: ProblemSchema.describe(
    'No key (`api-key-missing`), or a malformed, unknown, expired, revoked or suspended one (`api-key-malformed`, `api-key-unknown`, `api-key-expired`, `api-key-revoked`, `api-key-suspended`: a suspended one names its `reason`).',
  ),
  429: ProblemSchema.describe(
    "Over the plan's requests per minute (`rate-limited`), or too many unknown keys from one address (`auth-throttled`); see Retry-After.",
  ),
} as const;

export const booleanParam = z.enum(['true', 'false']).transform((value) => value === 'true');
/** A list parameter: `books=a,b` or `books=a&books=b`. */
export const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => (typeof part === 'string' ? part.split(',') : [part]))
        .map((part) => (typeof part === 'string' ? part.trim() : part))
        .filter((part) => part !== ''),
    z.array(item).min(1).max(50),
  );

/** The horizon of the key's plan: undefined (real time) or now − delay. */
export function horizon(request: FastifyRequest, now: () => number): number | undefined {
  const delay = delayMs(request.apiKey!.plan);
  return delay === 0 ? undefined : now() - delay;
}

/**
 * How old a key's positive EV and middles are (decision 211): its plan's delay, never more than the public finder
 * pages' (`EV_PUBLIC_DELAY_S`), so that no plan sees them staler than the free pages do.
 */
export function valuesDelayMs(request: FastifyRequest): number {
  return Math.min(delayMs(request.apiKey!.plan), request.server.config.EV_PUBLIC_DELAY_S * 1000);
}

/** The horizon of a key's positive EV and middles: undefined (real time) or now − `valuesDelayMs`. */
export function valuesHorizon(request: FastifyRequest, now: () => number): number | undefined {
  const delay = valuesDelayMs(request);
  return delay === 0 ? undefined : now() - delay;
}

/**
 * The question GET /v1/ev and GET /v1/middles ask alike (decisions 205, 211 and 281): the horizon and delay of the
 * key's plan, the method and reference asked for (each the route's default when the query names none), the markets
 * and books to keep as sets, and how its kept answer's key starts (the filters of its own follow).
 */
export function valuesQuestion<M extends EvChoice['method'], R extends EvChoice['reference']>(
  request: FastifyRequest,
  now: () => number,
  query: { markets?: readonly string[]; books?: readonly string[]; devig?: M; reference?: R; limit: number },
  defaults: { method: NoInfer<M>; reference: NoInfer<R> },
) {
  const at = valuesHorizon(request, now);
  const choice = {
    method: query.devig ?? defaults.method,
    reference: query.reference ?? defaults.reference,
  };
  const delaySeconds = valuesDelayMs(request) / 1000;
  return {
    at,
    delaySeconds,
    choice,
    /** What to ask the board for: undefined for the default (the value scan's own board), else the choice. */
    asked: choice.method === defaults.method && choice.reference === defaults.reference ? undefined : choice,
    types: query.markets ? new Set<string>(query.markets) : undefined,
    books: query.books ? new Set<string>(query.books) : undefined,
    keyHead: `${delaySeconds}|${query.limit}|${choice.method}|${choice.reference}|`,
  };
}

/** How an answer of GET /v1/ev or GET /v1/middles starts: when its board was judged, its source, delay and choice. */
export function valuesAnswerHead<M extends string, R extends string, S>(
  question: { delaySeconds: number; choice: { method: M; reference: R } },
  boardAt: number,
  source: S,
) {
  return {
    as_of: new Date(boardAt).toISOString(),
    source,
    delay_seconds: question.delaySeconds,
    method: question.choice.method,
    reference: question.choice.reference,
  };
}

export function eventNotFound(id: string): HttpProblem {
  return new HttpProblem(
    404,
    'event-not-found',
    'Event not found',
    `No current event has the id ${JSON.stringify(id.slice(0, 200))}.`,
  );
}
