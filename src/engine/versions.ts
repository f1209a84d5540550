import type { PriceLinks } from '#domain/markets.ts';

// The earlier versions of the engine's prices, for delayed readers (the paid API's Starter and Pro plans see the
// market as it was known 2 minutes or 15 seconds ago; decision 130). Each price's newest version is an object in the
// store; what it replaced, and its own earlier receipts (re-confirmations), are entries of one columnar ring shared by
// the whole store: typed arrays (45 bytes an entry) instead of one ~150-byte object per version.
//
// An entry is appended for every update of a price, new version or re-confirmation: it is the version (or receipt)
// that stopped being the newest at that instant, chained to the entry before it by sequence number. An entry is needed
// while a reader inside the window could see it: until the receipt that superseded it (its append time) is older than
// the window start. Append times only grow, so the entries no reader needs are always the oldest: the sweep drops them
// from the tail, and a chain simply ends at the first sequence number older than the tail.

/** The fields of a version an entry keeps (the book and outcome are the newest object's). */
export interface VersionFields {
  american: number;
  decimal: number;
  links: PriceLinks;
  updatedAt: number;
  receivedAt: number;
  suspended: boolean;
}

/** What heads a chain: the price's newest version, holding the sequence number of its latest entry (-1: none). */
export interface VersionOwner extends VersionFields {
  history: number;
}

const NONE = -1;
const INITIAL_CAPACITY = 1024;
const SUSPENDED = 1;
/** The entry's links differ from its successor's; they are in `ownLinks` (links rarely change). */
const OWN_LINKS = 2;

export class VersionRing {
  private capacity = INITIAL_CAPACITY;
  private receivedAt = new Float64Array(INITIAL_CAPACITY);
  private updatedAt = new Float64Array(INITIAL_CAPACITY);
  /** When the entry was superseded (appended): what the sweep reads. */
  private supersededAt = new Float64Array(INITIAL_CAPACITY);
  private decimal = new Float64Array(INITIAL_CAPACITY);
  private american = new Float64Array(INITIAL_CAPACITY);
  /** Sequence number of the entry minus its predecessor's; 0 when it has none. */
  private prevDelta = new Int32Array(INITIAL_CAPACITY);
  private flags = new Uint8Array(INITIAL_CAPACITY);
  private readonly ownLinks = new Map<number, PriceLinks>();
  /** Sequence numbers: the oldest live entry, and the next to be appended. */
  private tail = 0;
  private head = 0;
  /**
   * Their slots (`seq % capacity`), kept as they advance: appending and sweeping, once per update, take no division
   * (only a delayed read walking a chain does).
   */
  private tailSlot = 0;
  private headSlot = 0;

  constructor(private readonly windowMs: number) {}

  /** Entries held: the versions and receipts that readers inside the window may still see. */
  get size(): number {
    return this.head - this.tail;
  }

  /**
   * Records `price` as it is now (the version being replaced, or the receipt being re-confirmed) as superseded at
   * `now`: the latest entry of its chain. The caller then gives `price` the new version's fields in place, `links`
   * among them (the same links for a re-confirmation).
   */
  replace(price: VersionOwner, links: PriceLinks, now: number): void {
    this.sweep(now - this.windowMs);
    if (this.head - this.tail === this.capacity) this.grow();
    const seq = this.head;
    const slot = this.headSlot;
    this.head += 1;
    this.headSlot = slot + 1 === this.capacity ? 0 : slot + 1;
    const previous = price.history;
    this.receivedAt[slot] = price.receivedAt;
    this.updatedAt[slot] = price.updatedAt;
    this.supersededAt[slot] = now;
    this.decimal[slot] = price.decimal;
    this.american[slot] = price.american;
    this.prevDelta[slot] = previous >= this.tail ? seq - previous : 0;
    let flags = price.suspended ? SUSPENDED : 0;
    if (price.links !== links) {
      flags |= OWN_LINKS;
      this.ownLinks.set(seq, price.links);
    }
    this.flags[slot] = flags;
    price.history = seq;
  }

