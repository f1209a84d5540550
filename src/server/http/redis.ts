import { Redis } from 'ioredis';

/**
 * A Redis client for counters on the request path (trial rate limits, API quotas): connects on `connect()`, keys
 * under `keyPrefix`, and fails fast while disconnected instead of queueing requests behind a dead connection.
 * `script` is registered as a custom command `name` (one key) so that each check is one atomic round trip.
 */
export function counterClient(url: string, keyPrefix: string, name: string, script: string): Redis {
  const redis = new Redis(url, {
    keyPrefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  redis.defineCommand(name, { numberOfKeys: 1, lua: script });
  return redis;
}
