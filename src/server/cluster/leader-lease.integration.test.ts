import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TcpProxy } from '#tests/support/server/tcp-proxy.ts';
import { deleteRedisKeys, waitFor } from '#tests/support/server/trials.ts';
import { FENCE_CHECK, FencedError, LeaderLease } from './leader-lease.ts';

// The ingest leader's lease on CI's Redis (issue 19, decision 143): one leader among candidates, a standby taking
// over when the leader dies or is cut off, and the fencing token refusing a deposed leader's writes inside Redis.

const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const TTL = 1_000;
const INTERVAL = 200;
const clients: Redis[] = [];
const leases: LeaderLease[] = [];
const proxies: TcpProxy[] = [];
let run = 0;

/**
 * A fenced write built like replication.ts's APPEND: appends `fields` to the stream `stream` (trimmed to about `maxLen`
 * entries) only while `fence` holds the lease.
 */
const FENCED_XADD = `${FENCE_CHECK}
return redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', unpack(ARGV, 3))`;

/** XADD guarded by the lease: resolves with the entry id, or rejects with FencedError when `fence` is not the holder's. */
async function fencedXadd(
  redis: Redis,
  leaseKey: string,
  fence: string | null,
  stream: string,
  maxLen: number,
  fields: Record<string, string | Buffer>,
): Promise<string> {
  if (fence === null) throw new FencedError();
  const args = Object.entries(fields).flat();
  try {
    return (await redis.eval(FENCED_XADD, 2, leaseKey, stream, fence, String(maxLen), ...args)) as string;
  } catch (error) {
    if (error instanceof Error && /FENCED/.test(error.message)) throw new FencedError();
    throw error;
  }
}

function client(port = Number(url.port || 6379)): Redis {
  const redis = new Redis({ host: url.hostname, port, maxRetriesPerRequest: null, lazyConnect: false });
  redis.on('error', () => {});
  clients.push(redis);
  return redis;
}

function candidates(count: number, key: string, redisFor: (index: number) => Redis = () => client()) {
  const made = Array.from(
    { length: count },
    (_, index) => new LeaderLease(redisFor(index), key, `i${index}`, { ttlMs: TTL, intervalMs: INTERVAL }),
  );
  leases.push(...made);
  for (const lease of made) lease.start();
  return made;
}

const newKey = () => `sharpline-it:lease:${process.pid}:${Date.now().toString(36)}:${(run += 1)}`;
const leaders = (list: LeaderLease[]) => list.filter((lease) => lease.isLeader);

afterEach(async () => {
  await Promise.all(leases.splice(0).map((lease) => lease.stop()));
  for (const proxy of proxies.splice(0)) await proxy.stop();
});

afterAll(async () => {
  for (const redis of clients) redis.disconnect();
  await deleteRedisKeys(url.href, `sharpline-it:lease:${process.pid}:*`);
});

describe('LeaderLease (Redis)', () => {
  it('elects exactly one leader among three candidates, and every candidate sees it as the holder', async () => {
    const key = newKey();
    const list = candidates(3, key);
    await waitFor(() => leaders(list).length === 1, 'a leader');
    await new Promise((resolve) => setTimeout(resolve, 3 * INTERVAL));
    expect(leaders(list)).toHaveLength(1);
    const leader = leaders(list)[0]!;
    await waitFor(() => list.every((lease) => lease.state.holder === leader.fence), 'all to see the holder');
    expect(leader.state.token).toBeGreaterThan(0);
  });

  it('a standby takes over within one interval when the leader stops, with a greater token', async () => {
    const list = candidates(2, newKey());
    const first = await waitFor(() => leaders(list)[0], 'a leader');
    const token = first.state.token!;
    await first.stop();
    const next = await waitFor(() => leaders(list)[0], 'the standby to lead', 3 * INTERVAL);
    expect(next).not.toBe(first);
    expect(next.state.token).toBeGreaterThan(token);
  });

  it('a partitioned leader steps down by its own clock, the standby leads within TTL + interval, and the old leader’s late write is refused', async () => {
    const key = newKey();
    const stream = `${key}:stream`;
    const proxy = new TcpProxy(url.hostname, Number(url.port || 6379));
    proxies.push(proxy);
    const proxied = client(await proxy.start());
    // Candidate 0 talks through the proxy and is made leader first.
    const [cut] = candidates(1, key, () => proxied);
    await waitFor(() => cut!.isLeader, 'the proxied candidate to lead');
    const oldFence = cut!.fence;
    const [standby] = candidates(1, key);
    expect(await fencedXadd(proxied, key, oldFence, stream, 1000, { n: 'before' })).toMatch(/^\d+-\d+$/);

    proxy.pause();
    const pausedAt = Date.now();
    // A write sent during the partition hangs in the proxy; it reaches Redis only after the resume.
    const late = fencedXadd(proxied, key, oldFence, stream, 1000, { n: 'late' });
    await waitFor(() => !cut!.isLeader, 'the cut-off leader to step down', 2 * TTL);
    // Its own clock, not Redis, tells it: it stops within TTL of its last renewal (slack for a loaded machine).
    expect(Date.now() - pausedAt).toBeLessThan(2 * TTL);
    await waitFor(() => standby!.isLeader, 'the standby to lead', 2 * TTL + 2 * INTERVAL);
    expect(standby!.state.token).toBeGreaterThan(Number(oldFence!.split(':')[0]));

    proxy.resume();
    await expect(late).rejects.toBeInstanceOf(FencedError);
    await new Promise((resolve) => setTimeout(resolve, 3 * INTERVAL));
    // Back on the network, the old leader stays a standby: the lease is the other's.
    expect(cut!.isLeader).toBe(false);
    expect(standby!.isLeader).toBe(true);
    await expect(fencedXadd(proxied, key, oldFence, stream, 1000, { n: 'again' })).rejects.toBeInstanceOf(
      FencedError,
    );
    const entries = await client().xrange(stream, '-', '+');
    expect(entries.map(([, fields]) => fields[1])).toEqual(['before']);
  });

  it('a leader whose process dies (no release, no renewal) is replaced within TTL + interval', async () => {
    const key = newKey();
    const doomedClient = client();
    const [doomed] = candidates(1, key, () => doomedClient);
    await waitFor(() => doomed!.isLeader, 'a leader');
    const [standby] = candidates(1, key);
    // Like SIGKILL: the connection drops and nothing is released.
    doomedClient.disconnect();
    const diedAt = Date.now();
    await waitFor(() => standby!.isLeader, 'the standby to lead', 3 * TTL);
    expect(Date.now() - diedAt).toBeLessThan(2 * TTL + 2 * INTERVAL);
  });
});
