import { isDeepStrictEqual } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { OddsEngine } from '#engine/engine.ts';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';
import { ontoClock } from '#engine/sources/simulator.ts';
import { pricesOf } from '#engine/store.ts';
import type { StaticEntry } from '../http/static-files.ts';
import { snapshotEntry } from '../feed/plugin.ts';
import { TcpProxy } from '#tests/support/server/tcp-proxy.ts';
import { deleteRedisKeys, waitFor } from '#tests/support/server/trials.ts';
import { LeaderLease } from './leader-lease.ts';
import {
  ClusterFollower,
  ClusterPublisher,
  clusterKeys,
  type HistoryProgress,
  type PublisherOptions,
} from './replication.ts';

// The leader's stream on CI's Redis (issue 19, decision 144), in one process: a publisher fed by the simulator's
// messages, followers that start at different times, a gap, and a deposed leader's appends refused.

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const clients: Redis[] = [];
const stops: (() => Promise<unknown>)[] = [];
let run = 0;
const T0 = Date.now();
/**
 * The simulator's calendar pinned (decision 230): Sunday 22 November 2026, 13:30 ET, whatever the hour the test runs
 * at; its fixtures' starts are moved onto the engine's clock as the source does with SIM_START.
 */
const CALENDAR_T0 = Date.UTC(2026, 10, 22, 18, 30);
const quiet = { info: () => {}, warn: () => {} };

function client(): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  redis.on('error', () => {});
  clients.push(redis);
  return redis;
}

const engine = () => new OddsEngine<StaticEntry>({ source: 'simulator', encode: snapshotEntry });

function board(of: OddsEngine<StaticEntry>) {
  const out = new Map<string, unknown>();
  for (const market of of.store.allMarkets()) out.set(market.key, of.store.prices(market.key));
  return out;
}

/** Every price of the engine as a reader delayed to `at` sees it (the version it would be shown, or none). */
function delayedBoard(of: OddsEngine<StaticEntry>, at: number) {
  const out = new Map<string, unknown>();
  const store = of.storeAt(at);
  for (const market of store.allMarkets())
    for (let index = 0; index < market.outcomes.length; index += 1)
      for (const newest of pricesOf(market, index)) {
        const book = newest.book;
        const version = store.versionAt(newest, at, true);
        out.set(`${market.key}|${index}|${book}`, version && [version.american, version.receivedAt]);
      }
  return out;
}

/** A leader holding the lease, its engine fed by a simulator through the publisher, as `ingestControl.lead` does. */
async function leader(
  prefix: string,
  name = 'leader',
  fullMs = 300,
  /** Messages received at the wall clock (rather than a step's virtual second), and the stream's retention. */
  wall?: { retainMs: number },
  seed = 11,
  more: PublisherOptions = {},
) {
  const keys = clusterKeys(prefix);
  const redis = client();
  const lease = new LeaderLease(redis, keys.lease, name, { ttlMs: 2_000, intervalMs: 500 });
  lease.start();
  stops.push(() => lease.stop());
  await waitFor(() => lease.isLeader, 'the lease');
  const own = engine();
  const publisher = new ClusterPublisher(redis, keys, own, quiet, {
    batchMs: 20,
    fullMs,
    retainMs: wall?.retainMs ?? 0,
    ...more,
  });
  stops.push(() => publisher.end());
  publisher.begin(lease.fence!);
  const sim = new MarketSimulator({ seed, startMs: CALENDAR_T0, events: 12, stepMs: 1_000, props: false });
  let now = wall ? Date.now() : T0;
  const offset = now - CALENDAR_T0;
  const feed = (messages: ReturnType<MarketSimulator['step']>) => {
    for (const each of messages) {
      const message = ontoClock(each, offset);
      if (own.ingest(message, now)) publisher.accepted(message, now);
    }
  };
  feed(sim.initial());
  publisher.ready();
  own.markReady();
  return {
    keys,
    lease,
    engine: own,
    publisher,
    /** One simulator step fed to the engine and the publisher, with no snapshot (nothing flushes the batch). */
    feedOnly() {
      now = wall ? Date.now() : now + 1_000;
      feed(sim.step());
    },
    /** One simulator step, then a publish. */
    step() {
      now = wall ? Date.now() : now + 1_000;
      feed(sim.step());
      return own.tick();
    },
  };
}

