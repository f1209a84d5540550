import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { counterClient } from './redis.ts';

// The server's counters, one store for both kinds (decision 105), in memory by default or in Redis when REDIS_URL is
// set (so that every instance shares them; each check is one Lua script on Redis's clock, one atomic round trip):
// - `hit(key, limit, windowMs)`: GCRA, at most `limit` hits per rolling `windowMs` (a burst of `limit`, then one more
//   every windowMs/limit). For abuse control: trial requests per address and per mailbox.
// - `window(key, phase, limit, windowMs)`: a fixed window, exactly `limit` per window however fast they arrive, with
//   an exact reset time, which is what the paid API's RateLimit headers promise ("250 requests per minute" read
//   literally). `phase` offsets a key's windows so that all keys do not reset at :00. `cost` (default 1) is how many
//   requests one call counts for (/v1/historical/odds: 10); a refused call of cost > 1 is not charged, so the
//   cheaper requests that still fit stay admitted. Cost 0 reads the window without charging it (the account's own
//   calls, which are free: issue 56, decision 218).
// - `distinct(key, member, limit, windowMs)`: at most `limit` distinct members per key within `windowMs` of each one's
//   first admission; a member already admitted is admitted again. For abuse control: the mailboxes asking for trials
//   from one client address in a day (decision 219).

export interface RateLimitResult {
  allowed: boolean;
  /** Further hits admitted right now. */
  remaining: number;
  /** When refused: milliseconds until the next hit would be admitted. */
  retryAfterMs: number;
}

export interface WindowResult {
  allowed: boolean;
  /** Requests left in this window. */
  remaining: number;
  /** Milliseconds until this window ends and the full limit is back. */
  resetMs: number;
  /** Requests counted in this window, this one included (refused ones too, except a refused call of cost > 1). */
  used: number;
}

export interface RateLimiter {
  /** Callers namespace their keys (`trial:ip:…`); one key must always be used with the same limit and window. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  window(key: string, phase: number, limit: number, windowMs: number, cost?: number): Promise<WindowResult>;
  /**
   * Admits `member` if it was admitted under `key` within `windowMs`, or if fewer than `limit` members were; refused,
   * `retryAfterMs` is when the oldest member's window ends. One key must always be used with the same limit and window.
   */
  distinct(key: string, member: string, limit: number, windowMs: number): Promise<RateLimitResult>;
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

/** `count`: the counter after this call; `charged`: false when a refused call of cost > 1 was taken back. */
function windowResult(count: number, limit: number, resetMs: number, charged = true): WindowResult {
  return {
    allowed: charged && count <= limit,
    remaining: Math.max(0, limit - count),
    resetMs,
    used: count,
  };
}

function checkCost(cost: number): void {
  if (!Number.isSafeInteger(cost) || cost < 0)
    throw new RangeError(`cost must be an integer >= 0, got ${cost}`);
}

/** The fixed window `now` falls in, shifted by `phase`: its index and the milliseconds until it ends. */
export function fixedWindow(
  now: number,
  phase: number,
  windowMs: number,
): { index: number; resetMs: number } {
  const shifted = now - (phase % windowMs);
  const index = Math.floor(shifted / windowMs);
  return { index, resetMs: (index + 1) * windowMs - shifted };
}

interface Counter {
  /** GCRA: the theoretical arrival time; window: the count. */
  value: number;
  /** After this (limiter clock), the counter says nothing any more and may be forgotten. */
  expiresAt: number;
  /** Window counters are never evicted early: forgetting one would admit more than the limit. */
  window: boolean;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, Counter>();
  /** `distinct` sets: key → member → when its admission expires; least recently used first. */
  private readonly sets = new Map<string, Map<string, number>>();
  private gcraCount = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly now: () => number = Date.now,
    /** GCRA keys kept at most (an attacker picks them: addresses, mailboxes); the least recently hit go first. */
    private readonly maxKeys = 200_000,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const id = `rl:${key}`;
    const stored = this.counters.get(id);
    const { result, newTat } = gcra(stored?.value, now, limit, windowMs);
    if (newTat !== undefined) {
      if (stored) this.counters.delete(id);
      else this.gcraCount += 1;
      this.counters.set(id, { value: newTat, expiresAt: newTat, window: false });
      if (this.gcraCount > this.maxKeys) this.sweep();
    }
    return result;
  }

  async window(key: string, phase: number, limit: number, windowMs: number, cost = 1): Promise<WindowResult> {
    checkCost(cost);
    const now = this.now();
    const { index, resetMs } = fixedWindow(now, phase, windowMs);
    const id = `quota:${key}:${index}`;
    let counter = this.counters.get(id);
    // A read: nothing is stored for a window nobody charged.
    if (cost === 0) return windowResult(counter?.value ?? 0, limit, resetMs);
    if (!counter) {
      counter = { value: 0, expiresAt: now + resetMs, window: true };
      this.counters.set(id, counter);
    }
    counter.value += cost;
    if (cost > 1 && counter.value > limit) {
      counter.value -= cost;
      return windowResult(counter.value, limit, resetMs, false);
    }
    return windowResult(counter.value, limit, resetMs);
  }

