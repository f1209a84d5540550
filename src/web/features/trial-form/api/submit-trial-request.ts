import type { TrialForm, TrialRequestInput } from '#domain/schemas/trial-request.ts';
import { publicConfig } from '#web/config.ts';
import { problemDetail, retryAfterSeconds } from '#web/lib/refusal.ts';

// docs/product.md §7 call 1: POST the trial payload as JSON; success only when the status is OK and the body says success: true.
// A refusal keeps the server's reason and, for a 429, its wait (issue 34), so the form can say when to try again.

/** Why the trial request failed: the status, the problem's `detail` and the seconds to wait, when the server said. */
export class TrialRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly detail?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'TrialRequestError';
  }
}

export interface BrowserContext {
  userAgent: string;
  referrer: string;
  cookie: string;
  now: Date;
}

export function readCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const [rawKey, ...rest] = part.split('=');
    if (rawKey?.trim() === name) {
      const value = rest.join('=').trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

export function buildTrialPayload(
  form: TrialForm,
  context: BrowserContext,
  honeypot = '',
): TrialRequestInput {
  const referral = readCookie(context.cookie, 'promotekit_referral');
  return {
    name: form.name,
    email: form.email,
    company: form.company ?? '',
    useCase: '',
    expectedVolume: '',
    message: '',
    timestamp: context.now.toISOString(),
    userAgent: context.userAgent,
    referrer: context.referrer || 'Direct',
    ...(referral ? { promotekit_referral: referral } : {}),
    ...(honeypot ? { website: honeypot } : {}),
  };
}

export async function submitTrialRequest(
  payload: TrialRequestInput,
  fetchImpl: typeof fetch = fetch,
  endpoint: string = publicConfig.trialEndpoint,
): Promise<void> {
  const response = await fetchImpl(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(payload),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    throw new TrialRequestError(
      `Server error: ${response.status}`,
      response.status,
      problemDetail(body),
      retryAfterSeconds(response.headers, body),
    );
  }
  if (!body || typeof body !== 'object' || (body as { success?: unknown }).success !== true) {
    throw new Error('Trial request was not accepted');
  }
}
