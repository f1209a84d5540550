import { describe, expect, it } from 'vitest';
import { FakeSink, ids, keyOf, prices, settle, setup } from '#tests/support/server/stream-hub.ts';

// Delivery without HTTP: delayed tiers on a virtual clock, filters and groups, and slow readers.

describe('StreamHub delay tiers', () => {
  for (const [planId, delaySeconds] of [
    ['pro', 15],
    ['starter', 120],
  ] as const) {
    it(`${planId}: a price change is delivered once it is ${delaySeconds} s old, never earlier`, async () => {
      const { clock, hub, price } = setup();
      const sink = new FakeSink();
      hub.connect(keyOf(planId), {}, sink, undefined, false);
      price(150);
      await settle();
      clock.advance(delaySeconds * 1000 - 1);
      await settle();
      expect(prices(sink)).toBe(0);
      clock.advance(1);
      await settle();
      expect(prices(sink)).toBe(1);
      expect(sink.text).toContain('"american":"+150"');
    });
  }

  it('elite: a price change is delivered at once', async () => {
    const { hub, price } = setup();
    const sink = new FakeSink();
    hub.connect(keyOf('elite'), {}, sink, undefined, false);
    price(150);
    await settle();
    expect(prices(sink)).toBe(1);
  });

  it("a Starter client's snapshot holds only prices at least 120 s old", async () => {
    const { clock, hub, price } = setup();
    price(150);
    clock.advance(100_000);
    price(170);
    clock.advance(30_000);
    const sink = new FakeSink();
    await hub.connect(keyOf('starter'), {}, sink, undefined, true).ready;
    const data = JSON.parse(/event: snapshot\ndata: (.*)\n/.exec(sink.text)![1]!);
    const served = data.events[0].markets[0].outcomes.find(
      (outcome: { outcome: string }) => outcome.outcome === 'home',
    ).prices;
    expect(served.map((p: { american: string }) => p.american)).toEqual(['+150']);
    expect(Date.parse(served[0].updated_at)).toBeLessThanOrEqual(clock.now() - 120_000);
  });
});

describe('StreamHub filters', () => {
  it('sends each client only the changes its filters match, clients with equal filters the same bytes', async () => {
    const { hub, price } = setup();
    const nba = [new FakeSink(), new FakeSink()];
    const nhl = new FakeSink();
    const draftkingsOnly = new FakeSink();
    const arbsOnly = new FakeSink();
    for (const sink of nba)
      hub.connect(keyOf('elite'), { league: 'nba', markets: new Set(['moneyline']) }, sink, undefined, false);
    hub.connect(keyOf('elite'), { league: 'nhl' }, nhl, undefined, false);
    hub.connect(keyOf('elite'), { books: new Set(['draftkings']) }, draftkingsOnly, undefined, false);
    hub.connect(keyOf('elite'), { kinds: new Set(['arb'] as const) }, arbsOnly, undefined, false);
    price(150);
    price(160);
    await settle();
    expect(prices(nba[0]!)).toBe(2);
    expect(nba[1]!.text).toBe(nba[0]!.text);
    expect(nhl.text).toBe('retry: 2000\n\n');
    expect(prices(draftkingsOnly)).toBe(0);
    expect(prices(arbsOnly)).toBe(0);
  });
});

