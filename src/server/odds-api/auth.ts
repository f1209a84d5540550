import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { includes, plansWith, type ApiFeature, type Plan } from '#domain/plans.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { FailureThrottle, throttledProblem } from '../http/failure-throttle.ts';
import { HttpProblem } from '../http/problem.ts';
import { isCredentialName, urlParameterNames } from '../http/redact.ts';
import { absoluteUrl, ROUTES } from '#domain/site.ts';
import type { ApiKeyRecord, BillingHoldReason, KeyProblemReason } from '../keys/service.ts';
import { lineWindow } from './quota.ts';
import { usageFamilyOf, type UsageFamily } from '#domain/usage.ts';

// Authentication and per-key rate limits of the /v1 routes. The key comes in `X-Api-Key`; only the stream (for
// browsers' EventSource, which cannot send headers) also takes `?api_key=`, which the request-log serializer redacts.
// A key in the query string of any other route is refused: URLs end up in logs, proxies and browser history.

export const WINDOW_MS = 60_000;
export const STREAM_QUERY_PARAM = 'api_key';
const THROTTLED_DETAIL = 'Too many unknown API keys from this address.';

export interface Quota {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the whole quota is available again. */
  resetSeconds: number;
  /** Requests counted in this window, this one included. */
  used: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyRecord | null;
    quota: Quota | null;
  }
  interface FastifyContextConfig {
    /** The route accepts the key in `?api_key=` (the stream only). */
    apiKeyInQuery?: boolean;
    /**
     * Requests one call counts for against the per-minute quota (default 1; /v1/historical/odds: 10). A function
     * weighs the call by its body (POST /v1/clv: one per started 10 bets): the key is still checked on arrival, and
     * the quota is charged once the body is parsed, before it is validated.
     */
    requestCost?: number | ((request: FastifyRequest) => number);
    /**
     * The key's own account calls (GET /v1/me, GET /v1/me/usage, POST /v1/me/rotate, POST /v1/me/portal): free, so
     * neither charged to the plan's per-minute quota nor counted in the usage (issue 56, decision 218), and limited
     * apart, `ACCOUNT_CALLS_PER_MINUTE` per key line.
     */
    accountCall?: boolean;
  }
}

/** Account calls a key line may make per minute, apart from its plan's quota (decision 218). */
export const ACCOUNT_CALLS_PER_MINUTE = 60;

const REASONS: Record<KeyProblemReason, [code: string, detail: string]> = {
  missing: ['api-key-missing', 'Send your API key in the X-Api-Key header.'],
  malformed: ['api-key-malformed', 'This is not a Sharpline API key (expected sl_live_… or sl_trial_…).'],
  unknown: [
    'api-key-unknown',
    'No such API key. Check for a copy-paste error, or ask support with the key prefix.',
  ],
  expired: ['api-key-expired', 'This API key has expired. Pick a plan to keep access.'],
  revoked: ['api-key-revoked', 'This API key has been revoked.'],
  suspended: ['api-key-suspended', 'This API key is suspended.'],
};

const HOLDS: Record<BillingHoldReason, string> = {
  past_due: 'the subscription’s payment is past due',
  unpaid: 'the subscription is unpaid',
  paused: 'the subscription is paused',
};

/** Why a held key stopped, for its 401 and its streams' close event (decision 142). */
/**
 * Where a customer manages their subscription (decision 151): the server's /manage-subscription, which goes to
 * Stripe's portal login (SUBSCRIPTION_PORTAL_URL) or to the pricing page's one-time link form.
 */
export function portalUrl(siteUrl: string): string {
  return absoluteUrl(siteUrl, ROUTES.manageSubscription);
}

/**
 * Where a key gets a plan that includes a feature (decision 151): that plan on the pricing page, whose "Choose" button
 * checks out (a trial) and whose "Manage subscription" switches the plan of a subscription (a customer: a second
 * checkout would start a second subscription).
 */
export function upgradeUrl(siteUrl: string, plan: Plan): string {
  return absoluteUrl(siteUrl, `${ROUTES.pricing}#plan-${plan.id}`);
}

export function suspensionDetail(
  hold: NonNullable<ApiKeyRecord['billingHold']>,
  graceMs: number,
  siteUrl: string,
): string {
  const grace =
    hold.reason === 'paused'
      ? ''
      : ` since ${hold.since.toISOString()}, and the ${Math.round(graceMs / 3_600_000)}-hour grace period has ended`;
  return `This API key is suspended: ${HOLDS[hold.reason]}${grace}. Update the payment method in the subscription portal (${portalUrl(siteUrl)}) and the key works again.`;
}

