import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { describeError } from '../http/log-safe.ts';
import { UsageCounter } from './counter.ts';

// Per-key daily usage (docs/decisions/155-usage-counting-and-key-rotation.md) as `app.usage`: the /v1 scope counts
// each admitted request and each stream's minutes, POST /v1/sgp each credit spent, and GET /v1/me/usage reads them.
// The deltas are flushed every `flushMs` and at shutdown (before the database closes: onClose hooks run in reverse
// order of registration).

declare module 'fastify' {
  interface FastifyInstance {
    usage: UsageCounter;
  }
}

/** How often each instance writes the usage it counted (default). */
export const USAGE_FLUSH_MS = 5_000;

export interface UsagePluginOptions {
  /** The clock of the UTC days and stream minutes (tests pass a virtual clock). */
  now?: () => number;
  /** Between flushes (default 5 s); tests lengthen it to show unflushed counts. */
  flushMs?: number;
  /** False: nothing is counted (the bench's baseline). */
  enabled?: boolean;
}

export const usagePlugin = fp(
  async (app: FastifyInstance, options: UsagePluginOptions) => {
    const counter = new UsageCounter(app.db, { now: options.now, enabled: options.enabled });
    app.decorate('usage', counter);
    const flush = () =>
      counter.flush().catch((error: unknown) => {
        app.log.warn({ error: describeError(error) }, 'usage counts not flushed (kept for the next flush)');
      });
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      timer = setInterval(() => void flush(), options.flushMs ?? USAGE_FLUSH_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await flush();
    });
  },
  { name: 'usage', dependencies: ['db'] },
);
