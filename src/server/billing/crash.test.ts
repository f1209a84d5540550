import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, emailOutbox } from '../db/schema.ts';
import { crashTestEnv, openStoppedDatabase, serverProcesses } from '#tests/support/server/process.ts';
import { checkoutSession, signedEvent, stripeEnv, stripeId } from '#tests/support/server/stripe.ts';
import { freePort, keyInEmail, SmtpPeer, waitFor } from '#tests/support/server/trials.ts';

// A real server process is killed with SIGKILL while the email carrying a just-issued paid key is in flight (the mail
// server read it but never answered). After a restart, and Stripe delivering the event again, there is exactly one key
// for the subscription and exactly one email, carrying a key that works.

const SMTP_PORT = await freePort();
const PORT = await freePort();
const base = `http://127.0.0.1:${PORT}`;
const processes = serverProcesses();

describe('crash safety of a paid key issued by the Stripe webhook', () => {
  it('after a SIGKILL with the key email in flight and a restart: one key, one email, and the key works', async () => {
    const peer = new SmtpPeer(SMTP_PORT);
    await peer.start();
    const { env, dataDir } = crashTestEnv(PORT, peer.url, stripeEnv());
    const who = {
      subscription: stripeId('sub'),
      customer: stripeId('cus'),
      email: `crash.${process.pid}@example.com`,
    };
    const delivery = signedEvent('checkout.session.completed', checkoutSession({ ...who, plan: 'elite' }));
    const deliver = () =>
      fetch(`${base}/api/stripe/webhook`, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.payload,
      });
    try {
      peer.hold = true;
      let server = processes.start(env);
      await processes.ready(base);
      expect((await deliver()).status).toBe(200);
      await waitFor(() => peer.holding >= 1, 'the key email in flight', 30_000);
      server.kill('SIGKILL');
      await processes.exited(server);
      peer.hold = false;
      expect(peer.received).toHaveLength(0);

      server = processes.start(env);
      await processes.ready(base);
      // Stripe delivers again when it missed the answer: the event is known, nothing is issued twice.
      const again = await deliver();
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ received: true, duplicate: true });
      const email = await waitFor(() => peer.to(who.email)[0], 'the key email after the restart', 60_000);
      const key = keyInEmail(email.raw)!;
      const me = await fetch(`${base}/v1/me`, { headers: { 'x-api-key': key } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { plan: { id: string } }).plan.id).toBe('elite');
      const token = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
      const listed = (await (
        await fetch(`${base}/admin/keys`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { keys: { stripeSubscription: string | null }[] };
      expect(listed.keys.filter((row) => row.stripeSubscription === who.subscription)).toHaveLength(1);
      server.kill('SIGTERM');
      await processes.exited(server);

      // The server is stopped: whatever the database says is final.
      const handle = await openStoppedDatabase(env);
      try {
        const keys = await handle.db
          .select()
          .from(apiKeys)
          .where(eq(apiKeys.stripeSubscriptionId, who.subscription));
        expect(keys).toHaveLength(1);
        const emails = await handle.db
          .select()
          .from(emailOutbox)
          .where(eq(emailOutbox.apiKeyId, keys[0]!.id));
        expect(emails.map((row) => [row.status, row.sealedSecret])).toEqual([['sent', null]]);
        expect(peer.to(who.email)).toHaveLength(1);
      } finally {
        await handle.close();
      }
    } finally {
      await peer.stop();
    }
  }, 600_000);
});
