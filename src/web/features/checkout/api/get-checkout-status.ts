import { BILLING_PATHS, CHECKOUT_SESSION_ID } from '#domain/checkout.ts';
import type { PlanId } from '#domain/plans.ts';
import { CheckoutStatusSchema } from '#domain/schemas/billing.ts';

// The welcome page's one read (decision 151): where Stripe's checkout returned the buyer (`?session_id=cs_…`), the
// server asks Stripe about the session and answers its status, plan and masked address.

export type WelcomeState =
  | { kind: 'checking' }
  | { kind: 'paid' | 'processing'; plan: PlanId | null; email: string | null }
  | { kind: 'not-paid' }
  /** No such session, or the URL names none. */
  | { kind: 'unknown' }
  /** The server or Stripe could not answer. */
  | { kind: 'unavailable' };

export async function getCheckoutStatus(
  sessionId: string | null,
  fetchImpl: typeof fetch = fetch,
): Promise<WelcomeState> {
  // An id that is not one is not sent anywhere.
  if (!sessionId || !CHECKOUT_SESSION_ID.test(sessionId)) return { kind: 'unknown' };
  let response: Response;
  try {
    response = await fetchImpl(
      `${BILLING_PATHS.checkoutSession}?session_id=${encodeURIComponent(sessionId)}`,
      { headers: { Accept: 'application/json' } },
    );
  } catch {
    return { kind: 'unavailable' };
  }
  if (response.status === 404 || response.status === 400) return { kind: 'unknown' };
  if (!response.ok) return { kind: 'unavailable' };
  const parsed = CheckoutStatusSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return { kind: 'unavailable' };
  const { status, plan, email } = parsed.data;
  return status === 'not-paid' ? { kind: 'not-paid' } : { kind: status, plan, email };
}
