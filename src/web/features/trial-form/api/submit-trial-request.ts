import type { TrialForm, TrialRequestInput } from '#domain/schemas/trial-request.ts';
import { publicConfig } from '#web/config.ts';

// SPEC §7 call 1: POST the trial payload as JSON; success only when the status is OK and the body says success: true.

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
  if (!response.ok) throw new Error(`Server error: ${response.status}`);
  const body: unknown = await response.json().catch(() => null);
  if (!body || typeof body !== 'object' || (body as { success?: unknown }).success !== true) {
    throw new Error('Trial request was not accepted');
  }
}
