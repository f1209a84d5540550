import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { TrialExpiryReminders } from './expiry-reminders.ts';
import { TrialService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    trials: TrialService;
    /** The "your trial ends soon" emails, about a day before each trial key expires (decision 151). */
    trialReminders: TrialExpiryReminders;
  }
}

export interface TrialsPluginOptions {
  /** The clock deciding which trial keys expire within a day (tests pass a virtual clock). */
  now?: (() => number) | undefined;
}

export const trialsPlugin = fp(
  async (app: FastifyInstance, options: TrialsPluginOptions) => {
    app.decorate('trials', new TrialService(app.db, app.secrets, app.config.SITE_URL));
    const reminders = new TrialExpiryReminders(
      app.db,
      app.secrets,
      app.config.SITE_URL,
      options.now ?? Date.now,
      app.log.child({ component: 'trial-reminders' }),
      // The outbox plugin is registered after this one; the reminders start once the app is ready.
      () => app.outbox.kick(),
    );
    app.decorate('trialReminders', reminders);
    app.addHook('onReady', async () => reminders.start());
    // Before the database closes (hooks run in reverse registration order).
    app.addHook('onClose', async () => reminders.stop());
  },
  { name: 'trials', dependencies: ['db', 'secrets'] },
);