describe('StreamHub groups', () => {
  const leagues = (sink: FakeSink) => [...sink.text.matchAll(/"league":"(\w+)"/g)].map((m) => m[1]);

  it('delivers a mixed batch to each league only its own changes, to unfiltered clients all of them in order', async () => {
    const { hub, price } = setup();
    const nba = new FakeSink();
    const nhl = new FakeSink();
    const nhlDraftkings = new FakeSink();
    const all = new FakeSink();
    hub.connect(keyOf('elite'), { league: 'nba' }, nba, undefined, false);
    hub.connect(keyOf('elite'), { league: 'nhl' }, nhl, undefined, false);
    hub.connect(
      keyOf('elite'),
      { league: 'nhl', books: new Set(['draftkings']) },
      nhlDraftkings,
      undefined,
      false,
    );
    hub.connect(keyOf('enterprise'), {}, all, undefined, false);
    price(150, 'e1');
    price(-120, 'e2');
    price(160, 'e1');
    price(-130, 'e2', 'draftkings');
    await settle();
    expect(leagues(nba)).toEqual(['nba', 'nba']);
    expect(leagues(nhl)).toEqual(['nhl', 'nhl']);
    expect(leagues(nhlDraftkings)).toEqual(['nhl']);
    expect(nhlDraftkings.text).toContain('"book":"draftkings"');
    expect(leagues(all)).toEqual(['nba', 'nhl', 'nba', 'nhl']);
    const seqs = ids(all);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set([...ids(nba), ...ids(nhl)])).toEqual(new Set(seqs));
    // One chunk per release per client.
    expect(all.chunks.filter((chunk) => chunk.toString().includes('event: price'))).toHaveLength(1);
  });

  it('renders a release once per distinct filters: clients of a group are written the same Buffer', async () => {
    const { hub, price } = setup();
    const sinks = [new FakeSink(), new FakeSink(), new FakeSink()];
    for (const sink of sinks) hub.connect(keyOf('elite'), { league: 'nba' }, sink, undefined, false);
    price(150);
    await settle();
    const last = sinks.map((sink) => sink.chunks.at(-1)!);
    expect(Buffer.isBuffer(last[0])).toBe(true);
    expect(last[1]).toBe(last[0]);
    expect(last[2]).toBe(last[0]);
  });

  it('keeps serving a group after some of its clients leave, and a group formed again after all left', async () => {
    const { hub, price } = setup();
    const first = new FakeSink();
    const second = new FakeSink();
    const a = hub.connect(keyOf('elite'), { league: 'nba' }, first, undefined, false);
    const secondKey = keyOf('elite');
    hub.connect(secondKey, { league: 'nba' }, second, undefined, false);
    hub.disconnect(a);
    price(150);
    await settle();
    expect(prices(first)).toBe(0);
    expect(prices(second)).toBe(1);
    hub.closeKey(secondKey.id, 'shutdown');
    expect(hub.clientCount).toBe(0);
    const again = new FakeSink();
    hub.connect(keyOf('elite'), { league: 'nba' }, again, undefined, false);
    price(160);
    await settle();
    expect(prices(again)).toBe(1);
    expect(prices(second)).toBe(1);
  });
});

describe('StreamHub slow readers', () => {
  it('drops a client whose socket holds more than the limit instead of queueing more', async () => {
    const { hub, price } = setup(64 * 1024);
    const slow = new FakeSink();
    const fast = new FakeSink();
    hub.connect(keyOf('elite'), {}, slow, undefined, false);
    hub.connect(keyOf('elite'), {}, fast, undefined, false);
    slow.queuedBytes = 64 * 1024 + 1;
    price(150);
    await settle();
    expect(slow.destroyed).toBe(true);
    expect(hub.dropped).toBe(1);
    expect(hub.clientCount).toBe(1);
    price(160);
    await settle();
    expect(prices(fast)).toBe(2);
    expect(prices(slow)).toBe(0);
  });

  it('drops only the slow client of a group of league subscribers; the others keep receiving', async () => {
    const { hub, price } = setup(64 * 1024);
    const sinks = [new FakeSink(), new FakeSink(), new FakeSink()];
    for (const sink of sinks) hub.connect(keyOf('elite'), { league: 'nba' }, sink, undefined, false);
    sinks[1]!.queuedBytes = 64 * 1024 + 1;
    price(150);
    await settle();
    expect(sinks.map((sink) => sink.destroyed)).toEqual([false, true, false]);
    expect(hub.dropped).toBe(1);
    price(160);
    await settle();
    expect(sinks.map(prices)).toEqual([2, 0, 2]);
  });
});

