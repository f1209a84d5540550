import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, emailOutbox } from '../db/schema.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import {
  checkoutSession,
  signedEvent,
  stripeEnv,
  stripeId,
  subscription,
} from '#tests/support/server/stripe.ts';
import { freePort, SmtpPeer, trialBody, trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// "Your trial ends soon" (issue 33, decision 151): one email per trial key about a day before it expires, through the
// outbox, with the plans and the address filled in for checkout. The periodic pass runs on the app's clock; the test
// moves a virtual clock across the trial's week and runs the pass at each step, as the timer would.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const peer = new SmtpPeer(await freePort());
const clock = virtualClock(Date.now());
let app: FastifyInstance;
let networks = 0;

async function trial(): Promise<string> {
  const body = trialBody();
  networks += 1;
  const response = await app.inject({
    method: 'POST',
    url: '/api/trial-requests',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${networks}` },
    payload: JSON.stringify(body),
  });
  expect(response.statusCode).toBe(200);
  const email = body.email as string;
  await waitFor(() => peer.to(email)[0], 'the trial key email');
  return email;
}

const reminders = (email: string) =>
  peer.to(email).filter((mail) => /Subject: Your Sharpline trial ends on/.test(mail.raw));

const queuedReminders = async (email: string) =>
  (
    await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.kind, 'trial-expiring')))
  )[0]!.n;

/** The email's text with quoted-printable soft breaks and `=` escapes undone. */
const text = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

beforeAll(async () => {
  await peer.start();
  app = await buildTestApp({
    config: trialTestConfig({ ...stripeEnv(), SMTP_URL: peer.url, TRUST_PROXY: 'true' }),
    now: clock.now,
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await peer.stop();
});

describe('trial expiry reminders', () => {
  it('sends one reminder per trial key, once it expires within a day, linking to the plans with the address filled in', async () => {
    const start = clock.now();
    const email = await trial();
    const issued = peer.to(email)[0]!;
    // The trial email already points at the plans with the address in the fragment.
    expect(text(issued.raw)).toContain(
      `https://example.test/sports-betting-api#email=${encodeURIComponent(email)}`,
    );

    // Six days in: more than a day left, nothing.
    clock.set(start + 6 * DAY - HOUR);
    expect(await app.trialReminders.runOnce()).toBe(0);
    expect(await queuedReminders(email)).toBe(0);

    clock.set(start + 6 * DAY + HOUR);
    expect(await app.trialReminders.runOnce()).toBe(1);
    const [reminder] = await waitFor(() => reminders(email).length > 0 && reminders(email), 'the reminder');
    const body = text(reminder!.raw);
    expect(body).toMatch(/stops working at/);
    expect(body).toContain(`https://example.test/sports-betting-api#email=${encodeURIComponent(email)}`);
    expect(body).toContain('the trial key keeps working until its end');

    // The passes that follow, to the last hour of the trial and past its end, send nothing more.
    for (const at of [6 * DAY + 2 * HOUR, 7 * DAY - 10 * 60_000, 7 * DAY + HOUR]) {
      clock.set(start + at);
      expect(await app.trialReminders.runOnce()).toBe(0);
    }
    expect(await queuedReminders(email)).toBe(1);
    const [key] = await app.db
      .select({ remindedAt: apiKeys.expiryRemindedAt })
      .from(apiKeys)
      .where(eq(apiKeys.ownerEmail, email));
    expect(key!.remindedAt).toEqual(new Date(start + 6 * DAY + HOUR));
    clock.set(start);
  });

  it('does not ask a trial whose mailbox holds a working paid key to subscribe, and does once that key is cancelled', async () => {
    const start = clock.now();
    const email = await trial();
    const ids = { subscription: stripeId('sub'), customer: stripeId('cus') };
    const deliver = async (type: string, object: Record<string, unknown>) => {
      const now = Math.floor(clock.now() / 1000);
      const delivery = signedEvent(type, object, { timestamp: now, created: now });
      const response = await app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: delivery.headers,
        payload: delivery.payload,
      });
      expect(response.statusCode).toBe(200);
    };
    await deliver('checkout.session.completed', checkoutSession({ ...ids, email, plan: 'pro' }));
    clock.set(start + 6 * DAY + HOUR);
    await app.trialReminders.runOnce();
    expect(await queuedReminders(email)).toBe(0);
    // The subscription is cancelled (whoever bought it): the trial, still running, is reminded of its end.
    await deliver(
      'customer.subscription.deleted',
      subscription({ id: ids.subscription, customer: ids.customer, status: 'canceled' }),
    );
    clock.set(start + 6 * DAY + 2 * HOUR);
    expect(await app.trialReminders.runOnce()).toBe(1);
    expect(await queuedReminders(email)).toBe(1);
    clock.set(start);
  });

  it('two passes at once remind a key once', async () => {
    const start = clock.now();
    const email = await trial();
    clock.set(start + 6 * DAY + HOUR);
    const counts = await Promise.all([app.trialReminders.runOnce(), app.trialReminders.runOnce()]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await queuedReminders(email)).toBe(1);
    clock.set(start);
  });
});
