import { afterEach, describe, expect, it } from 'vitest';
import { getPlan, type PlanId } from '#domain/plans.ts';
import { OddsEngine } from '#engine/engine.ts';
import type { FeedEngine } from '../../plugins/engine.ts';
import type { ApiKeyRecord } from '../../api/keys.ts';
import { DEFAULT_STREAM_OPTIONS, StreamHub, type StreamSink } from './stream-hub.ts';
import { waitFor } from '../../trials/testing.ts';
import { virtualClock } from '../../api/testing.ts';

// The hub without HTTP: delayed tiers on a virtual clock, and slow readers.

class FakeSink implements StreamSink {
  text = '';
  chunks: (string | Buffer)[] = [];
  ended = false;
  destroyed = false;
  queuedBytes = 0;
  /** How many times the hub waited for this sink to flush. */
  drains = 0;
  write(chunk: string | Buffer) {
    this.chunks.push(chunk);
    this.text += chunk.toString();
  }
  end(text?: string) {
    if (text) this.text += text;
    if (text === undefined) this.destroyed = true;
    this.ended = true;
  }
  drained() {
    this.drains += 1;
    return new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const hubs: StreamHub[] = [];
afterEach(() => {
  for (const hub of hubs.splice(0)) hub.stop();
});

let nextId = 1;
function keyOf(planId: PlanId): ApiKeyRecord {
  return {
    id: nextId++,
    prefix: 'sl_live_abcdef',
    kind: 'paid',
    plan: getPlan(planId),
    ownerEmail: 'x@example.com',
    createdAt: new Date(0),
    expiresAt: null,
    revokedAt: null,
  };
}

function setup(maxQueuedBytes = 1 << 20, catchUpMs = DEFAULT_STREAM_OPTIONS.catchUpMs) {
  const clock = virtualClock();
  const engine = new OddsEngine({ source: 'replay', now: clock.now }) as unknown as FeedEngine;
  engine.markReady();
  engine.ingest({
    kind: 'event',
    sourceEventId: 'e1',
    league: 'nba',
    home: { name: 'Boston Celtics' },
    away: { name: 'New York Knicks' },
    startsAt: clock.now() + 3_600_000,
  });
  const hub = new StreamHub(
    engine,
    {
      ...DEFAULT_STREAM_OPTIONS,
      heartbeatMs: 60_000,
      bufferSize: 1000,
      maxQueuedBytes,
      recheckMs: 60_000,
      releaseMs: 2,
      batchMs: 1,
      catchUpMs,
    },
    clock.now,
  );
  hub.start(async () => []);
  hubs.push(hub);
  engine.ingest({
    kind: 'event',
    sourceEventId: 'e2',
    league: 'nhl',
    home: { name: 'Boston Bruins' },
    away: { name: 'New York Rangers' },
    startsAt: clock.now() + 3_600_000,
  });
  const price = (american: number, sourceEventId = 'e1', book = 'fanduel') =>
    engine.ingest({
      kind: 'price',
      sourceEventId,
      book,
      market: 'moneyline',
      outcome: 'home',
      american,
    });
  return { clock, engine, hub, price };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 25));
const prices = (sink: FakeSink) => (sink.text.match(/event: price/g) ?? []).length;

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
  const ids = (sink: FakeSink) => [...sink.text.matchAll(/^id: [0-9a-z]+-(\d+)$/gm)].map((m) => Number(m[1]));
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
