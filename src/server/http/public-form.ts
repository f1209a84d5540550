import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpProblem } from './problem.ts';

// What the site's public forms (the trial request, "Lost your key?", the portal link) share: CORS for SITE_URL and
// CORS_ORIGINS, and rate limits with a 429 problem: requests per client address per hour, distinct mailboxes per client
// address per day, requests per mailbox per day (decision 219).

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
  /** Distinct mailboxes one client address may ask for in a day (a mailbox asked for again is not counted again). */
  mailboxesPerIpPerDay: number;
  ipDetail: string;
  emailDetail: string;
  mailboxesDetail: string;
}

/** The public forms' limits from the configuration (decision 219). */
export function formLimitsOf(
  config: FastifyInstance['config'],
): Pick<FormLimits, 'perIpPerHour' | 'perEmailPerDay' | 'mailboxesPerIpPerDay'> {
  return {
    perIpPerHour: config.TRIAL_LIMIT_PER_IP,
    perEmailPerDay: config.TRIAL_LIMIT_PER_EMAIL,
    mailboxesPerIpPerDay: config.TRIAL_MAILBOXES_PER_IP,
  };
}

/**
 * Per client address per hour (a flood), then distinct mailboxes per client address per day (a script cycling
 * addresses; a team asks for one mailbox each), then per mailbox per day; throws a 429 problem with Retry-After. The
 * refusals depend on what was asked from the address and for the mailbox, never on whether the mailbox has a key.
 */
export async function enforceFormLimits(
  app: FastifyInstance,
  limits: FormLimits,
  address: string,
  mailKey: string,
): Promise<void> {
  const addressKey = app.secrets.hashAddress(address).slice(0, 32);
  const perIp = await app.rateLimiter.hit(`${limits.name}:ip:${addressKey}`, limits.perIpPerHour, HOUR);
  if (!perIp.allowed) throw tooMany(perIp.retryAfterMs, limits.ipDetail);
  const mailboxes = await app.rateLimiter.distinct(
    `${limits.name}:mailboxes:${addressKey}`,
    mailKey,
    limits.mailboxesPerIpPerDay,
    DAY,
  );
  if (!mailboxes.allowed) throw tooMany(mailboxes.retryAfterMs, limits.mailboxesDetail);
  const perEmail = await app.rateLimiter.hit(`${limits.name}:email:${mailKey}`, limits.perEmailPerDay, DAY);
  if (!perEmail.allowed) throw tooMany(perEmail.retryAfterMs, limits.emailDetail);
}

/** The 503 a form answers when its work could not be stored (the caller logs the cause without addresses). */
export function notStored(detail: string): HttpProblem {
  return new HttpProblem(503, 'unavailable', 'Service unavailable', detail, {}, { 'retry-after': '5' });
}
