import { publicConfig } from '#web/config.ts';
import { retryAfterSeconds } from '#web/lib/refusal.ts';

// Issue 18, "Lost your key?": POST the address as JSON; the server emails a new key to it if it owns an active paid
// key, and answers 200 {"success": true} either way. Refusals are RFC 9457 problems: 400 with per-field `errors`,
// 415, 429 with Retry-After, 503.

export interface NewKeyRequest {
  email: string;
  /** The honeypot, sent only when a bot filled it (as the trial form does). */
  website?: string;
}

/** Why no new key was requested. `status` is undefined when no answer arrived (offline, DNS, CORS). */
export class NewKeyRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    /** The server's `detail`, meant for the visitor. */
    readonly detail?: string,
    readonly fieldErrors: Readonly<Record<string, readonly string[]>> = {},
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'NewKeyRequestError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The problem's per-field messages, keeping only lists of strings. */
function fieldErrorsOf(problem: Record<string, unknown>): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  if (!isRecord(problem.errors)) return result;
  for (const [field, messages] of Object.entries(problem.errors)) {
    if (!Array.isArray(messages)) continue;
    const texts = messages.filter((message): message is string => typeof message === 'string');
    if (texts.length > 0) result[field] = texts;
  }
  return result;
}

export async function requestNewKey(
  request: NewKeyRequest,
  fetchImpl: typeof fetch = fetch,
  endpoint: string = publicConfig.lostKeyEndpoint,
): Promise<void> {
  let response: Response;
  try {
    response = await fetchImpl(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        email: request.email,
        ...(request.website ? { website: request.website } : {}),
      }),
    });
  } catch (error) {
    throw new NewKeyRequestError(`Network error: ${String(error)}`, undefined);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = isRecord(body) ? body : {};
    const detail = typeof problem.detail === 'string' && problem.detail !== '' ? problem.detail : undefined;
    throw new NewKeyRequestError(
      `Server error: ${response.status}`,
      response.status,
      detail,
      fieldErrorsOf(problem),
      retryAfterSeconds(response.headers, body),
    );
  }
  if (!isRecord(body) || body.success !== true) {
    throw new NewKeyRequestError('New key request was not accepted', response.status);
  }
}