function follower(prefix: string, through = url) {
  const own = engine();
  const reader = new Redis(through, { maxRetriesPerRequest: null });
  reader.on('error', () => {});
  const follow = new ClusterFollower(reader, clusterKeys(prefix), own, quiet, 200);
  follow.start();
  stops.push(() => follow.stop());
  return { engine: own, follower: follow };
}

/** A follower whose connection to Redis runs through a TCP proxy the test can pause (a partition). */
async function followerThroughProxy(name: string) {
  const target = new URL(url);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
  await proxy.start();
  stops.push(() => proxy.stop());
  // The same database as `url` (its path): a follower on another one would read an empty stream.
  return { proxy, replica: follower(name, `redis://127.0.0.1:${proxy.port}${target.pathname}`) };
}

const prefix = () => `sharpline-it:cluster:${process.pid}:${Date.now().toString(36)}:${(run += 1)}:`;

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

afterAll(async () => {
  for (const redis of clients) redis.disconnect();
  await deleteRedisKeys(url, `sharpline-it:cluster:${process.pid}:*`);
});

describe('ClusterPublisher and ClusterFollower (Redis)', () => {
  it("followers started before and after the leader's first entries hold its prices and serve its snapshots byte for byte", async () => {
    const name = prefix();
    const early = follower(name);
    const lead = await leader(name);
    for (let step = 0; step < 5; step += 1) lead.step();
    const late = follower(name);
    let last = lead.step()!;
    for (let step = 0; step < 10; step += 1) last = lead.step() ?? last;
    expect(last.arbs.length).toBeGreaterThan(0);
    for (const { engine: replica, follower: follow } of [early, late]) {
      await waitFor(() => replica.latest?.at === last.at, 'the last snapshot to arrive');
      expect(replica.latest!.body.equals(last.body)).toBe(true);
      expect(replica.latest!.encoded.etag).toBe(last.encoded.etag);
      expect(replica.latest!.arbs).toEqual(last.arbs);
      expect(board(replica)).toEqual(board(lead.engine));
      expect(follow.stats()).toMatchObject({ following: true, leader: lead.lease.fence, restarts: 0 });
    }
    // The lag counts the snapshots a follower saw appended while it read on, not those it replayed on starting.
    for (let step = 0; step < 5; step += 1) {
      lead.step();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const { follower: follow } of [early, late])
      await waitFor(() => (follow.stats().snapshotLagMs?.samples ?? 0) > 0, 'a lag sample');
  });

  it('a follower reading on gets the messages accepted just before a periodic full entry (it skips that entry)', async () => {
    const name = prefix();
    // No batch timer in the test's time: only a full entry (every 300 ms) writes what the step accepted.
    const lead = await leader(name, 'leader', 300, undefined, 11, { batchMs: 600_000 });
    const { engine: replica, follower: follow } = follower(name);
    lead.step();
    await waitFor(
      () => follow.stats().appliedId === lead.publisher.stats().lastId,
      'the follower to read on',
    );
    const before = follow.stats().restarts;
    lead.feedOnly();
    expect(board(lead.engine)).not.toEqual(board(replica));
    await waitFor(
      () => isDeepStrictEqual(board(replica), board(lead.engine)),
      "the step's prices on the follower",
    );
    expect(follow.stats().restarts).toBe(before);
  });

  it('a follower starting late replays the retained stream: a delayed reader sees on it every version the leader shows', async () => {
    const name = prefix();
    const lead = await leader(name, 'leader', 300, { retainMs: 1_500 });
    // Steps for 2.5 s, and on until the stream holds a full entry at least the retention old: on a loaded machine the
    // leader's first full entry came late, and 2.5 s were not enough (the oldest was 1,425 ms old in one CI run).
    const redis = client();
    const oldestFullAge = async () => {
      const oldest = await redis.lindex(lead.keys.fulls, 0);
      return oldest === null ? 0 : Date.now() - Number(oldest.split('-')[0]);
    };
    const started = Date.now();
    while (Date.now() - started < 2_500 || (await oldestFullAge()) < 1_500) {
      lead.step();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const late = follower(name);
    await waitFor(
      () => late.follower.stats().appliedId === lead.publisher.stats().lastId,
      'the late follower to catch up',
    );
    const now = Date.now();
    // The window holds changes: a reader 1.5 s behind sees another board than a real-time one.
    expect(delayedBoard(lead.engine, now - 1_500)).not.toEqual(delayedBoard(lead.engine, now));
    for (const behind of [1_500, 1_000, 500, 0])
      expect(delayedBoard(late.engine, now - behind)).toEqual(delayedBoard(lead.engine, now - behind));
    // It started from a full entry at least the retention old (the oldest kept), not the newest.
    const kept = await redis.lrange(lead.keys.fulls, 0, -1);
    expect(kept.length).toBeGreaterThan(1);
    expect(now - Number(kept[0]!.split('-')[0])).toBeGreaterThanOrEqual(1_500);
  });

  it("a follower of a new leader keeps the previous leader's market for delayed readers before the takeover", async () => {
    const name = prefix();
    const first = await leader(name, 'first', 300, { retainMs: 1_000 });
    const replica = follower(name);
    const run = async (lead: Awaited<ReturnType<typeof leader>>, ms: number) => {
      const started = Date.now();
      while (Date.now() - started < ms) {
        lead.step();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await waitFor(
        () => replica.follower.stats().appliedId === lead.publisher.stats().lastId,
        'the follower to catch up',
      );
    };
    await run(first, 1_000);
    const before = Date.now();
    const kept = delayedBoard(first.engine, before);
    await first.publisher.end();
    await first.lease.stop();
    // The next leader's simulator starts another market (another seed), as a fresh source may.
    const second = await leader(name, 'second', 300, { retainMs: 1_000 }, 12);
    await run(second, 500);
    expect(replica.follower.stats().leader).toBe(second.lease.fence);
    expect(kept.size).toBeGreaterThan(0);
    expect(delayedBoard(replica.engine, before)).toEqual(kept);
    const now = Date.now();
    expect(delayedBoard(replica.engine, now)).toEqual(delayedBoard(second.engine, now));
    expect(delayedBoard(replica.engine, now)).not.toEqual(kept);
  });

  it("carries the leader's history writer progress to every follower (h entries)", async () => {
    const name = prefix();
    let progress: HistoryProgress = {
      writtenUpTo: null,
      queuedChanges: 0,
      failingSince: null,
      fencedBatches: 0,
    };
    const lead = await leader(name, 'leader', 300, undefined, 11, {
      progress: () => progress,
      progressMs: 100,
    });
    const replica = follower(name);
    lead.step();
    await waitFor(() => replica.follower.stats().history !== null, 'a first h entry');
    expect(replica.follower.stats().history).toEqual(progress);
    progress = {
      writtenUpTo: new Date().toISOString(),
      queuedChanges: 120,
      failingSince: null,
      fencedBatches: 0,
    };
    await waitFor(
      () => replica.follower.stats().history?.writtenUpTo === progress.writtenUpTo,
      'the next h entry',
    );
    expect(replica.follower.stats().history).toEqual(progress);
    expect(replica.follower.stats().restarts).toBe(0);
  });

  it("a follower starting while the arbs do not change serves the leader's newest snapshot from the full entry", async () => {
    const name = prefix();
    const lead = await leader(name);
    let last = lead.step()!;
    for (let step = 0; step < 3; step += 1) last = lead.step() ?? last;
    // No snapshot after this; full entries keep coming (every 300 ms here).
    const redis = client();
    const fullBefore = await redis.get(lead.keys.full);
    await waitFor(
      async () => (await redis.get(lead.keys.full)) !== fullBefore,
      'a full entry after the snapshot',
    );
    const late = follower(name);
    await waitFor(() => late.engine.latest?.at === last.at, "the leader's snapshot");
    expect(late.engine.latest!.body.equals(last.body)).toBe(true);
    expect(board(late.engine)).toEqual(board(lead.engine));
  });

  it('an arb whose prices did not change keeps its object from one installed snapshot to the next', async () => {
    const name = prefix();
    const replica = follower(name);
    const lead = await leader(name);
    let previous = lead.step()!;
    await waitFor(() => replica.engine.latest?.at === previous.at, 'a snapshot');
    let kept = 0;
    for (let step = 0; step < 10 && kept === 0; step += 1) {
      const before = replica.engine.latest!;
      const next = lead.step();
      if (!next) continue;
      await waitFor(() => replica.engine.latest?.at === next.at, 'the next snapshot');
      const after = replica.engine.latest!;
      for (const arb of after.arbs) {
        const same = before.arbs.find((old) => JSON.stringify(old) === JSON.stringify(arb));
        if (same) {
          expect(same).toBe(arb);
          kept += 1;
        }
      }
      previous = next;
    }
    expect(kept).toBeGreaterThan(0);
  });

  // Known intermittent (session 34): this test and the next once hung past the 60 s test timeout, at a wait that
  // does not say which (waitFor's own limit is 120 s); they passed in the other integration runs of the session,
  // quiet and loaded. One retry (each try has its own stream names) until the hang is found: see the closing note.
  it(
    'a follower that misses an entry (cut off from Redis meanwhile) starts over from a full entry and ends with the same prices',
    { retry: 1 },
    async () => {
      const name = prefix();
      const { proxy, replica } = await followerThroughProxy(name);
      const lead = await leader(name);
      lead.step();
      await waitFor(() => replica.follower.stats().applied > 1, 'the follower to start');
      proxy.pause();
      // What the follower's pending XREAD answers is composed within its 200 ms block; later entries are not in it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const redis = client();
      const before = (await redis.xrevrange(lead.keys.stream, '+', '-', 'COUNT', 1))[0]![0];
      lead.step();
      await waitFor(
        async () => (await redis.xrange(lead.keys.stream, `(${before}`, '+')).length > 0,
        'an entry',
      );
      const [missed] = await redis.xrange(lead.keys.stream, `(${before}`, '+', 'COUNT', 1);
      expect(await redis.xdel(lead.keys.stream, missed![0])).toBe(1);
      proxy.resume();
      await new Promise((resolve) => setTimeout(resolve, 400)); // a full entry after the gap (fullMs 300)
      const last = lead.step() ?? lead.engine.latest!;
      await waitFor(
        () => replica.follower.stats().restarts > 0 && replica.engine.latest?.at === last.at,
        'a restart from the full entry',
      );
      await waitFor(() => isDeepStrictEqual(board(replica.engine), board(lead.engine)), 'the same prices');
    },
  );

  it(
    'a follower a little behind when a full entry is written reads on without starting over (the stream keeps the previous full period)',
    { retry: 1 },
    async () => {
      const name = prefix();
      const { proxy, replica } = await followerThroughProxy(name);
      const lead = await leader(name, 'leader', 1_000);
      lead.step();
      await waitFor(() => replica.follower.stats().applied > 1, 'the follower to start');
      const redis = client();
      const fullBefore = await redis.get(lead.keys.full);
      proxy.pause();
      lead.step();
      // Full entries are at least 1 s apart: exactly one is written while the follower is cut off.
      await waitFor(async () => (await redis.get(lead.keys.full)) !== fullBefore, 'a full entry', 5_000);
      lead.step();
      lead.step();
      await new Promise((resolve) => setTimeout(resolve, 100));
      proxy.resume();
      const last = lead.step() ?? lead.engine.latest!;
      await waitFor(() => replica.engine.latest?.at === last.at, 'the follower to catch up');
      expect(replica.follower.stats().restarts).toBe(0);
    },
  );

  it("refuses a deposed leader's appends inside Redis: the stream holds only the new leader's entries", async () => {
    const name = prefix();
    const old = await leader(name, 'old');
    old.step();
    const redis = client();
    await waitFor(async () => (await redis.xlen(old.keys.stream)) > 0, 'the old leader to publish');
    // The old leader's lease ends without it noticing (a partition): another candidate takes it.
    await redis.del(old.keys.lease);
    const fresh = new LeaderLease(client(), old.keys.lease, 'new', { ttlMs: 2_000, intervalMs: 500 });
    fresh.start();
    stops.push(() => fresh.stop());
    await waitFor(() => fresh.isLeader, 'the new leader');
    const length = await redis.xlen(old.keys.stream);
    const failures = old.publisher.stats().failures;
    old.step();
    old.step();
    await waitFor(() => old.publisher.stats().failures > failures, 'the refused appends');
    expect(await redis.xlen(old.keys.stream)).toBe(length);
  });
});