export function keyProblem(
  reason: KeyProblemReason,
  key: ApiKeyRecord | undefined,
  graceMs: number,
  siteUrl: string,
): HttpProblem {
  const [code, generic] = REASONS[reason];
  const hold = reason === 'suspended' ? key?.billingHold : null;
  return new HttpProblem(
    401,
    code,
    'Invalid API key',
    hold ? suspensionDetail(hold, graceMs, siteUrl) : generic,
    hold ? { reason: hold.reason, since: hold.since.toISOString(), portal_url: portalUrl(siteUrl) } : {},
    { 'www-authenticate': 'ApiKey header="X-Api-Key"' },
  );
}

export function quotaHeaders(quota: Quota): Record<string, string> {
  return {
    'ratelimit-policy': `"minute";q=${quota.limit};w=${WINDOW_MS / 1000}`,
    ratelimit: `"minute";r=${quota.remaining};t=${quota.resetSeconds}`,
    'x-ratelimit-limit': String(quota.limit),
    'x-ratelimit-remaining': String(quota.remaining),
    'x-ratelimit-reset': String(quota.resetSeconds),
  };
}

/** "Elite", "Elite and Enterprise", "Pro, Elite and Enterprise". */
function listNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Throws a 403 problem naming every plan that includes the feature when the key's plan lacks it: `plans` lists them
 * cheapest first, `required_plan` is the cheapest (and `upgrade_url` that plan on the pricing page).
 */
export function requireFeature(request: FastifyRequest, feature: ApiFeature): void {
  const plan = request.apiKey!.plan;
  if (includes(plan, feature)) return;
  const plans = plansWith(feature);
  const needed = plans[0]!;
  const names = listNames(plans.map((candidate) => candidate.name));
  throw new HttpProblem(
    403,
    'plan-feature',
    'Not included in your plan',
    `${feature.name} is included in the ${names} plan${plans.length > 1 ? 's' : ''}; this key is on the ${plan.name} plan.`,
    {
      feature: feature.id,
      plan: plan.id,
      required_plan: needed.id,
      plans: plans.map((candidate) => candidate.id),
      upgrade_url: upgradeUrl(request.server.config.SITE_URL, needed),
    },
  );
}

/** A credential-like query or `;` parameter, whatever its case or percent-encoding (decision 010). */
function urlHasCredential(url: string): boolean {
  return urlParameterNames(url).some(isCredentialName);
}

async function authenticate(
  app: FastifyInstance,
  throttle: FailureThrottle,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const inQuery = request.routeOptions.config.apiKeyInQuery === true;
  if (!inQuery && urlHasCredential(request.url)) {
    throw new HttpProblem(
      400,
      'api-key-in-query',
      'API key in the URL',
      'Send the key in the X-Api-Key header; query parameters end up in logs and browser history. Only /v1/stream accepts ?api_key= (for EventSource).',
    );
  }
  const header = request.headers['x-api-key'];
  let presented = Array.isArray(header) ? header[0] : header;
  if (presented === undefined && inQuery) {
    const value = (request.query as Record<string, unknown> | undefined)?.[STREAM_QUERY_PARAM];
    if (typeof value === 'string') presented = value;
  }
  const client = clientAddressKey(request.ip);
  const blocked = throttle.retryAfterMs(client);
  if (blocked > 0) throw throttledProblem(blocked, THROTTLED_DETAIL);
  const check = await app.apiKeys.authenticate(presented?.trim());
  if (!check.ok) {
    // Only unknown keys count: they are the guesses, and each costs a lookup (decision 013).
    if (check.reason === 'unknown') {
      const wait = await throttle.failed(client);
      if (wait > 0) {
        request.log.warn({ reason: check.reason }, 'api key failures throttled');
        throw throttledProblem(wait, THROTTLED_DETAIL);
      }
    }
    throw keyProblem(check.reason, check.key, app.apiKeys.billingGraceMs, app.config.SITE_URL);
  }
  if (request.routeOptions.config.accountCall === true)
    return admitAccountCall(app, request, reply, check.key);
  const cost = request.routeOptions.config.requestCost ?? 1;
  if (typeof cost === 'number') await charge(app, request, reply, check.key, cost);
  // A cost weighed by the body is charged once the body is parsed (the preValidation hook below).
  else pendingCharge.set(request, check.key);
}

