import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { manualSource } from '#tests/support/server/app.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';

// Decision 013: wrong admin tokens are logged without the token and throttled per peer address.

const logLines: string[] = [];
let app: FastifyInstance;

beforeAll(async () => {
  const config = trialTestConfig({ LOG_LEVEL: 'info', ADMIN_AUTH_FAILURES_PER_MINUTE: '3' });
  app = await buildApp({
    source: manualSource(),
    config,
    log: { write: (line: string) => logLines.push(line) },
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const listKeys = (token: string) =>
  app.inject({ method: 'GET', url: '/admin/keys', headers: { authorization: `Bearer ${token}` } });

describe('GET /admin/keys with wrong tokens', () => {
  it('answers 401 to the first three wrong tokens a minute, then 429 problem+json (even to the right token), logging each failure without the token', async () => {
    const wrong = Array.from({ length: 4 }, (_, i) => `wrong-token-${i}-${'x'.repeat(24)}`);
    const statuses: number[] = [];
    for (const token of wrong) statuses.push((await listKeys(token)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);

    const refused = await listKeys(app.secrets.adminToken);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json().type).toBe('https://sharpline.io/problems/auth-throttled');

    const failures = logLines.filter((line) => line.includes('admin token rejected'));
    expect(failures).toHaveLength(4);
    for (const line of logLines) for (const token of wrong) expect(line).not.toContain(token);
  });
});
