import { planArbsKeyed, type KeyedArbs } from '#domain/plan-arbs.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { OddsStore } from '#engine/store.ts';
import { ArbChanges } from './arb-changes.ts';
import type { Change, Entry } from './change-log.ts';

// A delayed tier's arbs on the stream (decision 223): what `planArbs` (src/domain/plan-arbs.ts, decision 210) gives the
// tier's plan now, the free part of the latest snapshot and the part above the cap of the snapshot its delay ago,
// compared with what it gave last time. Its changes are sent to the tier's streams as soon as they are made, outside
// the change log (whose delayed release would hold the free part back by the plan's delay); the arb entries of the log
// are for the real-time tier only (`matches`, `arbsFromView`).

export class PlanArbView {
  private readonly changes: ArbChanges;
  private latest: KeyedArbs<Arb> | undefined;
  private delayed: KeyedArbs<Arb> | undefined;

  /** Starts at the plan's arbs of `latest` and `delayed` (none of them is a change). */
  constructor(store: OddsStore, latest: KeyedArbs<Arb> | undefined, delayed: KeyedArbs<Arb> | undefined) {
    this.changes = new ArbChanges(store);
    this.update(latest, delayed);
  }

  /** The changes from the plan's last arbs to those of these two snapshots (none when neither is new). */
  update(latest: KeyedArbs<Arb> | undefined, delayed: KeyedArbs<Arb> | undefined): Change[] {
    if (latest === this.latest && delayed === this.delayed) return [];
    this.latest = latest;
    this.delayed = delayed;
    return this.changes.diff(latest ? planArbsKeyed(latest, delayed) : { arbs: [], keys: [] });
  }

  /** An `arb` change of each of the plan's arbs now, best first. */
  current(): Change[] {
    return this.changes.current();
  }
}

/**
 * A change of a view as an entry the filters (`matches`) and renderers take; `seq` is the tier's last released seq,
 * which names the view's events (a stream that resumes after one of them gets a snapshot).
 */
export function viewEntry(change: Change, seq: number, at: number): Entry {
  const entry: Entry = {
    seq,
    at,
    kind: change.kind,
    eventId: change.eventId,
    league: change.league,
    marketType: change.marketType,
    books: change.books,
    frame: `event: ${change.kind}\ndata: ${JSON.stringify(change.data)}\n\n`,
    fromView: true,
  };
  if (change.period !== undefined) entry.period = change.period;
  if (change.stat !== undefined) {
    entry.stat = change.stat;
    entry.playerId = change.playerId;
    entry.playerName = change.playerName;
  }
  return entry;
}