  async distinct(key: string, member: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    let set = this.sets.get(key);
    if (set) {
      for (const [held, expiresAt] of set) if (expiresAt <= now) set.delete(held);
      // Most recently used last: the bound below forgets the least recently used sets first.
      this.sets.delete(key);
      this.sets.set(key, set);
    } else {
      set = new Map();
      this.sets.set(key, set);
      // Keys are chosen by clients (addresses): bounded like GCRA keys.
      if (this.sets.size > this.maxKeys) this.sets.delete(this.sets.keys().next().value!);
    }
    if (set.has(member)) return { allowed: true, remaining: Math.max(0, limit - set.size), retryAfterMs: 0 };
    if (set.size >= limit) {
      const oldest = Math.min(...set.values());
      return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, Math.ceil(oldest - now)) };
    }
    set.set(member, now + windowMs);
    return { allowed: true, remaining: limit - set.size, retryAfterMs: 0 };
  }

  /** Forgets counters that say nothing any more; if still too many GCRA keys, the least recently hit ones. */
  private sweep() {
    const now = this.now();
    for (const [key, set] of this.sets) {
      for (const [held, expiresAt] of set) if (expiresAt <= now) set.delete(held);
      if (set.size === 0) this.sets.delete(key);
    }
    for (const [id, counter] of this.counters) {
      if (counter.expiresAt > now) continue;
      this.counters.delete(id);
      if (!counter.window) this.gcraCount -= 1;
    }
    for (const [id, counter] of this.counters) {
      if (this.gcraCount <= this.maxKeys) break;
      if (counter.window) continue;
      this.counters.delete(id);
      this.gcraCount -= 1;
    }
  }

  /** Counters held (for tests of the sweep). */
  get size(): number {
    return this.counters.size;
  }

  /** `distinct` sets held. */
  get setCount(): number {
    return this.sets.size;
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

const WINDOW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local phase = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local shifted = now - phase
local index = math.floor(shifted / window)
local key = KEYS[1] .. ':' .. index
if cost == 0 then
  return {tonumber(redis.call('GET', key) or '0'), (index + 1) * window - shifted, 1}
end
local count = redis.call('INCRBY', key, cost)
if count == cost then redis.call('PEXPIRE', key, window * 2) end
if cost > 1 and count > limit then
  return {redis.call('DECRBY', key, cost), (index + 1) * window - shifted, 0}
end
return {count, (index + 1) * window - shifted, 1}
`;

// Scores are when each member's admission expires (Redis's clock).
const DISTINCT_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local count = redis.call('ZCARD', KEYS[1])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return {1, math.max(0, limit - count), 0}
end
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, 0, math.max(1, math.ceil(tonumber(oldest[2]) - now))}
end
redis.call('ZADD', KEYS[1], now + window, ARGV[1])
redis.call('PEXPIRE', KEYS[1], window)
return {1, limit - count - 1, 0}
`;

type RedisCounters = Redis & {
  slDistinct(key: string, member: string, limit: number, windowMs: number): Promise<[number, number, number]>;
  slGcra(key: string, limit: number, windowMs: number): Promise<[number, number, number]>;
  slWindow(
    key: string,
    phase: number,
    windowMs: number,
    cost: number,
    limit: number,
  ): Promise<[number, number, number]>;
};

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisCounters;

  /**
   * Keys are `<keyPrefix>rl:<key>` (GCRA), `<keyPrefix>quota:<key>:<window index>` (fixed windows) and
   * `<keyPrefix>set:<key>` (distinct members, a sorted set).
   */
  constructor(url: string, keyPrefix: string) {
    this.redis = counterClient(url, keyPrefix, {
      slGcra: GCRA_LUA,
      slWindow: WINDOW_LUA,
      slDistinct: DISTINCT_LUA,
    }) as RedisCounters;
  }

  async connect(): Promise<void> {
    await this.redis.connect();
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    if (!(limit >= 1) || !(windowMs > 0)) throw new RangeError('limit must be >= 1 and windowMs > 0');
    const [allowed, remaining, retryAfterMs] = await this.redis.slGcra(`rl:${key}`, limit, windowMs);
    return { allowed: allowed === 1, remaining, retryAfterMs };
  }

  async window(key: string, phase: number, limit: number, windowMs: number, cost = 1): Promise<WindowResult> {
    checkCost(cost);
    const [count, resetMs, charged] = await this.redis.slWindow(
      `quota:${key}`,
      phase % windowMs,
      windowMs,
      cost,
      limit,
    );
    return windowResult(count, limit, resetMs, charged === 1);
  }

  async distinct(key: string, member: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    if (!(limit >= 1) || !(windowMs > 0)) throw new RangeError('limit must be >= 1 and windowMs > 0');
    const [allowed, remaining, retryAfterMs] = await this.redis.slDistinct(
      `set:${key}`,
      member,
      limit,
      windowMs,
    );
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

export interface RateLimitPluginOptions {
  /** The in-memory store's clock (tests pass a virtual one; Redis uses its own). */
  now?: (() => number) | undefined;
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: RateLimitPluginOptions) => {
    const { REDIS_URL, REDIS_PREFIX } = app.config;
    let limiter: RateLimiter;
    if (REDIS_URL) {
      const redisLimiter = new RedisRateLimiter(REDIS_URL, REDIS_PREFIX);
      await redisLimiter.connect();
      limiter = redisLimiter;
    } else {
      limiter = new MemoryRateLimiter(options.now);
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