  /**
   * The version of a chain as known at `at`: the newest receipt at or before it (with `updatedBy`, whose book time is
   * too): the newest object itself when it qualifies, else a copy of it with that entry's fields; null when the window
   * holds none.
   */
  versionAt<T extends VersionOwner>(newest: T, at: number, updatedBy: boolean): T | null {
    if (newest.receivedAt <= at && (!updatedBy || newest.updatedAt <= at)) return newest;
    let links = newest.links;
    for (let seq = newest.history; seq >= this.tail;) {
      const slot = seq % this.capacity;
      if (this.flags[slot]! & OWN_LINKS) links = this.ownLinks.get(seq)!;
      if (this.receivedAt[slot]! <= at && (!updatedBy || this.updatedAt[slot]! <= at))
        return this.materialise(newest, slot, links);
      const delta = this.prevDelta[slot]!;
      if (delta === 0) break;
      seq -= delta;
    }
    return null;
  }

  /** Every version of a chain still held, newest first (tests and diagnostics). */
  chain<T extends VersionOwner>(newest: T): T[] {
    const out = [newest];
    let links = newest.links;
    for (let seq = newest.history; seq >= this.tail;) {
      const slot = seq % this.capacity;
      if (this.flags[slot]! & OWN_LINKS) links = this.ownLinks.get(seq)!;
      out.push(this.materialise(newest, slot, links));
      const delta = this.prevDelta[slot]!;
      if (delta === 0) break;
      seq -= delta;
    }
    return out;
  }

  private materialise<T extends VersionOwner>(newest: T, slot: number, links: PriceLinks): T {
    return {
      ...newest,
      american: this.american[slot]!,
      decimal: this.decimal[slot]!,
      links,
      updatedAt: this.updatedAt[slot]!,
      receivedAt: this.receivedAt[slot]!,
      suspended: (this.flags[slot]! & SUSPENDED) !== 0,
      history: NONE,
    };
  }

  /** Drops the oldest entries superseded at or before `horizon`: no reader inside the window can see them. */
  private sweep(horizon: number): void {
    while (this.tail < this.head) {
      const slot = this.tailSlot;
      if (this.supersededAt[slot]! > horizon) return;
      if (this.flags[slot]! & OWN_LINKS) this.ownLinks.delete(this.tail);
      this.tail += 1;
      this.tailSlot = slot + 1 === this.capacity ? 0 : slot + 1;
    }
  }

  /**
   * Makes room: arrays half as large again, each live entry at its sequence number's slot in them. The live entries
   * are at most three runs contiguous in both the old and the new arrays (a run ends where either wraps), each copied
   * with one `set` (an entry at a time, through one function for three kinds of array, was most of a short replay's
   * time in the ring).
   */
  private grow(): void {
    const capacity = Math.ceil(this.capacity * 1.5);
    const runs: number[] = [];
    for (let seq = this.tail; seq < this.head;) {
      const from = seq % this.capacity;
      const to = seq % capacity;
      const length = Math.min(this.head - seq, this.capacity - from, capacity - to);
      runs.push(from, to, length);
      seq += length;
    }
    const move = <A extends Float64Array | Int32Array | Uint8Array>(source: A, target: A): A => {
      for (let i = 0; i < runs.length; i += 3)
        target.set(source.subarray(runs[i]!, runs[i]! + runs[i + 2]!), runs[i + 1]!);
      return target;
    };
    this.receivedAt = move(this.receivedAt, new Float64Array(capacity));
    this.updatedAt = move(this.updatedAt, new Float64Array(capacity));
    this.supersededAt = move(this.supersededAt, new Float64Array(capacity));
    this.decimal = move(this.decimal, new Float64Array(capacity));
    this.american = move(this.american, new Float64Array(capacity));
    this.prevDelta = move(this.prevDelta, new Int32Array(capacity));
    this.flags = move(this.flags, new Uint8Array(capacity));
    this.capacity = capacity;
    this.tailSlot = this.tail % capacity;
    this.headSlot = this.head % capacity;
  }
}
