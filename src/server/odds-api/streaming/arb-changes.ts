import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { Snapshot } from '#engine/publisher.ts';
import type { OddsStore } from '#engine/store.ts';
import { snapshotFeed } from '../views.ts';
import type { Change } from './change-log.ts';

// The stream's arb changes: consecutive published snapshots compared by arb key (`arbKey` of src/domain/arb-feed.ts,
// the `key` field clients read): `arb` for an arb that is new or changed, `arb_removed` for one that is gone
// (docs/decisions/082).

export class ArbChanges {
  private previous = new Map<string, { json: string; arb: Arb }>();

  constructor(private readonly store: OddsStore) {}

  /** Starts from a snapshot published before the stream started: its arbs are not changes. */
  seed(snapshot: Snapshot | undefined): void {
    if (snapshot)
      for (const arb of snapshotFeed(snapshot).arbs)
        this.previous.set(arbKey(arb), { json: JSON.stringify(arb), arb });
  }

  /** The changes from the previous snapshot to this one: changed and new arbs in feed order, then removed ones. */
  diff(snapshot: Snapshot): Change[] {
    const changes: Change[] = [];
    const next = new Map<string, { json: string; arb: Arb }>();
    for (const arb of snapshotFeed(snapshot).arbs) next.set(arbKey(arb), { json: JSON.stringify(arb), arb });
    for (const [key, { json, arb }] of next) {
      if (this.previous.get(key)?.json === json) continue;
      changes.push(this.change('arb', arb, { key, arb }));
    }
    for (const [key, { arb }] of this.previous)
      if (!next.has(key)) changes.push(this.change('arb_removed', arb, { key, event_id: arb.event.id }));
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
