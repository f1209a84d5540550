import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { KeyedArbs } from '#domain/plan-arbs.ts';
import type { OddsStore } from '#engine/store.ts';
import { arbMarket } from '../views.ts';
import type { Change } from './change-log.ts';
import { marketFacts, type MarketFacts } from './market-facts.ts';

// The stream's arb changes (docs/decisions/082, 104): consecutive published snapshots compared arb by arb, `arb` for an
// arb that is new or changed, `arb_removed` for one that is gone, with `arbKey` of src/domain/arb-feed.ts as the `key`
// clients read. Arbs are matched by the key the snapshot carries beside each arb (`arbOrderKey`: event, market and
// `arbKey`, computed once by the engine). The engine keeps the object
// of an arb whose prices did not change, so the same object is no change, found without serialising anything; an arb
// it built again (after its event's record was sent again, say) is compared by its JSON, as every arb used to be. Each
// change carries its market's facts (type, period, stat, player), so that every filter of the stream applies to arbs
// as to prices (issue 56).

export class ArbChanges {
  /** The last snapshot's arbs by the engine's key. */
  private previous = new Map<string, Arb>();
  /**
   * The market facts of the last snapshot's arbs by the engine's key, found once per arb (issue 56: the stream's
   * filters apply to arbs too), and kept for its removal, when the store may no longer hold its market.
   */
  private facts = new Map<string, MarketFacts | undefined>();

  constructor(private readonly store: OddsStore) {}

  /** Starts from a snapshot published before the stream started: its arbs are not changes. */
  seed(snapshot: KeyedArbs<Arb> | undefined): void {
    if (snapshot) this.previous = byKey(snapshot);
  }

  /** Holds nothing (an idle stream hub compares no snapshots); `seed` starts again. */
  forget(): void {
    this.previous = new Map();
    this.facts = new Map();
  }

  /** The changes from the previous snapshot to this one: changed and new arbs in feed order, then removed ones. */
  diff(snapshot: KeyedArbs<Arb>): Change[] {
    const changes: Change[] = [];
    const next = byKey(snapshot);
    const facts = new Map<string, MarketFacts | undefined>();
    for (const [key, arb] of next) {
      const before = this.previous.get(key);
      const known = this.facts.has(key) ? this.facts.get(key) : this.factsOf(arb);
      facts.set(key, known);
      if (before === arb || (before && JSON.stringify(before) === JSON.stringify(arb))) continue;
      changes.push(this.change('arb', arb, known, { key: arbKey(arb), arb }));
    }
    for (const [key, arb] of this.previous)
      if (!next.has(key))
        changes.push(
          this.change('arb_removed', arb, this.facts.get(key), { key: arbKey(arb), event_id: arb.event.id }),
        );
    this.previous = next;
    this.facts = facts;
    return changes;
  }

  /** An `arb` change for every arb of the last set, in its order (what a client holding that set has). */
  current(): Change[] {
    const changes: Change[] = [];
    for (const [key, arb] of this.previous)
      changes.push(this.change('arb', arb, this.facts.get(key), { key: arbKey(arb), arb }));
    return changes;
  }

  private factsOf(arb: Arb): MarketFacts | undefined {
    const market = arbMarket(this.store, arb);
    return market ? marketFacts(market) : undefined;
  }

  private change(
    kind: 'arb' | 'arb_removed',
    arb: Arb,
    facts: MarketFacts | undefined,
    data: unknown,
  ): Change {
    return {
      kind,
      eventId: arb.event.id,
      league: this.store.event(arb.event.id)?.league,
      // The arb's own type when its market is no longer known: a `markets` filter still applies.
      ...(facts ?? { marketType: arb.market_type }),
      books: arb.sides.map((side) => side.sportsbook),
      data,
    };
  }
}

function byKey(snapshot: KeyedArbs<Arb>): Map<string, Arb> {
  const arbs = new Map<string, Arb>();
  snapshot.arbs.forEach((arb, index) => arbs.set(snapshot.keys[index]!, arb));
  return arbs;
}
