import { describe, expect, it } from 'vitest';
import { clientAddressKey, isLoopback } from './client-address.ts';
import { fixedWindow, gcra, MemoryRateLimiter } from './rate-limit.ts';

const HOUR = 3_600_000;

describe('MemoryRateLimiter.hit', () => {
  it('admits five hits per hour, then refuses with the time until the next one', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    const results = [];
    for (let i = 0; i < 6; i += 1) results.push(await limiter.hit('k', 5, HOUR));
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, true, true, false]);
    expect(results.map((result) => result.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(results[5]!.retryAfterMs).toBe(HOUR / 5);
    now += HOUR / 5 - 1;
    expect((await limiter.hit('k', 5, HOUR)).allowed).toBe(false);
    now += 1;
    expect((await limiter.hit('k', 5, HOUR)).allowed).toBe(true);
    expect((await limiter.hit('other', 5, HOUR)).allowed).toBe(true);
    await limiter.close();
  });

  it('never admits more than the limit within any window, whatever the spacing of hits', () => {
    // Deterministic pseudo-random spacing; checks the sliding-window invariant of GCRA.
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    let tat: number | undefined;
    let now = 0;
    const admitted: number[] = [];
    for (let i = 0; i < 5000; i += 1) {
      now += Math.floor(random() * 2000);
      const step = gcra(tat, now, 10, 60_000);
      if (step.result.allowed) {
        admitted.push(now);
        tat = step.newTat;
      }
    }
    for (let i = 10; i < admitted.length; i += 1)
      expect(admitted[i]! - admitted[i - 10]!).toBeGreaterThanOrEqual(6000);
    expect(admitted.length).toBeGreaterThan(100);
  });

  it('is atomic under concurrent hits', async () => {
    const limiter = new MemoryRateLimiter();
    const results = await Promise.all(Array.from({ length: 100 }, () => limiter.hit('burst', 10, HOUR)));
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
    await limiter.close();
  });
});

describe('MemoryRateLimiter.distinct', () => {
  const DAY = 86_400_000;

  it('admits limit distinct members a window, a member again at any time, and the next member once the oldest expires', async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter(() => now);
    for (let i = 0; i < 3; i += 1) {
      expect(await limiter.distinct('office', `m${i}`, 3, DAY)).toEqual({
        allowed: true,
        remaining: 2 - i,
        retryAfterMs: 0,
      });
      now += 1_000;
    }
    // A fourth member is refused until the first one's day has passed; the three are admitted again meanwhile.
    expect(await limiter.distinct('office', 'm3', 3, DAY)).toEqual({
      allowed: false,
      remaining: 0,
      retryAfterMs: DAY - 3_000,
    });
    for (let i = 0; i < 3; i += 1)
      expect((await limiter.distinct('office', `m${i}`, 3, DAY)).allowed).toBe(true);
    expect((await limiter.distinct('elsewhere', 'm3', 3, DAY)).allowed).toBe(true);
    now = DAY;
    expect((await limiter.distinct('office', 'm3', 3, DAY)).allowed).toBe(true);
    expect((await limiter.distinct('office', 'm4', 3, DAY)).allowed).toBe(false);
    await limiter.close();
  });

  it('keeps at most maxKeys sets, forgetting the least recently used', async () => {
    const limiter = new MemoryRateLimiter(() => 0, 2);
    await limiter.distinct('a', 'x', 1, DAY);
    await limiter.distinct('b', 'x', 1, DAY);
    await limiter.distinct('a', 'x', 1, DAY);
    await limiter.distinct('c', 'x', 1, DAY);
    expect(limiter.setCount).toBe(2);
    // `b` was forgotten, `a` was not.
    expect((await limiter.distinct('a', 'y', 1, DAY)).allowed).toBe(false);
    expect((await limiter.distinct('b', 'y', 1, DAY)).allowed).toBe(true);
    await limiter.close();
  });
});

