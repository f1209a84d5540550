import { describe, expect, it } from 'vitest';
import { FakeSink, keyOf, prices, settle, setup } from '#tests/support/server/stream-hub.ts';

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
