import type { RateLimiter } from './rate-limit.ts';
import { HttpProblem } from './problem.ts';

// Failed authentications per client (decision 013). Failures are counted with the shared GCRA limiter (memory, or
// Redis across instances): `limit` per minute, then one more every minute/limit. Once a failure is refused, the client
// is blocked on this instance until the limiter would admit one again, and every request of it in that time is refused
// before its credential is even looked at, so a right guess during the block is not told apart from a wrong one and
// costs no database query.

const MINUTE = 60_000;

export class FailureThrottle {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly namespace: string,
    private readonly limit: number,
    /** The limiter's key of a client (the limiter may be Redis: callers pass a keyed hash, not the address). */
    private readonly limiterKey: (client: string) => string = (client) => client,
    private readonly now: () => number = Date.now,
    private readonly maxBlocked = 100_000,
  ) {}

  /** Milliseconds this client must still wait, or 0 when it may try. */
  retryAfterMs(client: string): number {
    const until = this.blockedUntil.get(client);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return left;
    this.blockedUntil.delete(client);
    return 0;
  }

  /** Records one failure; returns how long the client is now blocked (0: not blocked, answer as usual). */
  async failed(client: string): Promise<number> {
    const result = await this.limiter.hit(`${this.namespace}:${this.limiterKey(client)}`, this.limit, MINUTE);
    if (result.allowed) return 0;
    const wait = Math.max(1, result.retryAfterMs);
    this.blockedUntil.delete(client);
    this.blockedUntil.set(client, this.now() + wait);
    if (this.blockedUntil.size > this.maxBlocked) {
      const oldest = this.blockedUntil.keys().next().value;
      if (oldest !== undefined) this.blockedUntil.delete(oldest);
    }
    return wait;
  }
}

/** The 429 problem of a throttled client. */
export function throttledProblem(retryAfterMs: number, detail: string): HttpProblem {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpProblem(
    429,
    'auth-throttled',
    'Too many failed attempts',
    `${detail} Retry in ${seconds} s.`,
    { retry_after_seconds: seconds },
    { 'retry-after': String(seconds) },
  );
}
