import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { trialBody, trialTestConfig } from '#tests/support/server/trials.ts';

// Decision 011: X-Forwarded-For is believed only for trusted hops.

async function statusesWith(trustProxy: string, forwardedFor: (i: number) => string): Promise<number[]> {
  const app = await buildApp({
    config: trialTestConfig({ TRUST_PROXY: trustProxy, TRIAL_LIMIT_PER_IP: '2' }),
    log: false,
  });
  try {
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/trial-requests',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor(i) },
        payload: JSON.stringify(trialBody()),
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  } finally {
    await app.close();
  }
}

describe('POST /api/trial-requests behind a proxy', () => {
  it.each(['true', '1', '127.0.0.1', '127.0.0.0/8, 10.0.0.0/8', 'loopback'])(
    'TRUST_PROXY=%s: rotating the left-most X-Forwarded-For entries does not get past the per-address limit',
    async (trustProxy) => {
      expect(await statusesWith(trustProxy, (i) => `198.51.100.${i}, 192.0.2.77`)).toEqual([
        200, 200, 429, 429,
      ]);
    },
  );

  it('TRUST_PROXY=2 takes the address the second proxy saw', async () => {
    expect(await statusesWith('2', (i) => `198.51.100.${i}, 192.0.2.${i}, 10.0.0.1`)).toEqual([
      200, 200, 200, 200,
    ]);
    expect(await statusesWith('2', (i) => `198.51.100.${i}, 192.0.2.77, 10.0.0.1`)).toEqual([
      200, 200, 429, 429,
    ]);
  });
});

describe('TRUST_PROXY', () => {
  it('reads false, true (one hop), a hop count and a list of addresses or ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '3' }).TRUST_PROXY).toBe(3);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '::1']);
  });

  it.each(['maybe', '10.0.0.0/33', '10.0.0.1, nonsense'])(
    'stops with a message naming TRUST_PROXY for %j',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );
});
