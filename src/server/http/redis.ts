import { Redis } from 'ioredis';

/**
 * A Redis client for counters on the request path (trial rate limits, API quotas): connects on `connect()`, keys
 * under `keyPrefix`, and fails fast while disconnected instead of queueing requests behind a dead connection.
 * Each of `scripts` (name → Lua) is registered as a custom command of one key, so each check is one atomic round trip.
 */
export function counterClient(url: string, keyPrefix: string, scripts: Record<string, string>): Redis {
  const redis = new Redis(url, {
    keyPrefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  for (const [name, lua] of Object.entries(scripts)) redis.defineCommand(name, { numberOfKeys: 1, lua });
  return redis;
}
