import type { Redis } from 'ioredis';
import { counterClient } from '../http/redis.ts';

// Per-key request quotas of the paid API: a fixed window per key ("250 requests per minute" read literally), counted
// atomically in memory or in Redis (one Lua script on Redis's clock, so every instance shares one count). Unlike the
// GCRA limiter (docs/decisions/020-024) (`app.rateLimiter`, which refills continuously and suits abuse control), a window admits
// exactly `limit` requests however fast they arrive, and its reset time is exact, which is what the RateLimit
// headers promise. Each key's windows are offset by a per-key phase so that all clients do not reset at :00.

export interface QuotaResult {
  allowed: boolean;
  /** Requests left in this window. */
  remaining: number;
  /** Milliseconds until this window ends and the full quota is back. */
  resetMs: number;
  /** Requests counted in this window, this one included (refused ones too). */
  used: number;
}

export interface QuotaCounter {
  take(key: string, phase: number, limit: number, windowMs: number): Promise<QuotaResult>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

function result(count: number, limit: number, resetMs: number): QuotaResult {
  return { allowed: count <= limit, remaining: Math.max(0, limit - count), resetMs, used: count };
}

export class MemoryQuota implements QuotaCounter {
  private readonly windows = new Map<string, { index: number; count: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async take(key: string, phase: number, limit: number, windowMs: number): Promise<QuotaResult> {
    const shifted = this.now() - (phase % windowMs);
    const index = Math.floor(shifted / windowMs);
    const resetMs = (index + 1) * windowMs - shifted;
    let window = this.windows.get(key);
    if (!window || window.index !== index) {
      window = { index, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return result(window.count, limit, resetMs);
  }

  /** Forgets counters of past windows (assumes the one-minute windows of the API). */
  private sweep() {
    const index = Math.floor(this.now() / 60_000);
    for (const [key, window] of this.windows) if (window.index < index - 1) this.windows.delete(key);
  }

  async ping() {}

  async close() {
    clearInterval(this.sweeper);
  }
}

const WINDOW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local phase = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local shifted = now - phase
local index = math.floor(shifted / window)
local key = KEYS[1] .. ':' .. index
local count = redis.call('INCR', key)
if count == 1 then redis.call('PEXPIRE', key, window * 2) end
return {count, (index + 1) * window - shifted}
`;

type RedisWithWindow = Redis & {
  slWindow(key: string, phase: number, windowMs: number): Promise<[number, number]>;
};

export class RedisQuota implements QuotaCounter {
  private readonly redis: RedisWithWindow;

  constructor(url: string, keyPrefix: string) {
    this.redis = counterClient(url, keyPrefix, { slWindow: WINDOW_LUA }) as RedisWithWindow;
  }

  async connect(): Promise<void> {
    await this.redis.connect();
  }

  async take(key: string, phase: number, limit: number, windowMs: number): Promise<QuotaResult> {
    const [count, resetMs] = await this.redis.slWindow(key, phase % windowMs, windowMs);
    return result(count, limit, resetMs);
  }

  async ping() {
    await this.redis.ping();
  }

  async close() {
    this.redis.disconnect();
  }
}

/** A stable phase in [0, windowMs) for a key id. */
export function phaseOf(keyId: number, windowMs: number): number {
  return (keyId * 7919) % windowMs;
}
