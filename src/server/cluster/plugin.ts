import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { delayMs, PLANS } from '#domain/plans.ts';
import { LeaderLease } from './leader-lease.ts';
import {
  ClusterFollower,
  ClusterPublisher,
  clusterKeys,
  idTime,
  type PublisherOptions,
} from './replication.ts';

// ROLE=ingest and ROLE=api (issue 19, decision 144). An ingest instance competes for the leader lease; while it leads,
// it runs a fresh odds source and publishes what its engine accepts and publishes. An api instance follows the stream.
// ROLE=all (the default, `npm start`) registers nothing here.

/** An api instance this far behind the newest entry of the stream is not ready (issue 19). */
export const MAX_LAG_MS = 5_000;

export interface ClusterPluginOptions {
  lease?: { ttlMs?: number; intervalMs?: number };
  publisher?: PublisherOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** ROLE=api: what follows the leader's stream (the stream hub names its changes by it); null otherwise. */
    clusterFollower: ClusterFollower | null;
  }
}

export const clusterPlugin = fp(
  async (app: FastifyInstance, options: ClusterPluginOptions) => {
    const { ROLE: role, REDIS_URL: url, REDIS_PREFIX: prefix } = app.config;
    app.decorate('clusterFollower', null);
    if (role === 'all') return;
    if (!url) throw new Error(`REDIS_URL is required when ROLE is ${role}`);
    const instance = app.config.INSTANCE_ID ?? `${hostname()}:${app.config.PORT}`;
    const keys = clusterKeys(prefix);
    const ttlMs = options.lease?.ttlMs ?? app.config.LEADER_LEASE_MS;
    const leaseOptions = { ttlMs, intervalMs: options.lease?.intervalMs ?? Math.floor(ttlMs / 5) };
    // Commands fail fast while Redis is away (the lease then runs out by its own clock) rather than queue.
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    redis.on('error', () => {});
    const log = {
      info: (details: Record<string, unknown>, message: string) => app.log.info(details, message),
      warn: (details: Record<string, unknown>, message: string) => app.log.warn(details, message),
    };

    let lease: LeaderLease | undefined;
    let publisher: ClusterPublisher | undefined;
    let follower: ClusterFollower | undefined;
    let leadSince: number | null = null;
    /** The stream's newest entry when this instance took the lead: the end of the previous leader's output. */
    let previousEntryId: string | null = null;
    // Leadership changes run one at a time, in the order they happened.
    let transitions = Promise.resolve();

    if (role === 'ingest') {
      lease = new LeaderLease(redis, keys.lease, instance, leaseOptions);
      // The stream reaches back as far as the longest plan delay: every api instance can then show delayed plans the
      // market as it was, however recently it started (decision 146).
      publisher = new ClusterPublisher(redis, keys, app.engine, log, {
        retainMs: Math.max(...PLANS.map(delayMs)),
        // How far the shared odds history is written, for the api instances' /readyz.
        progress: () => {
          const stats = app.history.stats();
          return {
            writtenUpTo: stats.writtenUpTo,
            queuedChanges: stats.queuedChanges,
            failingSince: stats.failingSince,
            fencedBatches: stats.fencedBatches,
          };
        },
        ...options.publisher,
      });
      const ownLease = lease;
      const ownPublisher = publisher;
      ownLease.onChange((leading) => {
        const fence = ownLease.fence;
        transitions = transitions.then(async () => {
          try {
            if (leading && fence !== null) {
              leadSince = Date.now();
              previousEntryId = (await redis.xrevrange(keys.stream, '+', '-', 'COUNT', 1))[0]?.[0] ?? null;
              app.log.info({ instance, fence }, 'cluster: leading; starting the odds source');
              ownPublisher.begin(fence);
              // The history this lead gathers is written under its token; a deposed leader's is refused (decision 146).
              app.history.lead({ token: Number(fence.slice(0, fence.indexOf(':'))), holder: instance });
              await app.ingestControl.lead(
                (message, at) => ownPublisher.accepted(message, at),
                () => ownPublisher.ready(),
              );
            } else {
              leadSince = null;
              app.log.warn({ instance }, 'cluster: no longer leading; stopping the odds source');
              await ownPublisher.end();
              await app.ingestControl.follow();
            }
          } catch (error) {
            app.log.error({ err: error }, 'cluster: leadership change failed');
          }
        });
      });
    } else {
      const reader = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null });
      reader.on('error', () => {});
      follower = new ClusterFollower(reader, keys, app.engine, log);
      app.clusterFollower = follower;
    }

    app.readiness.register('cluster', async () => {
      const [holder, ttl, newest] = await Promise.all([
        redis.get(keys.lease),
        redis.pttl(keys.lease),
        redis.xrevrange(keys.stream, '+', '-', 'COUNT', 1),
      ]);
      const newestId = newest[0]?.[0] ?? null;
      const details: Record<string, unknown> = {
        role,
        instance,
        leader: holder,
        leaseAgeMs: holder && ttl >= 0 ? Math.max(0, leaseOptions.ttlMs - ttl) : null,
        newestId,
      };
      if (lease && publisher) {
        details.leading = lease.isLeader;
        details.leadingForMs = leadSince === null ? null : Date.now() - leadSince;
        const published = publisher.stats();
        details.published = published;
        // How long the stream went without a leader's entry when this instance took over (the takeover window).
        details.takeoverGapMs =
          previousEntryId === null || published.firstId === null
            ? null
            : idTime(published.firstId) - idTime(previousEntryId);
        return { ok: true, details };
      }
      const stats = follower!.stats();
      const newestAt = newestId === null ? null : idTime(newestId);
      const lagMs =
        stats.appliedAt === null || newestAt === null ? null : Math.max(0, newestAt - stats.appliedAt);
      Object.assign(details, stats, { lagMs });
      return { ok: stats.following && lagMs !== null && lagMs <= MAX_LAG_MS, details };
    });

    app.addHook('onReady', async () => {
      await redis.connect();
      lease?.start();
      follower?.start();
    });
    app.addHook('preClose', async () => {
      // The lease is given up at once: a standby takes over within one interval, not a TTL.
      await lease?.stop();
      await transitions;
      await publisher?.end();
      await follower?.stop();
    });
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  },
  { name: 'cluster', dependencies: ['readiness', 'engine'] },
);
