import { describe, expect, it } from 'vitest';
import { arbKey } from '#domain/arb-feed.ts';
import { DEFAULT_STREAM_OPTIONS } from './stream-hub.ts';
import { FakeSink, keyOf, prices, settle, setup } from '#tests/support/server/stream-hub.ts';

const lastId = (sink: FakeSink) => [...sink.text.matchAll(/^id: (\S+)$/gm)].at(-1)![1]!;

describe('StreamHub idle buffer', () => {
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

describe('StreamHub ids on ROLE=api instances (the leader stream’s positions)', () => {
  const ids = (sink: FakeSink) => [...sink.text.matchAll(/^id: (\S+)$/gm)].map((match) => match[1]!);
  const amounts = (sink: FakeSink) =>
    [...sink.text.matchAll(/"american":"\+(\d+)"/g)].map((match) => match[1]);

  /** Two instances that applied the same stream entries: entry `1000-<n>` sets the price 100 + n. */
  function twoFollowers() {
    // An api instance keeps its buffer with no client connected (a client may come back from another instance).
    const instances = [0, 1].map(() =>
      setup(1 << 20, DEFAULT_STREAM_OPTIONS.catchUpMs, { idleRetainMs: Number.POSITIVE_INFINITY }),
    );
    const apply = (from: number, to: number) => {
      for (const { hub, price } of instances) {
        for (let n = from; n <= to; n += 1) {
          hub.streamEntry(1000, n);
          price(100 + n);
        }
      }
    };
    for (const { hub } of instances) {
      hub.streamEntry(1000, 0);
      hub.streamRestarted();
    }
    return { instances, apply };
  }

  it('names each change by its stream entry and index, the same on both instances, so a Last-Event-ID from one resumes on the other', async () => {
    const { instances, apply } = twoFollowers();
    const [a, b] = instances;
    const onA = new FakeSink();
    const clientA = a!.hub.connect(keyOf('elite'), {}, onA, undefined, false);
    apply(1, 3);
    await settle();
    expect(ids(onA)).toEqual(['1000-1-0', '1000-2-0', '1000-3-0']);
    a!.hub.disconnect(clientA);
    // Entries 4 and 5 arrive while the client is away; it comes back on the other instance.
    apply(4, 5);
    const onB = new FakeSink();
    await b!.hub.connect(keyOf('elite'), {}, onB, '1000-3-0', true).ready;
    expect(onB.text).not.toContain('event: snapshot');
    expect(ids(onB)).toEqual(['1000-4-0', '1000-5-0']);
    expect(amounts(onB)).toEqual(['104', '105']);
  });

  it('still gives a snapshot for an id from before the full entry it started over from once older changes are trimmed', async () => {
    const b = setup(1 << 20, DEFAULT_STREAM_OPTIONS.catchUpMs, {
      idleRetainMs: Number.POSITIVE_INFINITY,
      bufferSize: 16,
    });
    b.hub.streamEntry(1000, 0);
    b.hub.streamRestarted();
    for (let n = 1; n <= 30; n += 1) {
      b.hub.streamEntry(1000, n);
      b.price(100 + n);
    }
    // A new leader's full entry: its changes push the buffer past its bound, and the oldest of the old leader's
    // changes (up to entry 19) are trimmed after the restart.
    b.hub.streamEntry(1000, 40);
    b.hub.streamRestarted();
    for (let n = 0; n < 5; n += 1) b.price(200 + n);
    expect(b.hub.oldestSeq).toBeGreaterThan(10);
    const sink = new FakeSink();
    await b.hub.connect(keyOf('elite'), {}, sink, '1000-25-0', true).ready;
    expect(sink.text).toContain('event: snapshot');
  });

  it('gives a snapshot for an id from before the full entry an instance started over from, or from no stream at all', async () => {
    const { instances, apply } = twoFollowers();
    apply(1, 3);
    const b = instances[1]!;
    // B missed an entry and started over from the full entry 1000-7.
    b.hub.streamEntry(1000, 7);
    b.hub.streamRestarted();
    b.price(107);
    for (const lastEventId of ['1000-3-0', '1000-7-0', 'lz0abc-12', '0-0-0']) {
      b.clock.advance(DEFAULT_STREAM_OPTIONS.snapshotReuseMs + 1); // each builds its own snapshot
      const sink = new FakeSink();
      await b.hub.connect(keyOf('elite'), {}, sink, lastEventId, true).ready;
      expect(sink.text, lastEventId).toContain('event: snapshot');
    }
    b.hub.streamEntry(1000, 8);
    b.price(108);
    b.clock.advance(DEFAULT_STREAM_OPTIONS.snapshotReuseMs + 1);
    const after = new FakeSink();
    await b.hub.connect(keyOf('elite'), {}, after, '1000-7-0', true).ready;
    expect(after.text).toContain('event: snapshot');
    const later = new FakeSink();
    b.hub.streamEntry(1000, 9);
    b.price(109);
    await b.hub.connect(keyOf('elite'), {}, later, '1000-8-0', true).ready;
    expect(later.text).not.toContain('event: snapshot');
    expect(amounts(later)).toEqual(['109']);
  });
});

describe('StreamHub while nobody reads (issue 59)', () => {
  const events = (text: string) =>
    [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((match) => ({
      kind: match[1]!,
      data: JSON.parse(match[2]!) as { key?: string; arbs?: { key: string }[]; price?: { american: string } },
    }));

  it('makes no entry while idle; a stream opening after it gets the market of now in its snapshot, then exactly what changes, and resumes by Last-Event-ID', async () => {
    const { clock, engine, hub, price } = setup();
    const away = (american: number, sourceEventId: string) =>
      engine.ingest({
        kind: 'price',
        sourceEventId,
        book: 'draftkings',
        market: 'moneyline',
        outcome: 'away',
        american,
      });
    // Two arbs (NBA and NHL) published, then the NHL one changes and the NBA one goes and comes back: with no
    // client, none of it is made into an entry.
    for (const id of ['e1', 'e2']) {
      price(150, id);
      away(-130, id);
    }
    engine.tick();
    price(170, 'e2');
    price(-400, 'e1');
    engine.tick();
    price(160, 'e1');
    engine.tick();
    expect(hub.entriesMade).toBe(0);
    expect(hub.oldestSeq).toBe(hub.lastSeq + 1);
    const arbKeyOf = (league: string) =>
      arbKey(engine.latest!.arbs.find((arb) => engine.store.event(arb.event.id)?.league === league)!);
    const [nba, nhl] = [arbKeyOf('nba'), arbKeyOf('nhl')];

    const sink = new FakeSink();
    const client = hub.connect(keyOf('elite'), {}, sink, undefined, true);
    await client.ready;
    const [snapshot, ...before] = events(sink.text);
    expect(snapshot!.kind).toBe('snapshot');
    expect(snapshot!.data.arbs!.map((arb) => arb.key).sort()).toEqual([nba, nhl].sort());
    expect(sink.text).toContain('"american":"+170"');
    expect(sink.text).toContain('"american":"+160"');
    expect(before).toEqual([]);

    // Live: the NHL arb changes and the NBA one goes. Exactly these, compared with the snapshot the stream opened with.
    price(180, 'e2');
    price(-400, 'e1');
    engine.tick();
    await settle();
    const live = events(sink.text).slice(1);
    expect(live.filter((event) => event.kind === 'price').map((event) => event.data.price!.american)).toEqual(
      ['+180', '-400'],
    );
    expect(
      live.filter((event) => event.kind.startsWith('arb')).map((event) => [event.kind, event.data.key]),
    ).toEqual([
      ['arb', nhl],
      ['arb_removed', nba],
    ]);
    expect(hub.entriesMade).toBe(4);

    // Gone for less than idleRetainMs: a reconnect with its Last-Event-ID replays what it missed, without a snapshot.
    hub.disconnect(client);
    clock.advance(DEFAULT_STREAM_OPTIONS.idleRetainMs - 1);
    price(190, 'e2');
    const back = new FakeSink();
    await hub.connect(keyOf('elite'), {}, back, lastId(sink), true).ready;
    expect(back.text).not.toContain('event: snapshot');
    expect(events(back.text).map((event) => [event.kind, event.data.price?.american])).toEqual([
      ['price', '+190'],
    ]);
  });
});
