import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpProblem } from './problem.ts';

// What the site's public forms (the trial request, "Lost your key?") share: CORS for SITE_URL and CORS_ORIGINS, and
// rate limits per client address and per email with a 429 problem.

export const HOUR = 60 * 60_000;
export const DAY = 24 * HOUR;

/** Every answer of the encapsulating context says which origins may read it; `path` answers CORS preflights. */
export function publicFormCors(app: FastifyInstance, path: string): void {
  const { config } = app;
  const allowedOrigins = new Set([
    config.SITE_URL,
    ...config.CORS_ORIGINS.map((origin) => origin.replace(/\/+$/, '')),
  ]);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    void reply.header('vary', 'Origin');
    if (origin && allowedOrigins.has(origin)) void reply.header('access-control-allow-origin', origin);
  });
  app.options(path, async (request, reply) => {
    const origin = request.headers.origin;
    if (origin && allowedOrigins.has(origin) && request.headers['access-control-request-method'] === 'POST') {
      void reply.headers({
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'Content-Type',
        'access-control-max-age': '600',
      });
    }
    return reply.code(204).send();
  });
}

function tooMany(retryAfterMs: number, detail: string): HttpProblem {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpProblem(
    429,
    'rate-limited',
    'Too many requests',
    detail,
    { retryAfter: seconds },
    { 'retry-after': String(seconds) },
  );
}

export interface FormLimits {
  /** Rate-limit key prefix of the form, e.g. `trial`. */
  name: string;
  perIpPerHour: number;
  perEmailPerDay: number;
  ipDetail: string;
  emailDetail: string;
}

/** Per client address per hour, then per email per day; throws a 429 problem with Retry-After. */
export async function enforceFormLimits(
  app: FastifyInstance,
  limits: FormLimits,
  address: string,
  mailKey: string,
): Promise<void> {
  const addressKey = app.secrets.hashAddress(address).slice(0, 32);
  const perIp = await app.rateLimiter.hit(`${limits.name}:ip:${addressKey}`, limits.perIpPerHour, HOUR);
  if (!perIp.allowed) throw tooMany(perIp.retryAfterMs, limits.ipDetail);
  const perEmail = await app.rateLimiter.hit(`${limits.name}:email:${mailKey}`, limits.perEmailPerDay, DAY);
  if (!perEmail.allowed) throw tooMany(perEmail.retryAfterMs, limits.emailDetail);
}

/** The 503 a form answers when its work could not be stored (the caller logs the cause without addresses). */
export function notStored(detail: string): HttpProblem {
  return new HttpProblem(503, 'unavailable', 'Service unavailable', detail, {}, { 'retry-after': '5' });
}
