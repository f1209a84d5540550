import { describe, expect, it } from 'vitest';
import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import { FakeSink, keyOf, settle, setup } from '#tests/support/server/stream-hub.ts';

// Arb changes from consecutive engine snapshots (decisions 082, 104), as a client of every arb receives them.

describe('StreamHub arb changes', () => {
  const arbEvents = (sink: FakeSink) =>
    [...sink.text.matchAll(/^event: (arb|arb_removed)\ndata: (.*)$/gm)].map((match) => ({
      kind: match[1],
      ...(JSON.parse(match[2]!) as { key: string; arb?: Arb; event_id?: string }),
    }));

  it('sends an arb when its price changes, nothing for an unchanged market, arb_removed once it is gone', async () => {
    const { engine, hub, price } = setup();
    const sink = new FakeSink();
    hub.connect(keyOf('elite'), { kinds: new Set(['arb'] as const) }, sink, undefined, false);
    const away = (american: number, sourceEventId: string) =>
      engine.ingest({
        kind: 'price',
        sourceEventId,
        book: 'draftkings',
        market: 'moneyline',
        outcome: 'away',
        american,
      });
    for (const id of ['e1', 'e2']) {
      price(150, id);
      away(-130, id);
    }
    engine.tick();
    await settle();
    const arbOf = (league: string) =>
      engine.latest!.arbs.find((arb) => engine.store.event(arb.event.id)?.league === league)!;
    const [nba, nhl] = [arbOf('nba'), arbOf('nhl')];
    expect(
      arbEvents(sink)
        .map((event) => event.key)
        .sort(),
    ).toEqual([arbKey(nba), arbKey(nhl)].sort());

    // Only the NHL market changes: one `arb`, for it, with its new price.
    price(170, 'e2');
    engine.tick();
    await settle();
    const changed = arbEvents(sink).slice(2);
    expect(changed.map((event) => [event.kind, event.key])).toEqual([['arb', arbKey(nhl)]]);
    expect(changed[0]!.arb!.sides.map((side) => side.price)).toContain('+170');

    // The NBA arb is built again as a new object with the same content (its event's record sent again, then a
    // re-scan): still no change for it, while the NHL one changes again.
    const nbaBefore = engine.latest!.arbs.find((arb) => arbKey(arb) === arbKey(nba))!;
    engine.ingest({
      kind: 'event',
      sourceEventId: 'e1',
      league: 'nba',
      home: { name: 'Boston Celtics' },
      away: { name: 'New York Knicks' },
      startsAt: engine.store.event(nba.event.id)!.startsAt,
    });
    price(-400, 'e1', 'betmgm');
    price(180, 'e2');
    engine.tick();
    await settle();
    const nbaAfter = engine.latest!.arbs.find((arb) => arbKey(arb) === arbKey(nba))!;
    expect(nbaAfter).not.toBe(nbaBefore);
    expect(JSON.stringify(nbaAfter)).toBe(JSON.stringify(nbaBefore));
    expect(
      arbEvents(sink)
        .slice(3)
        .map((event) => [event.kind, event.key]),
    ).toEqual([['arb', arbKey(nhl)]]);

    // The NHL arb goes: `arb_removed` with its key and event.
    price(-400, 'e2');
    engine.tick();
    await settle();
    expect(arbEvents(sink).slice(4)).toEqual([
      { kind: 'arb_removed', key: arbKey(nhl), event_id: nhl.event.id },
    ]);
  });
});
