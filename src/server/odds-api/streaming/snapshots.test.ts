import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAM_OPTIONS } from './stream-hub.ts';
import { FakeSink, ids, keyOf, prices, settle, setup } from '#tests/support/server/stream-hub.ts';
import { waitFor } from '#tests/support/server/trials.ts';

describe('StreamHub snapshots (decision 087)', () => {
  const snapshotOf = (sink: FakeSink) => JSON.parse(/event: snapshot\ndata: (.*)\n/.exec(sink.text)![1]!);
  const snapshotPieces = (sink: FakeSink) => {
    const text = sink.chunks.map((chunk) => chunk.toString());
    const start = text.findIndex((chunk) => chunk.includes('event: snapshot'));
    const end = text.findIndex((chunk, index) => index >= start && chunk.endsWith(']}\n\n'));
    return sink.chunks.slice(start, end + 1);
  };

  it('encodes a snapshot once for two clients opening in the same group and writes both the same Buffers', async () => {
    const { hub, price } = setup();
    price(150);
    price(-120, 'e2');
    const [a, b, other] = [new FakeSink(), new FakeSink(), new FakeSink()];
    const first = hub.connect(keyOf('elite'), { league: 'nba' }, a, undefined, true);
    const second = hub.connect(keyOf('enterprise'), { league: 'nba' }, b, undefined, true);
    const third = hub.connect(keyOf('elite'), { league: 'nhl' }, other, undefined, true);
    await Promise.all([first.ready, second.ready, third.ready]);
    expect(hub.snapshotBuilds).toBe(2);
    const pieces = snapshotPieces(a);
    expect(pieces.length).toBeGreaterThan(0);
    expect(Buffer.isBuffer(pieces[0])).toBe(true);
    expect(snapshotPieces(b)).toEqual(pieces);
    snapshotPieces(b).forEach((piece, index) => expect(piece).toBe(pieces[index]));
    expect(snapshotOf(a).events[0].event.home.name).toBe('Boston Celtics');
    expect(snapshotOf(other).events[0].event.home.name).toBe('Boston Bruins');
  });

  it('gives a client opening after a change the shared snapshot, then that change; a second later, a new one', async () => {
    const { clock, hub, price } = setup();
    price(150);
    const early = new FakeSink();
    await hub.connect(keyOf('elite'), { league: 'nba' }, early, undefined, true).ready;
    price(170);
    await settle();
    const late = new FakeSink();
    await hub.connect(keyOf('elite'), { league: 'nba' }, late, undefined, true).ready;
    expect(hub.snapshotBuilds).toBe(1);
    expect(snapshotPieces(late)[0]).toBe(snapshotPieces(early)[0]);
    // The snapshot as built (+150), then the change since (+170), once, in id order.
    expect(late.text.indexOf('event: snapshot')).toBeLessThan(late.text.indexOf('"american":"+170"'));
    expect(prices(late)).toBe(1);
    const ids = [...late.text.matchAll(/^id: [0-9a-z]+-(\d+)$/gm)].map((match) => Number(match[1]));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    price(180);
    await settle();
    expect(prices(late)).toBe(2);
    expect(prices(early)).toBe(2);

    clock.advance(DEFAULT_STREAM_OPTIONS.snapshotReuseMs);
    const later = new FakeSink();
    await hub.connect(keyOf('elite'), { league: 'nba' }, later, undefined, true).ready;
    expect(hub.snapshotBuilds).toBe(2);
    expect(later.text).toContain('"american":"+180"');
    expect(prices(later)).toBe(0);
  });

  it("sends a large board's snapshot in several writes, each after the previous one was flushed, not in connect()", async () => {
    const { engine, hub } = setup();
    const books = [
      'fanduel',
      'draftkings',
      'betmgm',
      'caesars',
      'circa',
      'betrivers',
      'fanatics',
      'espn',
      'ballybet',
      'hardrock',
    ];
    for (let index = 0; index < 150; index += 1) {
      engine.ingest({
        kind: 'event',
        sourceEventId: `big-${index}`,
        league: 'nba',
        home: { name: `Home ${index}` },
        away: { name: `Away ${index}` },
        startsAt: Date.UTC(2026, 10, 23) + index * 60_000,
      });
      for (const book of books)
        for (const outcome of ['home', 'away'] as const)
          engine.ingest({
            kind: 'price',
            sourceEventId: `big-${index}`,
            book,
            market: 'moneyline',
            outcome,
            american: outcome === 'home' ? -110 - index : 100 + index,
          });
    }
    const sink = new FakeSink();
    const client = hub.connect(keyOf('elite'), {}, sink, undefined, true);
    // connect() has written no more than the retry line so far: the snapshot follows piece by piece.
    expect(sink.text).toBe('retry: 2000\n\n');
    await client.ready;
    const pieces = snapshotPieces(sink);
    const bytes = pieces.reduce((sum, piece) => sum + piece.length, 0);
    expect(bytes).toBeGreaterThan(4 * DEFAULT_STREAM_OPTIONS.snapshotChunkBytes);
    expect(pieces.length).toBeGreaterThanOrEqual(4);
    expect(sink.drains).toBeGreaterThanOrEqual(pieces.length);
    expect(snapshotOf(sink).events).toHaveLength(150);
  });

  it('holds back live changes from a client until its snapshot is written, then sends each once', async () => {
    const { hub, price } = setup();
    const sink = new FakeSink();
    const client = hub.connect(keyOf('elite'), { league: 'nba' }, sink, undefined, true);
    price(150);
    price(160);
    await client.ready;
    await settle();
    expect(prices(sink)).toBe(2);
    expect(sink.text.indexOf('event: snapshot')).toBeLessThan(sink.text.indexOf('event: price'));
    price(170);
    await settle();
    expect(prices(sink)).toBe(3);
  });

  it('catches clients up over several capped segments: each entry since the snapshot once, in order, then live', async () => {
    // About one price per segment: 36 changes since the build take many renders and writes (decision 104).
    const { hub, price } = setup(1 << 20, DEFAULT_STREAM_OPTIONS.catchUpMs, { snapshotChunkBytes: 512 });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const a = new FakeSink();
    let midway = false;
    a.drained = async () => {
      a.drains += 1;
      await gate;
      if (!midway && a.text.includes('event: price')) {
        // Halfway through the catch-up, more changes are released to the tier: they follow in the same segments.
        midway = true;
        for (let i = 0; i < 5; i += 1) price(200 + i, 'e2');
        await settle();
      }
      await new Promise((resolve) => setImmediate(resolve));
    };
    const first = hub.connect(keyOf('elite'), {}, a, undefined, true);
    for (let i = 0; i < 30; i += 1) price(101 + i, i % 2 ? 'e1' : 'e2');
    await settle(); // released to the tier while `a` waits for its first piece to flush
    const b = new FakeSink();
    const second = hub.connect(keyOf('elite'), {}, b, undefined, true);
    open();
    await Promise.all([first.ready, second.ready]);
    const catchUpWrites = a.chunks.filter((chunk) => chunk.toString().includes('event: price')).length;
    price(300);
    await settle();
    expect(midway).toBe(true);
    expect(hub.snapshotBuilds).toBe(1);
    expect(catchUpWrites).toBeGreaterThan(5);
    for (const sink of [a, b]) {
      const [snapshotSeq, ...since] = ids(sink);
      expect(sink.text.indexOf(`event: snapshot`)).toBeLessThan(sink.text.indexOf('event: price'));
      expect(since).toEqual(
        Array.from({ length: hub.lastSeq - snapshotSeq! }, (_, i) => snapshotSeq! + 1 + i),
      );
      expect(prices(sink)).toBe(36);
    }
  });

  it('drops a client that stops reading before it has its snapshot, freeing its slot', async () => {
    const { hub, price } = setup(1 << 20, 50);
    price(150);
    const stalled = new FakeSink();
    stalled.drained = () => new Promise<void>(() => {});
    const key = keyOf('elite');
    hub.connect(key, {}, stalled, undefined, true);
    expect(hub.connectionsOf(key.id)).toBe(1);
    await waitFor(() => stalled.destroyed, 'the stalled client to be dropped');
    expect(hub.connectionsOf(key.id)).toBe(0);
    expect(hub.dropped).toBe(1);
  });
});
