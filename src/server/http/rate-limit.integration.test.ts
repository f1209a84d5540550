import { afterAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from './rate-limit.ts';

// RedisRateLimiter against REDIS_URL: the same answers as the in-memory limiter, atomic across clients.

const url = process.env.REDIS_URL;
if (!url) throw new Error('The integration suite needs REDIS_URL');
const prefix = `sharpline-it:rl-${process.pid}-${Date.now().toString(36)}:`;
const limiters: RedisRateLimiter[] = [];

async function limiter() {
  const created = new RedisRateLimiter(url!, prefix);
  await created.connect();
  limiters.push(created);
  return created;
}

afterAll(async () => {
  await limiters[0]?.clear();
  await Promise.all(limiters.map((created) => created.close()));
});

describe('RedisRateLimiter.hit', () => {
  it('admits five hits per hour, then refuses with the time until the next one', async () => {
    const redis = await limiter();
    const results = [];
    for (let i = 0; i < 6; i += 1) results.push(await redis.hit('five', 5, 3_600_000));
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, true, true, false]);
    expect(results.map((result) => result.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(results[5]!.retryAfterMs).toBeGreaterThan(700_000);
    expect(results[5]!.retryAfterMs).toBeLessThanOrEqual(720_000);
  });

  it('is atomic across connections: 100 concurrent hits from two clients admit exactly 10', async () => {
    const [a, b] = [await limiter(), await limiter()];
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).hit('burst', 10, 3_600_000)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
  });

  it('admits again once the window has refilled', async () => {
    const redis = await limiter();
    expect((await redis.hit('short', 1, 200)).allowed).toBe(true);
    expect((await redis.hit('short', 1, 200)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await redis.hit('short', 1, 200)).allowed).toBe(true);
  });

  it('window: a call costs its cost, and a refused costly call is taken back', async () => {
    const redis = await limiter();
    const phase = (Date.now() + 30_000) % 60_000;
    const costly = [];
    for (let i = 0; i < 3; i += 1) costly.push(await redis.window('key:cost', phase, 25, 60_000, 10));
    expect(costly.map((result) => [result.allowed, result.remaining, result.used])).toEqual([
      [true, 15, 10],
      [true, 5, 20],
      [false, 5, 20],
    ]);
    expect((await redis.window('key:cost', phase, 25, 60_000)).remaining).toBe(4);
  });

  it('distinct: admits limit distinct members, a member again, refuses the next with the wait until the oldest expires', async () => {
    const redis = await limiter();
    const day = 86_400_000;
    for (let i = 0; i < 3; i += 1)
      expect((await redis.distinct('office', `m${i}`, 3, day)).allowed).toBe(true);
    const refused = await redis.distinct('office', 'm3', 3, day);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(day - 60_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(day);
    expect(await redis.distinct('office', 'm1', 3, day)).toEqual({
      allowed: true,
      remaining: 0,
      retryAfterMs: 0,
    });
    expect((await redis.distinct('elsewhere', 'm3', 3, day)).allowed).toBe(true);
  });

  it('window: cost 0 reads the count without charging it', async () => {
    const redis = await limiter();
    const phase = (Date.now() + 30_000) % 60_000;
    expect(await redis.window('key:read', phase, 5, 60_000, 0)).toMatchObject({ used: 0, remaining: 5 });
    await redis.window('key:read', phase, 5, 60_000);
    expect(await redis.window('key:read', phase, 5, 60_000, 0)).toMatchObject({ used: 1, remaining: 4 });
    expect((await redis.window('key:read', phase, 5, 60_000)).used).toBe(2);
  });

  it('window: 2 × 10 concurrent requests from two clients admit exactly 10 in one window', async () => {
    const [a, b] = [await limiter(), await limiter()];
    const phase = (Date.now() + 30_000) % 60_000;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).window('key:1', phase, 10, 60_000)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
    expect(results.map((result) => result.used).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    for (const result of results) {
      expect(result.resetMs).toBeGreaterThan(0);
      expect(result.resetMs).toBeLessThanOrEqual(60_000);
    }
  });

  it('removes its keys with clear()', async () => {
    const redis = await limiter();
    await redis.hit('to-clear', 1, 60_000);
    await redis.clear();
    expect((await redis.hit('to-clear', 1, 60_000)).allowed).toBe(true);
  });
});
