import '#web/lib/zod-jitless.ts';
import {
  MeResponseSchema,
  PortalResponseSchema,
  RotationResponseSchema,
  UsageResponseSchema,
  type MeResponse,
  type PortalResponse,
  type RotationResponse,
  type UsageResponse,
} from '#domain/schemas/api/account.ts';

// The account page's calls (issue 33, decision 156; the portal: issue 56, decision 220), each made with the pasted key
// in X-Api-Key and nothing else: GET /v1/me (plan, limits, credits, subscription, streams), GET /v1/me/usage?days=30
// (requests per day), POST /v1/me/rotate (a new key, the old one revoked) and POST /v1/me/portal (Stripe's billing
// portal of the key's subscription). Always this site's own /v1 (a relative URL), never another host: the key goes
// nowhere else, and never in a URL. No cookies, no cache, no Referer.

export const ACCOUNT_PATHS = {
  me: '/v1/me',
  usage: '/v1/me/usage',
  rotate: '/v1/me/rotate',
  portal: '/v1/me/portal',
} as const;

/** Days of usage the page charts. */
export const USAGE_DAYS = 30;

/**
 * Why a call failed, in the page's terms: `unauthorized` (401: unknown, revoked, expired, suspended or malformed key),
 * `forbidden` (403), `conflict` (409: a rotation found the key already replaced), `rate-limited` (429),
 * `not-available` (404: this server has no such route), `network` (no answer), `server` (5xx, or an answer the page
 * cannot read).
 */
export type AccountErrorKind =
  'unauthorized' | 'forbidden' | 'conflict' | 'rate-limited' | 'not-available' | 'network' | 'server';

export class AccountRequestError extends Error {
  override name = 'AccountRequestError';
  constructor(
    readonly kind: AccountErrorKind,
    readonly status: number | undefined,
    /** The problem's code: the last segment of its `type` (`api-key-revoked`, `rate-limited`…). */
    readonly code: string | undefined,
    /** The problem's `detail`, written for the customer. */
    readonly detail: string | undefined,
    /** For a 429: the problem's `retry_after_seconds`, else the Retry-After header. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(`${kind}${status ? ` (${status})` : ''}${detail ? `: ${detail}` : ''}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(status: number): AccountErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-available';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate-limited';
  return 'server';
}

function retryAfterOf(problem: Record<string, unknown>, headers: Headers): number | undefined {
  const fromBody = problem.retry_after_seconds;
  if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) return Math.ceil(fromBody);
  const header = headers.get('retry-after')?.trim();
  if (header && /^\d+$/.test(header)) return Number(header);
  if (header) {
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }
  return undefined;
}

async function problemError(response: Response): Promise<AccountRequestError> {
  const body: unknown = await response.json().catch(() => null);
  const problem = isRecord(body) ? body : {};
  const type = typeof problem.type === 'string' ? problem.type : undefined;
  const detail = typeof problem.detail === 'string' && problem.detail !== '' ? problem.detail : undefined;
  return new AccountRequestError(
    kindOf(response.status),
    response.status,
    type?.split('/').pop(),
    detail,
    response.status === 429 ? retryAfterOf(problem, response.headers) : undefined,
  );
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  fetchImpl?: typeof fetch | undefined;
}

async function call<T>(
  path: string,
  key: string,
  parse: (body: unknown) => { success: true; data: T } | { success: false },
  method: 'GET' | 'POST',
  { signal, fetchImpl = fetch }: CallOptions,
): Promise<T> {
  let response: Response;
  try {
    response = await fetchImpl(path, {
      method,
      headers: { 'X-Api-Key': key, Accept: 'application/json' },
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new AccountRequestError('network', undefined, undefined, undefined, undefined);
  }
  if (!response.ok) throw await problemError(response);
  const parsed = parse(await response.json().catch(() => null));
  if (!parsed.success)
    throw new AccountRequestError('server', response.status, undefined, undefined, undefined);
  return parsed.data;
}

/** GET /v1/me: the key's plan, limits, credits, subscription and open streams. */
export function fetchAccount(key: string, options: CallOptions = {}): Promise<MeResponse> {
  return call(ACCOUNT_PATHS.me, key, (body) => MeResponseSchema.safeParse(body), 'GET', options);
}

/** GET /v1/me/usage?days=30: the key's requests per day, oldest first, every day present. */
export function fetchUsage(key: string, options: CallOptions = {}): Promise<UsageResponse> {
  return call(
    `${ACCOUNT_PATHS.usage}?days=${USAGE_DAYS}`,
    key,
    (body) => UsageResponseSchema.safeParse(body),
    'GET',
    options,
  );
}

/** POST /v1/me/rotate: a new key (shown once), the presented one revoked everywhere. */
export function rotateKey(key: string, options: CallOptions = {}): Promise<RotationResponse> {
  return call(ACCOUNT_PATHS.rotate, key, (body) => RotationResponseSchema.safeParse(body), 'POST', options);
}

/** POST /v1/me/portal: a Stripe Billing Portal session of the key's subscription (the page then goes there). */
export function openPortal(key: string, options: CallOptions = {}): Promise<PortalResponse> {
  return call(ACCOUNT_PATHS.portal, key, (body) => PortalResponseSchema.safeParse(body), 'POST', options);
}

/** The calls, as the page's components take them (tests hand in their own). */
export interface AccountApi {
  fetchAccount: typeof fetchAccount;
  fetchUsage: typeof fetchUsage;
  rotateKey: typeof rotateKey;
  openPortal: typeof openPortal;
}

export const accountApi: AccountApi = { fetchAccount, fetchUsage, rotateKey, openPortal };
