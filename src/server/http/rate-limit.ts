import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { counterClient } from './redis.ts';

// One atomic rate-limit primitive for the whole server: `hit(key, limit, windowMs)` admits at most `limit` hits per
// rolling `windowMs` per key (GCRA: a burst of `limit`, then one more every windowMs/limit). In memory by default;
// in Redis (one Lua script, Redis clock) when REDIS_URL is set, so that every instance shares the counters.

export interface RateLimitResult {
  allowed: boolean;
  /** Further hits admitted right now. */
  remaining: number;
  /** When refused: milliseconds until the next hit would be admitted. */
  retryAfterMs: number;
}

export interface RateLimiter {
  /** Callers namespace their keys (`trial:ip:…`); one key must always be used with the same limit and window. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  close(): Promise<void>;
  ping(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimiter: RateLimiter;
  }
}

/** The GCRA step shared by both stores: given the stored theoretical arrival time, decide and return the new one. */
export function gcra(
  storedTat: number | undefined,
  now: number,
  limit: number,
  windowMs: number,
): { result: RateLimitResult; newTat?: number } {
  const interval = windowMs / limit;
  const tat = Math.max(storedTat ?? now, now);
  const newTat = tat + interval;
  const allowAt = newTat - windowMs;
  if (allowAt > now)
    return { result: { allowed: false, remaining: 0, retryAfterMs: Math.ceil(allowAt - now) } };
  return {
    result: {
      allowed: true,
      remaining: Math.floor((now + windowMs - newTat) / interval + 1e-9),
      retryAfterMs: 0,
    },
    newTat,
  };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly tats = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 200_000,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const { result, newTat } = gcra(this.tats.get(key), now, limit, windowMs);
    if (newTat !== undefined) {
      this.tats.delete(key);
      this.tats.set(key, newTat);
      if (this.tats.size > this.maxKeys) this.sweep();
    }
    return result;
  }

  /** Drops keys whose counters have fully refilled; if still too many, the least recently hit ones. */
  private sweep() {
    const now = this.now();
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
    for (const key of this.tats.keys()) {
      if (this.tats.size <= this.maxKeys) break;
      this.tats.delete(key);
    }
  }

  async ping() {}

  async close() {
    clearInterval(this.sweeper);
  }
}

const GCRA_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local interval = window / limit
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local newTat = tat + interval
local allowAt = newTat - window
if allowAt > now then
  return {0, 0, math.ceil(allowAt - now)}
end
redis.call('SET', KEYS[1], string.format('%.3f', newTat), 'PX', math.ceil(newTat - now))
return {1, math.floor((now + window - newTat) / interval + 1e-9), 0}
`;

type RedisWithGcra = Redis & {
  slGcra(key: string, limit: number, windowMs: number): Promise<[number, number, number]>;
};

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisWithGcra;

  constructor(url: string, keyPrefix: string) {
    this.redis = counterClient(url, keyPrefix, 'slGcra', GCRA_LUA) as RedisWithGcra;
  }

  async connect(): Promise<void> {
    await this.redis.connect();
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    if (!(limit >= 1) || !(windowMs > 0)) throw new RangeError('limit must be >= 1 and windowMs > 0');
    const [allowed, remaining, retryAfterMs] = await this.redis.slGcra(key, limit, windowMs);
    return { allowed: allowed === 1, remaining, retryAfterMs };
  }

  async ping() {
    await this.redis.ping();
  }

  async close() {
    this.redis.disconnect();
  }

  /** For tests: remove every key under this limiter's prefix. */
  async clear(): Promise<void> {
    const prefix = this.redis.options.keyPrefix ?? '';
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await this.redis.del(...keys.map((key) => key.slice(prefix.length)));
    } while (cursor !== '0');
  }
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const { REDIS_URL, REDIS_PREFIX } = app.config;
    let limiter: RateLimiter;
    if (REDIS_URL) {
      const redisLimiter = new RedisRateLimiter(REDIS_URL, `${REDIS_PREFIX}rl:`);
      await redisLimiter.connect();
      limiter = redisLimiter;
    } else {
      limiter = new MemoryRateLimiter();
    }
    app.decorate('rateLimiter', limiter);
    app.readiness.register('rate-limit', async () => {
      await limiter.ping();
      return { ok: true, details: { store: REDIS_URL ? 'redis' : 'memory' } };
    });
    app.addHook('onClose', async () => {
      await limiter.close();
    });
  },
  { name: 'rate-limit', dependencies: ['readiness'] },
);
