import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, emailOutbox, trialRequests } from '../db/schema.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { trialBody, trialTestConfig } from '#tests/support/server/trials.ts';

// The trial form's limits on one client address (issue 56, decision 219): an office or a carrier's shared address
// (CGNAT) holds a team, each member with a mailbox of their own; a script cycling addresses needs a new mailbox for
// every request. The defaults: 30 requests an hour per address, 30 distinct mailboxes a day per address, 3 requests a
// day per mailbox. On the in-memory counters, under a virtual clock.

const HOUR = 3_600_000;
const clock = virtualClock(Date.UTC(2026, 11, 1, 9));
let app: FastifyInstance;
let offices = 0;

beforeAll(async () => {
  app = await buildTestApp({ config: trialTestConfig({ TRUST_PROXY: 'true' }), now: clock.now });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

/** A shared address of its own per test (the counters are the app's). */
const newOffice = () => `203.0.113.${(offices += 1)}`;

const post = (body: Record<string, unknown>, address: string) =>
  app.inject({
    method: 'POST',
    url: '/api/trial-requests',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    payload: JSON.stringify(body),
  });

const requestsOf = async (emails: string[]) =>
  (
    await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(trialRequests)
      .where(inArray(trialRequests.email, emails))
  )[0]!.n;

describe('POST /api/trial-requests from one shared address', () => {
  it('gives each of 20 colleagues behind one address a trial key, at once, and lets one ask again later', async () => {
    const office = newOffice();
    const colleagues = Array.from({ length: 20 }, () => trialBody());
    const emails = colleagues.map((body) => body.email as string);
    for (const body of colleagues) {
      const response = await post(body, office);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true });
    }
    const keys = await app.db
      .select()
      .from(apiKeys)
      .where(and(inArray(apiKeys.ownerEmail, emails), eq(apiKeys.kind, 'trial')));
    expect(new Set(keys.map((key) => key.ownerEmail))).toEqual(new Set(emails));
    const issued = await app.db
      .select()
      .from(emailOutbox)
      .where(and(inArray(emailOutbox.toAddress, emails), eq(emailOutbox.kind, 'trial-issued')));
    expect(issued).toHaveLength(20);

    // Later that day a colleague lost the key and asks again: the mailbox was counted already.
    clock.advance(3 * HOUR);
    expect((await post({ ...colleagues[0], message: 'again' }, office)).statusCode).toBe(200);
    expect(await requestsOf([emails[0]!])).toBe(2);
  });

  it('stops a script cycling mailboxes from one address after 30 a day, however slowly it goes; another address is not affected', async () => {
    const office = newOffice();
    const sent: string[] = [];
    // One every 3 minutes: slower than the hourly limit's refill (one every 2 minutes), so only the day's count stops it.
    for (let i = 0; i < 30; i += 1) {
      const body = trialBody();
      sent.push(body.email as string);
      expect((await post(body, office)).statusCode, `mailbox ${i + 1}`).toBe(200);
      clock.advance(3 * 60_000);
    }
    const next = trialBody();
    const refused = await post(next, office);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json().detail).toBe(
      'Too many trial requests for different addresses from this network today. Try again later.',
    );
    // Until the first mailbox's day has passed: 24 h after it, less the 90 minutes the script took.
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBe(24 * 3600 - 90 * 60);
    expect(await requestsOf([next.email as string])).toBe(0);
    expect(await requestsOf(sent)).toBe(30);

    // Another address is not affected. The refusal says nothing about the mailbox: one that got its trial from there
    // is refused here like a fresh one.
    expect((await post(next, newOffice())).statusCode).toBe(200);
    expect((await post({ ...next, message: 'from the office' }, office)).statusCode).toBe(429);
    expect((await post(trialBody(), office)).statusCode).toBe(429);
    // The script's address is admitted again once the first mailbox's day has passed.
    clock.advance(wait * 1000);
    expect((await post(trialBody(), office)).statusCode).toBe(200);
  });

  it('stops a burst from one address at 30 an hour, whatever the mailboxes', async () => {
    const office = newOffice();
    for (let i = 0; i < 30; i += 1) expect((await post(trialBody(), office)).statusCode).toBe(200);
    const refused = await post(trialBody(), office);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toBe('Too many trial requests from this network. Try again later.');
    // One more every 2 minutes.
    expect(Number(refused.headers['retry-after'])).toBe(120);
  });
});
