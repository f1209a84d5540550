import { describe, expect, it } from 'vitest';
import { AccountRequestError, fetchAccount, fetchUsage, openPortal, rotateKey } from './account-api.ts';

// The account page's calls against a stand-in fetch: what is sent (the key in X-Api-Key only, to this site's own
// /v1, no cookies) and how each refusal is read.

const KEY = 'sl_live_AbCdEf0123456789AbCdEf0123456789';

function standIn(status: number, body: unknown, headers: Record<string, string> = {}) {
  const requests: { url: string; init: RequestInit }[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    requests.push({ url, init });
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/problem+json', ...headers },
    });
  }) as unknown as typeof fetch;
  return { requests, fetchImpl };
}

async function failure(promise: Promise<unknown>): Promise<AccountRequestError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AccountRequestError);
  return error as AccountRequestError;
}

describe('the account page’s calls', () => {
  it('send the key only in X-Api-Key, to this site’s /v1, without cookies or cache', async () => {
    const { requests, fetchImpl } = standIn(404, { type: 'https://sharpline.io/problems/not-found' });
    await failure(fetchUsage(KEY, { fetchImpl }));
    await failure(rotateKey(KEY, { fetchImpl }));
    await failure(openPortal(KEY, { fetchImpl }));
    expect(requests.map(({ url, init }) => [init.method, url])).toEqual([
      ['GET', '/v1/me/usage?days=30'],
      ['POST', '/v1/me/rotate'],
      ['POST', '/v1/me/portal'],
    ]);
    for (const { url, init } of requests) {
      expect(url).not.toContain(KEY);
      expect(init.headers).toEqual({ 'X-Api-Key': KEY, Accept: 'application/json' });
      expect(init).toMatchObject({ credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
    }
  });

  it('read a 401 problem’s code and a 404 as "not available here"', async () => {
    const revoked = await failure(
      fetchAccount(KEY, {
        fetchImpl: standIn(401, {
          type: 'https://sharpline.io/problems/api-key-revoked',
          title: 'Invalid API key',
          status: 401,
          detail: 'This API key has been revoked.',
        }).fetchImpl,
      }),
    );
    expect(revoked).toMatchObject({ kind: 'unauthorized', status: 401, code: 'api-key-revoked' });
    const missing = await failure(fetchUsage(KEY, { fetchImpl: standIn(404, {}).fetchImpl }));
    expect(missing.kind).toBe('not-available');
  });

  it('take a 429’s wait from the problem’s retry_after_seconds, else from Retry-After', async () => {
    const fromBody = await failure(
      rotateKey(KEY, {
        fetchImpl: standIn(
          429,
          { type: 'https://sharpline.io/problems/rate-limited', retry_after_seconds: 12 },
          { 'retry-after': '99' },
        ).fetchImpl,
      }),
    );
    expect(fromBody).toMatchObject({ kind: 'rate-limited', code: 'rate-limited', retryAfterSeconds: 12 });
    const fromHeader = await failure(
      rotateKey(KEY, { fetchImpl: standIn(429, { title: 'Too many' }, { 'retry-after': '1800' }).fetchImpl }),
    );
    expect(fromHeader.retryAfterSeconds).toBe(1800);
  });

  it('call a failed fetch a network error and an unreadable answer a server error', async () => {
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect((await failure(fetchAccount(KEY, { fetchImpl: offline }))).kind).toBe('network');
    const odd = standIn(200, { plan: 'pro' }).fetchImpl;
    expect((await failure(fetchAccount(KEY, { fetchImpl: odd }))).kind).toBe('server');
    expect((await failure(fetchAccount(KEY, { fetchImpl: standIn(503, undefined).fetchImpl }))).kind).toBe(
      'server',
    );
  });
});
