import { describe, expect, it } from 'vitest';
import { NewKeyRequestError, requestNewKey } from './request-new-key.ts';

const asFetch = (impl: (url: string, init: RequestInit) => Promise<Response>) =>
  impl as unknown as typeof fetch;
const respond = (status: number, body: string, headers: Record<string, string> = {}) =>
  asFetch(async () => new Response(body, { status, headers }));

async function failure(fetchImpl: typeof fetch): Promise<NewKeyRequestError> {
  const error: unknown = await requestNewKey({ email: 'ada@example.com' }, fetchImpl, '/x').then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(NewKeyRequestError);
  return error as NewKeyRequestError;
}

describe('requestNewKey', () => {
  it('posts the address as JSON to the endpoint and resolves on success: true', async () => {
    let request: { url: string; init: RequestInit } | undefined;
    const fetchImpl = asFetch(async (url, init) => {
      request = { url, init };
      return new Response('{"success":true}', { status: 200 });
    });
    await expect(
      requestNewKey({ email: 'ada@example.com' }, fetchImpl, '/api/lost-key'),
    ).resolves.toBeUndefined();
    expect(request?.url).toBe('/api/lost-key');
    expect(request?.init.method).toBe('POST');
    expect((request?.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(JSON.parse(String(request?.init.body))).toEqual({ email: 'ada@example.com' });
  });

  it('passes the honeypot only when a bot filled it', async () => {
    const bodies: unknown[] = [];
    const fetchImpl = asFetch(async (_url, init) => {
      bodies.push(JSON.parse(String(init.body)));
      return new Response('{"success":true}', { status: 200 });
    });
    await requestNewKey({ email: 'ada@example.com', website: '' }, fetchImpl, '/x');
    await requestNewKey({ email: 'ada@example.com', website: 'http://spam' }, fetchImpl, '/x');
    expect(bodies).toEqual([
      { email: 'ada@example.com' },
      { email: 'ada@example.com', website: 'http://spam' },
    ]);
  });

  it('reads the per-field errors and the detail of a 400 validation problem', async () => {
    const error = await failure(
      respond(
        400,
        JSON.stringify({
          type: 'https://sharpline.io/problems/validation',
          title: 'Invalid request',
          status: 400,
          detail: 'One or more fields are invalid.',
          errors: { email: ['Enter a valid email address'] },
        }),
        { 'content-type': 'application/problem+json; charset=utf-8' },
      ),
    );
    expect(error.status).toBe(400);
    expect(error.detail).toBe('One or more fields are invalid.');
    expect(error.fieldErrors).toEqual({ email: ['Enter a valid email address'] });
    expect(error.message).toBe('Server error: 400');
  });

  it('reads the detail and the Retry-After seconds of a 429 problem', async () => {
    const error = await failure(
      respond(
        429,
        '{"type":"https://sharpline.io/problems/rate-limited","title":"Too many requests","status":429,"detail":"Too many requests for this address. Try again later."}',
        { 'retry-after': '120' },
      ),
    );
    expect(error.status).toBe(429);
    expect(error.detail).toBe('Too many requests for this address. Try again later.');
    expect(error.retryAfterSeconds).toBe(120);
    expect(error.fieldErrors).toEqual({});
  });

  it('keeps the status when the error body is not a problem (a proxy page, an empty body)', async () => {
    for (const body of ['<html>Bad gateway</html>', '', '[1,2]', '{"errors":{"email":"not a list"}}']) {
      const error = await failure(respond(502, body, { 'retry-after': 'soon' }));
      expect(error.status).toBe(502);
      expect(error.detail).toBeUndefined();
      expect(error.fieldErrors).toEqual({});
      expect(error.retryAfterSeconds).toBeUndefined();
    }
  });

  it('reports a failed fetch (offline, refused by CORS) as having no status', async () => {
    const error = await failure(
      asFetch(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/^Network error/);
  });

  it.each(['{"success":false}', '{}', 'not json', '{"success":"true"}'])(
    'treats a 200 with body %s as a failure',
    async (body) => {
      const error = await failure(respond(200, body));
      expect(error.status).toBe(200);
    },
  );
});