describe('MemoryRateLimiter.window', () => {
  const MINUTE = 60_000;

  it('admits exactly the limit in a window, counts refusals, and resets at the window end', async () => {
    let now = 10 * MINUTE + 15_000;
    const limiter = new MemoryRateLimiter(() => now);
    const results = await Promise.all(Array.from({ length: 8 }, () => limiter.window('key:1', 0, 5, MINUTE)));
    expect(results.map((result) => result.allowed)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(results.map((result) => result.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    expect(results.map((result) => result.used)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(results[7]!.resetMs).toBe(45_000);
    now += 45_000 - 1;
    expect((await limiter.window('key:1', 0, 5, MINUTE)).allowed).toBe(false);
    now += 1;
    const fresh = await limiter.window('key:1', 0, 5, MINUTE);
    expect(fresh).toEqual({ allowed: true, remaining: 4, resetMs: MINUTE, used: 1 });
    await limiter.close();
  });

  it('charges a call its cost; a refused costly call is not charged, so cheaper requests still fit', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    const costly = [];
    for (let i = 0; i < 3; i += 1) costly.push(await limiter.window('key:2', 0, 25, MINUTE, 10));
    expect(costly.map((result) => [result.allowed, result.remaining, result.used])).toEqual([
      [true, 15, 10],
      [true, 5, 20],
      [false, 5, 20],
    ]);
    const cheap = [];
    for (let i = 0; i < 6; i += 1) cheap.push((await limiter.window('key:2', 0, 25, MINUTE)).allowed);
    expect(cheap).toEqual([true, true, true, true, true, false]);
    await expect(limiter.window('key:2', 0, 25, MINUTE, -1)).rejects.toThrow(RangeError);
    await limiter.close();
  });

  it('reads a window at cost 0 without charging it, and stores nothing for a window nobody charged', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    expect(await limiter.window('key:3', 0, 5, MINUTE, 0)).toEqual({
      allowed: true,
      remaining: 5,
      resetMs: MINUTE,
      used: 0,
    });
    expect(limiter.size).toBe(0);
    await limiter.window('key:3', 0, 5, MINUTE);
    await limiter.window('key:3', 0, 5, MINUTE);
    for (let i = 0; i < 3; i += 1) {
      expect(await limiter.window('key:3', 0, 5, MINUTE, 0)).toMatchObject({ remaining: 3, used: 2 });
    }
    expect((await limiter.window('key:3', 0, 5, MINUTE)).used).toBe(3);
    await limiter.close();
  });

  it('offsets a key’s windows by its phase', () => {
    expect(fixedWindow(10 * MINUTE, 0, MINUTE)).toEqual({ index: 10, resetMs: MINUTE });
    expect(fixedWindow(10 * MINUTE, 20_000, MINUTE)).toEqual({ index: 9, resetMs: 20_000 });
    expect(fixedWindow(10 * MINUTE, MINUTE + 20_000, MINUTE)).toEqual({ index: 9, resetMs: 20_000 });
  });

  it('shares nothing between a window key and a GCRA key of the same name', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    expect((await limiter.window('same', 0, 1, MINUTE)).allowed).toBe(true);
    expect((await limiter.hit('same', 1, MINUTE)).allowed).toBe(true);
    expect((await limiter.window('same', 0, 1, MINUTE)).allowed).toBe(false);
    await limiter.close();
  });

  it('never forgets a live window counter to make room for GCRA keys', async () => {
    const limiter = new MemoryRateLimiter(() => 0, 10);
    await limiter.window('key:7', 0, 1, MINUTE);
    for (let i = 0; i < 50; i += 1) await limiter.hit(`ip:${i}`, 5, MINUTE);
    expect(limiter.size).toBe(11);
    expect((await limiter.window('key:7', 0, 1, MINUTE)).allowed).toBe(false);
    await limiter.close();
  });
});

describe('client addresses', () => {
  it('keys IPv4 as is, unwraps IPv4-mapped IPv6 and groups IPv6 by /64', () => {
    expect(clientAddressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
  });

  it('recognises loopback peers only', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      expect(isLoopback(address)).toBe(true);
    for (const address of ['10.0.0.1', '::2', '203.0.113.1', '::ffff:10.0.0.1', undefined])
      expect(isLoopback(address)).toBe(false);
  });
});