describe('StreamHub write pacing', () => {
  it('spreads a release over turns, writesPerTurn clients each, every client its chunks once and in order', async () => {
    const { hub, price } = setup(1 << 20, undefined, { writesPerTurn: 2 });
    /** Writes in each synchronous run (a run ends at its microtask checkpoint). */
    const runs: number[] = [];
    let inRun = false;
    class CountingSink extends FakeSink {
      override write(chunk: string | Buffer) {
        if (!inRun) {
          inRun = true;
          runs.push(0);
          queueMicrotask(() => (inRun = false));
        }
        runs[runs.length - 1]! += 1;
        super.write(chunk);
        // The first write of a release brings the next change: its release may come while this one is being written.
        if (this === sinks[0] && prices(this) === 1) price(160);
      }
    }
    const sinks = Array.from({ length: 7 }, () => new CountingSink());
    for (const sink of sinks) hub.connect(keyOf('elite'), {}, sink, undefined, false);
    await settle();
    runs.length = 0; // the connections' own `retry:` lines
    price(150);
    for (let waited = 0; waited < 5000 && sinks.some((sink) => prices(sink) < 2); waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await settle();
    const first = ids(sinks[0]!);
    expect(first).toHaveLength(2);
    for (const sink of sinks) {
      expect(ids(sink)).toEqual(first);
      expect(prices(sink)).toBe(2);
    }
    expect(first[0]).toBeLessThan(first[1]!);
    expect(Math.max(...runs)).toBeLessThanOrEqual(2);
    expect(runs.length).toBeGreaterThanOrEqual(7);
    expect(hub.releaseStats().releases).toBe(2);
  });

  it('holds timed releases while writes are queued, then sends what came meanwhile as one release', async () => {
    const { hub, price } = setup(1 << 20, undefined, { writesPerTurn: 1 });
    class SlowSink extends FakeSink {
      override write(chunk: string | Buffer) {
        super.write(chunk);
        const until = performance.now() + 3; // each turn outlasts the 1 ms batch
        while (performance.now() < until);
        // Two changes arrive while the first release is still being written, in separate turns.
        if (prices(this) === 1 && this === sinks[0]) price(160);
        if (prices(this) === 1 && this === sinks[2]) price(170);
      }
    }
    const sinks = Array.from({ length: 4 }, () => new SlowSink());
    for (const sink of sinks) hub.connect(keyOf('elite'), {}, sink, undefined, false);
    price(150);
    // The slices run on turns of their own: wait for all of them (the machine may be slow), not a fixed time.
    for (let waited = 0; waited < 5000 && sinks.some((sink) => prices(sink) < 3); waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await settle();
    for (const sink of sinks) {
      expect(prices(sink)).toBe(3);
      // The `retry:` line, the first release, then one release carrying both later changes.
      expect(sink.chunks.filter((chunk) => chunk.toString().includes('event: price'))).toHaveLength(2);
    }
    expect(hub.releaseStats().releases).toBe(2);
  });

  it('streams opening while writes are queued add no release of their own; each gets every later change once', async () => {
    const { hub, price } = setup(1 << 20, undefined, { writesPerTurn: 1 });
    const opened: FakeSink[] = [];
    class SlowSink extends FakeSink {
      override write(chunk: string | Buffer) {
        super.write(chunk);
        const until = performance.now() + 2;
        while (performance.now() < until);
        if (this === sinks[0] && prices(this) === 1 && opened.length === 0) {
          // Ten streams open during the first release, a change before each.
          for (let index = 0; index < 10; index += 1) {
            price(160 + index * 10);
            const sink = new FakeSink();
            opened.push(sink);
            hub.connect(keyOf('elite'), {}, sink, undefined, false);
          }
        }
      }
    }
    const sinks = Array.from({ length: 3 }, () => new SlowSink());
    for (const sink of sinks) hub.connect(keyOf('elite'), {}, sink, undefined, false);
    price(150);
    const done = () => opened.length === 10 && opened.every((sink) => prices(sink) === 10);
    for (let waited = 0; waited < 5000 && !done(); waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await settle();
    expect(opened).toHaveLength(10);
    // One release for 150, then one carrying the ten changes (not one more per opening stream).
    expect(hub.releaseStats().releases).toBe(2);
    const later = ids(sinks[0]!).slice(1);
    expect(later).toHaveLength(10);
    for (const sink of sinks) expect(prices(sink)).toBe(11);
    for (const sink of opened) expect(ids(sink)).toEqual(later);
  });

  it('sends heartbeats only to clients written nothing for half the heartbeat period', async () => {
    const { clock, hub, price } = setup(1 << 20, undefined, { heartbeatMs: 40 });
    const nba = new FakeSink();
    const nhl = new FakeSink();
    hub.connect(keyOf('elite'), { league: 'nba' }, nba, undefined, false);
    hub.connect(keyOf('elite'), { league: 'nhl' }, nhl, undefined, false);
    const until = async (done: () => boolean) => {
      for (let waited = 0; waited < 5000 && !done(); waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
    };
    // The heartbeat timer runs on real time, the hub's clock is the test's: each step below holds whatever the timer's
    // ticks fall on a loaded machine. Until +20 ms nobody has been quiet for half the period (20 ms), so no heartbeat.
    clock.advance(15);
    price(150); // NBA: the nba client is written at +15 ms
    await until(() => prices(nba) === 1);
    expect(nba.text).not.toContain(': heartbeat');
    expect(nhl.text).not.toContain(': heartbeat');
    clock.advance(15); // +30 ms: nhl quiet since 0, nba written 15 ms ago
    await until(() => nhl.text.includes(': heartbeat'));
    await settle();
    expect(nhl.text).toContain(': heartbeat\n\n');
    expect(nba.text).not.toContain(': heartbeat');
    clock.advance(30); // +60 ms: nba quiet since +15
    await until(() => nba.text.includes(': heartbeat'));
    expect(nba.text).toContain(': heartbeat\n\n');
  });
});
