import { hostname } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { dbKinds } from '../db/plugin.ts';
import { OutboxWorker } from './outbox.ts';
import { fileMailer, smtpMailer } from './transport.ts';

declare module 'fastify' {
  interface FastifyInstance {
    outbox: OutboxWorker;
  }
}

/** The email outbox worker: starts when the app is ready, stops (finishing the email in hand) on close. */
export const outboxPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const mailer = config.SMTP_URL
      ? smtpMailer(config.SMTP_URL)
      : fileMailer(path.join(config.dataDir, 'outbox'));
    const worker = new OutboxWorker(
      app.db,
      mailer,
      app.secrets,
      {
        from: config.MAIL_FROM,
        siteUrl: config.SITE_URL,
        pollMs: config.OUTBOX_POLL_MS,
        leaseMs: config.OUTBOX_LEASE_MS,
        backoffMs: config.OUTBOX_BACKOFF_MS,
        maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
        singleProcess: dbKinds.get(app.db) === 'pglite',
        // Two processes cannot listen on one port of one host, so `<hostname>:<PORT>` names one live instance; with
        // PORT=0 (any port) there is no stable name and a dead incarnation's claims wait for their lease.
        instanceId: config.INSTANCE_ID ?? (config.PORT === 0 ? undefined : `${hostname()}:${config.PORT}`),
        sealedTtlMs: config.OUTBOX_SEALED_TTL_MS,
      },
      app.log.child({ component: 'outbox' }),
    );
    app.decorate('outbox', worker);
    app.addHook('onReady', async () => {
      await worker.start();
    });
    // Runs before the db plugin's onClose (hooks run in reverse registration order), so the database is still open.
    app.addHook('onClose', async () => {
      await worker.close();
    });
  },
  { name: 'email-outbox', dependencies: ['db', 'secrets'] },
);
