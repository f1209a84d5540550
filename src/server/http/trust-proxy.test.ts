import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { normaliseForwardedFor } from './trust-proxy.ts';
import { manualSource, virtualClock } from '#tests/support/server/app.ts';
import { trialBody, trialTestConfig } from '#tests/support/server/trials.ts';

// Decision 011: X-Forwarded-For is believed only for trusted hops.

async function statusesWith(trustProxy: string, forwardedFor: (i: number) => string): Promise<number[]> {
  const app = await buildApp({
    config: trialTestConfig({ TRUST_PROXY: trustProxy, TRIAL_LIMIT_PER_IP: '2' }),
    log: false,
    source: manualSource(),
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

describe('X-Forwarded-For entries that are not bare addresses (issue 31)', () => {
  // TRIAL_LIMIT_PER_IP = 5 an hour here. Before, each distinct string was a new client and a new bucket.
  // One app per TRUST_PROXY value; its virtual clock moves two hours between cases, so each starts with full buckets.
  const apps = new Map<string, { app: FastifyInstance; clock: ReturnType<typeof virtualClock> }>();
  afterAll(async () => {
    for (const { app } of apps.values()) await app.close();
  });

  async function trialStatuses(trustProxy: string, forwardedFor: (i: number) => string): Promise<number[]> {
    let entry = apps.get(trustProxy);
    if (!entry) {
      const clock = virtualClock(Date.now());
      const app = await buildApp({
        config: trialTestConfig({ TRUST_PROXY: trustProxy, TRIAL_LIMIT_PER_IP: '5' }),
        log: false,
        now: clock.now,
        source: manualSource(),
      });
      entry = { app, clock };
      apps.set(trustProxy, entry);
    }
    entry.clock.advance(2 * 3_600_000);
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i += 1) {
      const response = await entry.app.inject({
        method: 'POST',
        url: '/api/trial-requests',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor(i) },
        payload: JSON.stringify(trialBody()),
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  }
  const fiveThenLimited = [200, 200, 200, 200, 200, 429];

  it.each(['true', 'loopback'])(
    'TRUST_PROXY=%s: rotating garbage entries counts as the proxy itself, and the 6th request is limited',
    async (trustProxy) => {
      const garbage = ['garbage-7', 'unknown', '', '999.1.1.1', '0x7f.0.0.1', '_hidden', 'a:b:c'];
      expect(await trialStatuses(trustProxy, (i) => garbage[i % garbage.length]!)).toEqual(fiveThenLimited);
      // Behind the garbage, a client-written left part is not believed either.
      expect(await trialStatuses(trustProxy, (i) => `198.51.100.${i}, garbage-${i}`)).toEqual(
        fiveThenLimited,
      );
    },
  );

  it('ip:port and [v6]:port count as their address: rotating the port does not make a new client, another address does', async () => {
    expect(await trialStatuses('true', (i) => `198.51.100.10:${1000 + i}`)).toEqual(fiveThenLimited);
    expect(await trialStatuses('true', (i) => `[2001:db8:1:2::${i}]:${1000 + i}`)).toEqual(fiveThenLimited);
    // The address with a port is the client it names, not the proxy: a 6th client is not limited.
    expect(
      await trialStatuses('true', (i) => (i <= 5 ? `198.51.100.20:${1000 + i}` : '198.51.100.21:1001')),
    ).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('reads the header from the nearest hop outwards and stops at the first entry naming no address', () => {
    const peer = '10.0.0.1';
    expect(normaliseForwardedFor('198.51.100.10:1001', peer)).toBe('198.51.100.10');
    expect(normaliseForwardedFor('"[2001:db8::1]:443", [::1]', peer)).toBe('2001:db8::1, ::1');
    expect(normaliseForwardedFor('garbage-7', peer)).toBe(peer);
    expect(normaliseForwardedFor('', peer)).toBe(peer);
    // A client-written left part beyond garbage is dropped; the garbage stands for the hop that wrote it.
    expect(normaliseForwardedFor('198.51.100.1, unknown, 10.0.0.2', peer)).toBe('10.0.0.2, 10.0.0.2');
    expect(normaliseForwardedFor('198.51.100.1, 192.0.2.7:80', peer)).toBe('198.51.100.1, 192.0.2.7');
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