/** The usage family of the request's route, remembered per route pattern. */
const families = new Map<string | undefined, UsageFamily>();
function familyOf(request: FastifyRequest): UsageFamily {
  const url = request.routeOptions.url;
  let family = families.get(url);
  if (family === undefined) families.set(url, (family = usageFamilyOf(url)));
  return family;
}

/** Keys authenticated on arrival whose call is charged by its body, once parsed. */
const pendingCharge = new WeakMap<FastifyRequest, ApiKeyRecord>();

/**
 * Charges `cost` requests to the key's window: the quota headers and `request.apiKey` when admitted, else a 429 (a
 * refused call of cost > 1 is not charged).
 */
async function charge(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  key: ApiKeyRecord,
  cost: number,
) {
  const limit = key.plan.requestsPerMinute;
  // The line's window (decision 202): a rotated key inherits the minute in progress.
  const { counter, phase } = lineWindow('key', key, WINDOW_MS);
  const result = await app.rateLimiter.window(counter, phase, limit, WINDOW_MS, cost);
  const resetSeconds = Math.max(1, Math.ceil(result.resetMs / 1000));
  const quota: Quota = { limit, remaining: result.remaining, resetSeconds, used: result.used };
  const headers = quotaHeaders(quota);
  if (!result.allowed) {
    const retryAfter = resetSeconds;
    throw new HttpProblem(
      429,
      'rate-limited',
      'Too many requests',
      `The ${key.plan.name} plan allows ${limit} requests per minute${cost > 1 ? `; this call counts as ${cost} requests and ${result.remaining} remain` : ''}. Retry in ${retryAfter} s.`,
      { limit, retry_after_seconds: retryAfter, ...(cost > 1 ? { request_cost: cost } : {}) },
      { ...headers, 'retry-after': String(retryAfter) },
    );
  }
  request.apiKey = key;
  request.quota = quota;
  // Usage by day and route family (decision 155): in memory, flushed in batches.
  app.usage.request(key.ledgerId, familyOf(request));
  void reply.headers(headers).header('cache-control', 'no-store');
}

/**
 * An account call (decision 218): admitted by its own per-minute limit, never charged to the plan's quota nor counted
 * in the usage; `request.quota` and the RateLimit headers are the plan's window as it stands (read, not charged).
 */
async function admitAccountCall(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  key: ApiKeyRecord,
) {
  const account = lineWindow('account', key, WINDOW_MS);
  const own = await app.rateLimiter.window(
    account.counter,
    account.phase,
    ACCOUNT_CALLS_PER_MINUTE,
    WINDOW_MS,
  );
  if (!own.allowed) {
    const retryAfter = Math.max(1, Math.ceil(own.resetMs / 1000));
    throw new HttpProblem(
      429,
      'rate-limited',
      'Too many requests',
      `Account calls (/v1/me and its routes) do not count against the ${key.plan.name} plan's requests, and a key may make ${ACCOUNT_CALLS_PER_MINUTE} of them per minute. Retry in ${retryAfter} s.`,
      { limit: ACCOUNT_CALLS_PER_MINUTE, retry_after_seconds: retryAfter },
      { 'retry-after': String(retryAfter) },
    );
  }
  const limit = key.plan.requestsPerMinute;
  // The line's window (decision 202), read at cost 0.
  const line = lineWindow('key', key, WINDOW_MS);
  const plan = await app.rateLimiter.window(line.counter, line.phase, limit, WINDOW_MS, 0);
  const quota: Quota = {
    limit,
    remaining: plan.remaining,
    resetSeconds: Math.max(1, Math.ceil(plan.resetMs / 1000)),
    used: plan.used,
  };
  request.apiKey = key;
  request.quota = quota;
  void reply.headers(quotaHeaders(quota)).header('cache-control', 'no-store');
}

/** Adds the hook to every route of the encapsulating context (register it inside the /v1 plugin). */
export const apiAuthPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('apiKey', null);
    app.decorateRequest('quota', null);
    const throttle = new FailureThrottle(
      app.rateLimiter,
      'api-auth',
      app.config.API_AUTH_FAILURES_PER_MINUTE,
      (client) => app.secrets.hashAddress(client).slice(0, 32),
    );
    app.addHook('onRequest', (request, reply) => authenticate(app, throttle, request, reply));
    app.addHook('preValidation', async (request, reply) => {
      const key = pendingCharge.get(request);
      const cost = request.routeOptions.config.requestCost;
      if (key && typeof cost === 'function') await charge(app, request, reply, key, cost(request));
    });
  },
  { name: 'api-auth', dependencies: ['api-keys', 'rate-limit', 'secrets', 'usage'] },
);
