import { describe, expect, it, vi } from 'vitest';
import { getCheckoutStatus } from './get-checkout-status.ts';

const answer = (status: number, body: unknown) =>
  vi.fn(
    async () =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

describe('getCheckoutStatus (the welcome page)', () => {
  it('reads the session the URL names and says what the server answered', async () => {
    const fetchImpl = answer(200, { status: 'paid', plan: 'pro', email: 'j***@example.com' });
    expect(await getCheckoutStatus('cs_test_abc', fetchImpl)).toEqual({
      kind: 'paid',
      plan: 'pro',
      email: 'j***@example.com',
    });
    expect(fetchImpl).toHaveBeenCalledWith('/api/checkout/session?session_id=cs_test_abc', expect.anything());
    expect(
      await getCheckoutStatus('cs_test_abc', answer(200, { status: 'processing', plan: null, email: null })),
    ).toEqual({ kind: 'processing', plan: null, email: null });
    expect(
      await getCheckoutStatus('cs_test_abc', answer(200, { status: 'not-paid', plan: 'pro', email: null })),
    ).toEqual({
      kind: 'not-paid',
    });
  });

  it('asks nothing for a missing or malformed id, and calls an unknown session unknown', async () => {
    const fetchImpl = answer(200, {});
    expect(await getCheckoutStatus(null, fetchImpl)).toEqual({ kind: 'unknown' });
    expect(await getCheckoutStatus('cs_test_../../x', fetchImpl)).toEqual({ kind: 'unknown' });
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(await getCheckoutStatus('cs_test_gone', answer(404, { status: 404 }))).toEqual({
      kind: 'unknown',
    });
  });

  it('is unavailable when the server fails, answers something else, or cannot be reached', async () => {
    expect(await getCheckoutStatus('cs_test_abc', answer(503, { status: 503 }))).toEqual({
      kind: 'unavailable',
    });
    expect(await getCheckoutStatus('cs_test_abc', answer(200, { status: 'refunded' }))).toEqual({
      kind: 'unavailable',
    });
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await getCheckoutStatus('cs_test_abc', offline)).toEqual({ kind: 'unavailable' });
  });
});
