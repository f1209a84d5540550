import { describe, expect, it } from 'vitest';
import { TrialRequestSchema } from '#domain/schemas/trial-request.ts';
import { buildTrialPayload, readCookie, submitTrialRequest } from './submit-trial-request.ts';

const context = { userAgent: 'UA/1.0', referrer: '', cookie: '', now: new Date('2026-11-21T12:00:00Z') };
const form = { name: 'Ada Lovelace', email: 'ada@example.com', company: 'Engines' };

describe('buildTrialPayload', () => {
  it('carries the six fields, timestamp, user agent and Direct when there is no referrer', () => {
    expect(buildTrialPayload(form, context)).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: 'Engines',
      useCase: '',
      expectedVolume: '',
      message: '',
      timestamp: '2026-11-21T12:00:00.000Z',
      userAgent: 'UA/1.0',
      referrer: 'Direct',
    });
  });

  it('adds the referrer and the promotekit_referral cookie when present', () => {
    const payload = buildTrialPayload(form, {
      ...context,
      referrer: 'https://news.example/post',
      cookie: 'a=1; promotekit_referral=abc%20123; b=2',
    });
    expect(payload.referrer).toBe('https://news.example/post');
    expect(payload.promotekit_referral).toBe('abc 123');
  });

  it('passes the honeypot only when a bot filled it', () => {
    expect(buildTrialPayload(form, context)).not.toHaveProperty('website');
    expect(buildTrialPayload(form, context, 'http://spam')).toMatchObject({ website: 'http://spam' });
  });

  it('builds a payload the server schema accepts', () => {
    expect(TrialRequestSchema.safeParse(buildTrialPayload(form, context)).success).toBe(true);
  });
});

describe('readCookie', () => {
  it('finds a cookie among others and tolerates bad encoding', () => {
    expect(readCookie('x=1; promotekit_referral=r1', 'promotekit_referral')).toBe('r1');
    expect(readCookie('promotekit_referral=%E0%A4%A', 'promotekit_referral')).toBe('%E0%A4%A');
    expect(readCookie('x=1', 'promotekit_referral')).toBeUndefined();
  });
});

describe('submitTrialRequest', () => {
  const payload = buildTrialPayload(form, context);
  const respond = (status: number, body: string) => async () => new Response(body, { status });

  it('posts JSON to the endpoint and resolves on success: true', async () => {
    let request: { url: string; init: RequestInit } | undefined;
    const fetchImpl = (async (url: string, init: RequestInit) => {
      request = { url, init };
      return new Response('{"success":true}', { status: 200 });
    }) as unknown as typeof fetch;
    await expect(submitTrialRequest(payload, fetchImpl, '/api/trial-requests')).resolves.toBeUndefined();
    expect(request?.url).toBe('/api/trial-requests');
    expect(request?.init.method).toBe('POST');
    expect((request?.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(JSON.parse(String(request?.init.body))).toEqual(payload);
  });

  it('treats a non-OK status as "Server error: {status}"', async () => {
    await expect(
      submitTrialRequest(payload, respond(503, '{}') as unknown as typeof fetch, '/x'),
    ).rejects.toThrow('Server error: 503');
  });

  it.each(['{"success":false}', '{}', 'not json', '{"success":"true"}'])(
    'treats a 200 with body %s as a failure',
    async (body) => {
      await expect(
        submitTrialRequest(payload, respond(200, body) as unknown as typeof fetch, '/x'),
      ).rejects.toThrow();
    },
  );
});
