import type { Redis } from 'ioredis';

// One leader among any number of candidates (issue 19, docs/decisions/143-one-ingest-leader-by-a-redis-lease.md): a
// lease in Redis that only its holder can renew, and a fencing token that grows with every new leader. The token is
// part of the lease's value, so that a write made conditional on it (`fencedScript`) is refused, inside Redis, as soon
// as another candidate holds the lease: a deposed leader that comes back after a pause or a partition cannot publish,
// whatever it believes.

/** Takes the lease if nobody holds it: the new token is the fence counter plus one. Returns the token, or nil. */
const ACQUIRE = `
if redis.call('SET', KEYS[1], 'acquiring', 'NX', 'PX', ARGV[2]) then
  local token = redis.call('INCR', KEYS[2])
  redis.call('SET', KEYS[1], token .. ':' .. ARGV[1], 'PX', ARGV[2])
  return token
end
return nil`;

/** Extends the lease only while it is still ours. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/** Gives the lease up only while it is still ours. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/**
 * The Lua prelude of a fenced write: KEYS[1] is the lease, ARGV[1] the holder's lease value. A script built with it
 * answers the error `FENCED` instead of writing when the lease is not (or no longer) the caller's.
 */
export const FENCE_CHECK = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return redis.error_reply('FENCED')
end`;

export interface LeaderLeaseOptions {
  /** The lease's time to live: a dead leader is replaced this long after its last renewal, at most. */
  ttlMs?: number;
  /** How often the leader renews, and a standby tries to take over. */
  intervalMs?: number;
  now?: () => number;
}

export interface LeaseState {
  leader: boolean;
  /** Our fencing token while we lead. */
  token: number | null;
  /** Who holds the lease as last seen (`<token>:<instance>`), and how old its last renewal is (ms). */
  holder: string | null;
  holderTtlMs: number | null;
}

export class LeaderLease {
  private readonly ttlMs: number;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private value: string | null = null;
  private tokenValue: number | null = null;
  /** When our last renewal was acknowledged (our clock): past the TTL we stop leading without waiting for Redis. */
  private renewedAt = 0;
  private holder: string | null = null;
  private holderTtlMs: number | null = null;
  private ticking: Promise<void> | undefined;
  private readonly listeners = new Set<(leader: boolean, token: number | null) => void>();

  constructor(
    private readonly redis: Redis,
    /** The lease key; the fence counter is `<key>:fence`. */
    readonly key: string,
    /** This candidate's name (INSTANCE_ID): it appears in the lease's value and in /readyz. */
    readonly instance: string,
    options: LeaderLeaseOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 5_000;
    this.intervalMs = options.intervalMs ?? 1_000;
    this.now = options.now ?? Date.now;
    if (this.intervalMs * 2 > this.ttlMs) throw new Error('the lease must outlive two renewal intervals');
  }

  /** The lease's value while we lead (`<token>:<instance>`): the argument of fenced scripts. */
  get fence(): string | null {
    return this.isLeader ? this.value : null;
  }

  get isLeader(): boolean {
    if (this.value === null) return false;
    // Past our TTL since the last acknowledged renewal, another candidate may hold the lease: we no longer lead.
    if (this.now() - this.renewedAt >= this.ttlMs) {
      this.stepDown();
      return false;
    }
    return true;
  }

  get state(): LeaseState {
    const leader = this.isLeader;
    return {
      leader,
      token: leader ? this.tokenValue : null,
      holder: this.holder,
      holderTtlMs: this.holderTtlMs,
    };
  }

  /** Called with (true, token) when we become leader and (false, null) when we stop. */
  onChange(listener: (leader: boolean, token: number | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.timer) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops renewing and gives the lease up at once (a standby takes over within one interval). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    const value = this.value;
    this.stepDown();
    if (value) await this.redis.eval(RELEASE, 1, this.key, value).catch(() => 0);
  }

  /** One renewal or takeover attempt (the timer calls it; tests may too). */
  tick(): Promise<void> {
    this.ticking ??= this.attempt().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async attempt(): Promise<void> {
    const sentAt = this.now();
    try {
      if (this.value !== null) {
        const renewed = await this.redis.eval(RENEW, 1, this.key, this.value, String(this.ttlMs));
        if (Number(renewed) === 1) this.renewedAt = sentAt;
        else this.stepDown();
      } else {
        const token = await this.redis.eval(
          ACQUIRE,
          2,
          this.key,
          `${this.key}:fence`,
          this.instance,
          String(this.ttlMs),
        );
        if (token !== null) {
          this.tokenValue = Number(token);
          this.value = `${this.tokenValue}:${this.instance}`;
          this.renewedAt = sentAt;
          for (const listener of this.listeners) listener(true, this.tokenValue);
        }
      }
      const [holder, ttl] = (await this.redis.multi().get(this.key).pttl(this.key).exec()) ?? [];
      this.holder = (holder?.[1] as string | null) ?? null;
      const ms = Number(ttl?.[1]);
      this.holderTtlMs = Number.isFinite(ms) && ms >= 0 ? ms : null;
    } catch {
      // Redis unreachable: a leader keeps leading until its TTL runs out (isLeader), then steps down.
      void this.isLeader;
    }
  }

  private stepDown(): void {
    if (this.value === null) return;
    this.value = null;
    this.tokenValue = null;
    for (const listener of this.listeners) listener(false, null);
  }
}

/** Thrown by fenced writes when the caller no longer holds the lease. */
export class FencedError extends Error {
  constructor() {
    super('fenced: another instance holds the leader lease');
    this.name = 'FencedError';
  }
}
