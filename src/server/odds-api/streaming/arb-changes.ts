import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { Snapshot } from '#engine/publisher.ts';
import type { OddsStore } from '#engine/store.ts';
import type { Change } from './change-log.ts';

// The stream's arb changes (docs/decisions/082, 104): consecutive published snapshots compared arb by arb, `arb` for an
// arb that is new or changed, `arb_removed` for one that is gone, with `arbKey` of src/domain/arb-feed.ts as the `key`
// clients read. Arbs are matched by the key the snapshot carries beside each arb (`arbOrderKey`: event, market and
// `arbKey`, computed once by the engine). The engine keeps the object
// of an arb whose prices did not change, so the same object is no change, found without serialising anything; an arb
// it built again (after its event's record was sent again, say) is compared by its JSON, as every arb used to be.

export class ArbChanges {
  /** The last snapshot's arbs by the engine's key. */
  private previous = new Map<string, Arb>();

  constructor(private readonly store: OddsStore) {}

  /** Starts from a snapshot published before the stream started: its arbs are not changes. */
  seed(snapshot: Snapshot | undefined): void {
    if (snapshot) this.previous = byKey(snapshot);
  }

  /** The changes from the previous snapshot to this one: changed and new arbs in feed order, then removed ones. */
  diff(snapshot: Snapshot): Change[] {
    const changes: Change[] = [];
    const next = byKey(snapshot);
    for (const [key, arb] of next) {
      const before = this.previous.get(key);
      if (before === arb || (before && JSON.stringify(before) === JSON.stringify(arb))) continue;
      changes.push(this.change('arb', arb, { key: arbKey(arb), arb }));
    }
    for (const [key, arb] of this.previous)
      if (!next.has(key))
        changes.push(this.change('arb_removed', arb, { key: arbKey(arb), event_id: arb.event.id }));
    this.previous = next;
    return changes;
  }

  private change(kind: 'arb' | 'arb_removed', arb: Arb, data: unknown): Change {
    return {
      kind,
      eventId: arb.event.id,
      league: this.store.event(arb.event.id)?.league,
      marketType: undefined,
      books: arb.sides.map((side) => side.sportsbook),
      data,
    };
  }
}

function byKey(snapshot: Snapshot): Map<string, Arb> {
  const arbs = new Map<string, Arb>();
  snapshot.arbs.forEach((arb, index) => arbs.set(snapshot.keys[index]!, arb));
  return arbs;
}
