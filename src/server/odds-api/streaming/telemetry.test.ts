import { describe, expect, it } from 'vitest';
import { FakeSink, keyOf, prices, settle, setup } from '#tests/support/server/stream-hub.ts';
import { LoopTelemetry } from './telemetry.ts';

describe('StreamHub release figures', () => {
  it('records each real-time release: its fan-out, and the wait from the oldest change to its last write', async () => {
    const { clock, hub, price } = setup();
    const sink = new FakeSink();
    const start = clock.now();
    expect(hub.releaseStats().releases).toBe(0);
    hub.connect(keyOf('elite'), {}, sink, undefined, false);
    price(150);
    clock.advance(40); // the change waits 40 ms (virtual) before its batch is released
    price(160);
    await settle();
    expect(prices(sink)).toBe(2);
    const stats = hub.releaseStats(start);
    expect(stats.releases).toBe(1);
    expect(stats.deliveryMs.p50).toBeGreaterThanOrEqual(40);
    expect(stats.deliveryMs.p50).toBeGreaterThanOrEqual(stats.fanoutMs.p50);
    expect(stats.fanoutMs.max).toBeGreaterThan(0);
    expect(hub.releaseStats(clock.now() + 1).releases).toBe(0);
  });
});

describe('LoopTelemetry', () => {
  it('gives the delays since a time: p50, p99 and the longest stall', () => {
    let now = 1_000_000;
    const loop = new LoopTelemetry(() => now);
    for (let index = 0; index < 199; index += 1) loop.record(1);
    loop.record(80); // one stall
    now += 1500; // the window rolls on the next sample
    loop.record(2);
    const all = loop.stats(0);
    expect(all.samples).toBe(201);
    expect(all.delayMs.max).toBeGreaterThanOrEqual(79.9);
    expect(all.delayMs.max).toBeLessThanOrEqual(80.1);
    expect(all.delayMs.p50).toBeCloseTo(1, 1);
    expect(all.delayMs.p99).toBeCloseTo(1, 1);
    // Since the last sample's time: only that one, without the stall.
    const recent = loop.stats(now);
    expect(recent.samples).toBe(1);
    expect(recent.delayMs.max).toBeCloseTo(2, 1);
  });

  it('keeps the newest 2^17 samples (about 11 minutes of its timer) in a fixed ring, the older ones forgotten', () => {
    let now = 0;
    const loop = new LoopTelemetry(() => now);
    for (let index = 0; index < 100; index += 1) loop.record(500); // stalls, then a full ring of calm
    for (let index = 0; index < 2 ** 17; index += 1) {
      now += 5;
      loop.record(index % 2 === 0 ? 1 : 3);
    }
    const stats = loop.stats(0);
    expect(stats.samples).toBe(2 ** 17);
    expect(stats.delayMs.max).toBe(3);
    expect(stats.delayMs.p50).toBe(1);
    expect(stats.delayMs.p99).toBe(3);
    // A time inside the ring: only the samples from it on (the last 1,000 of them).
    expect(loop.stats(now - 999 * 5).samples).toBe(1000);
  });

  it('measures real stalls of the event loop once started', async () => {
    const loop = new LoopTelemetry();
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const busyUntil = performance.now() + 60;
    while (performance.now() < busyUntil); // a 60 ms synchronous stall
    await new Promise((resolve) => setTimeout(resolve, 30));
    loop.stop();
    const stats = loop.stats(0);
    expect(stats.delayMs.max).toBeGreaterThanOrEqual(50);
    expect(stats.samples).toBeGreaterThan(2);
  });
});
