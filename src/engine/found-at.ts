import type { Arb } from '#domain/schemas/feed.ts';

// The arbs' `found_at` (issue 14, docs/decisions/116): when the engine first published an arb key with a positive
// edge, in unix seconds. It holds while each snapshot publishes that key with a positive edge, whatever the edge; a
// snapshot without the key (the arb disappeared, went stale, or fell below the feed's cap) or with an edge of 0 or
// below resets it, and a later positive publication starts a new one. Near-arbs (edge ≤ 0) carry no found_at.
//
// The scanner's arbs are shared and never modified: a published arb with a found_at is a copy, kept per scanner arb so
// that an unchanged arb is the same object from one snapshot to the next (the stream diffs by identity first).

export class FoundAt {
  /** Keys of the last snapshot's positive arbs → their found_at. */
  private since = new Map<string, number>();
  /** A scanner arb → the published copy carrying its found_at. */
  private readonly copies = new WeakMap<Arb, Arb>();

  /**
   * Replaces each of a snapshot's arbs (best first, `keys[i]` the engine's key of `arbs[i]`) with the object to
   * publish, carrying its found_at when its edge is positive. `nowSeconds` is the snapshot's `generated_at`.
   */
  stamp(arbs: Arb[], keys: readonly string[], nowSeconds: number): void {
    const next = new Map<string, number>();
    for (let i = 0; i < arbs.length; i += 1) {
      const arb = arbs[i]!;
      if (!(arb.edge_pct > 0)) continue; // a near-arb: published as the scanner built it, without found_at
      const key = keys[i]!;
      const found = this.since.get(key) ?? nowSeconds;
      next.set(key, found);
      let copy = this.copies.get(arb);
      if (copy?.found_at !== found) {
        copy = { ...arb, found_at: found };
        this.copies.set(arb, copy);
      }
      arbs[i] = copy;
    }
    this.since = next;
  }

  /** How many arb keys currently hold a found_at. */
  get size(): number {
    return this.since.size;
  }
}
