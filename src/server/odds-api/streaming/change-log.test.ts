import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAM_OPTIONS } from './stream-hub.ts';
import { FakeSink, keyOf, prices, settle, setup } from '#tests/support/server/stream-hub.ts';

describe('StreamHub idle buffer', () => {
  const lastId = (sink: FakeSink) => [...sink.text.matchAll(/^id: (\S+)$/gm)].at(-1)![1]!;

  it('keeps no entries while no client has been connected for idleRetainMs; within it, a reconnect replays', async () => {
    const { clock, hub, price } = setup();
    price(150);
    price(160);
    expect(hub.oldestSeq).toBe(hub.lastSeq + 1);

    const first = new FakeSink();
    const client = hub.connect(keyOf('elite'), {}, first, undefined, false);
    price(170);
    await settle();
    expect(prices(first)).toBe(1);
    hub.disconnect(client);

    clock.advance(DEFAULT_STREAM_OPTIONS.idleRetainMs - 1);
    price(180);
    expect(hub.oldestSeq).toBeLessThanOrEqual(hub.lastSeq);
    const again = new FakeSink();
    const back = hub.connect(keyOf('elite'), {}, again, lastId(first), true);
    await back.ready;
    expect(again.text).not.toContain('event: snapshot');
    expect(prices(again)).toBe(1);
    expect(again.text).toContain('"american":"+180"');
    hub.disconnect(back);

    clock.advance(DEFAULT_STREAM_OPTIONS.idleRetainMs + 1);
    price(190);
    expect(hub.oldestSeq).toBe(hub.lastSeq + 1);
    const late = new FakeSink();
    await hub.connect(keyOf('elite'), {}, late, lastId(again), true).ready;
    expect(late.text).toContain('event: snapshot');
    expect(late.text).toContain('"american":"+190"');
  });
});
