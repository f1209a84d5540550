import type { PriceLinks } from '#domain/markets.ts';

// The earlier versions of the engine's prices, for delayed readers (the paid API's Starter and Pro plans see the
// market as it was known 2 minutes or 15 seconds ago; decision 127a). Each price's newest version is an object in the
// store; what it replaced, and its own earlier receipts (re-confirmations), are entries of one columnar ring shared by
// the whole store: typed arrays for the numbers (45 bytes an entry) instead of one ~150-byte object per version. With
// the simulator's props the window holds ~0.7 M entries: ~35 MB instead of ~100 MB of objects.
//
// An entry is appended for every update of a price (a new version or a re-confirmation) and chained to the entry
// before it (`prev`) and to what follows it (`next`, or, for a price's latest entry, the newest object: `owners`).
// Entries are appended in time order; the oldest are swept from the tail once received before the window start,
// except the one a reader at the window start still needs (the latest at or before it, its successor received after
// it): that one is moved to the head and swept again one window later.

/** The fields of a version an entry keeps (the book and outcome are the newest object's). */
export interface VersionFields {
  american: number;
  decimal: number;
  links: PriceLinks;
  updatedAt: number;
  receivedAt: number;
  suspended: boolean;
}

/** What owns a chain: the price's newest version, holding the index of its latest entry (-1: none). */
export interface VersionOwner extends VersionFields {
  history: number;
}

const NONE = -1;
/** `next` of an entry no reader can reach any more, left behind a moved entry; freed when the sweep reaches it. */
const DEAD = -2;
const INITIAL_CAPACITY = 1024;
/** Entries examined per append: more than one, so that the sweep keeps up with the appends and catches up after a lull. */
const SWEEP_STEPS = 4;

export class VersionRing {
  private capacity = INITIAL_CAPACITY;
  private receivedAt = new Float64Array(INITIAL_CAPACITY);
  private updatedAt = new Float64Array(INITIAL_CAPACITY);
  private decimal = new Float64Array(INITIAL_CAPACITY);
  private american = new Int32Array(INITIAL_CAPACITY);
  private suspended = new Uint8Array(INITIAL_CAPACITY);
  private prev = new Int32Array(INITIAL_CAPACITY);
  private next = new Int32Array(INITIAL_CAPACITY);
  private links: (PriceLinks | undefined)[] = new Array<PriceLinks | undefined>(INITIAL_CAPACITY);
  /** For a chain's latest entry, its newest version; undefined otherwise. */
  private owners: (VersionOwner | undefined)[] = new Array<VersionOwner | undefined>(INITIAL_CAPACITY);
  private tail = 0;
  private count = 0;

  constructor(private readonly windowMs: number) {}

  /** Entries held (versions and receipts inside the window, plus the ones readers at its start need). */
  get size(): number {
    return this.count;
  }

  /**
   * Records `replaced` (the version being replaced, or the receipt being re-confirmed, as it is now) as the latest entry
   * of the chain that `owner` heads from now on: the new newest version, or `replaced` itself about to take the new
   * receipt's times.
   */
  push(replaced: VersionOwner, owner: VersionOwner, now: number): void {
    this.sweep(now - this.windowMs);
    if (this.count === this.capacity) this.grow();
    const slot = (this.tail + this.count) % this.capacity;
    this.count += 1;
    // Read after the sweep, which may have freed the chain's latest entry.
    const previousHistory = replaced.history;
    this.write(slot, replaced);
    this.prev[slot] = previousHistory;
    this.next[slot] = NONE;
    this.owners[slot] = owner;
    if (previousHistory !== NONE) {
      this.next[previousHistory] = slot;
      this.owners[previousHistory] = undefined;
    }
    owner.history = slot;
  }

  /**
   * The version of a chain as known at `at`: the newest receipt at or before it (with `updatedBy`, whose book time is
   * too), as a copy of the newest object with that entry's fields; the newest object itself when it qualifies; null
   * when the window holds none.
   */
  versionAt<T extends VersionOwner>(newest: T, at: number, updatedBy: boolean): T | null {
    if (newest.receivedAt <= at && (!updatedBy || newest.updatedAt <= at)) return newest;
    for (let slot = newest.history; slot !== NONE; slot = this.prev[slot]!) {
      if (this.receivedAt[slot]! <= at && (!updatedBy || this.updatedAt[slot]! <= at))
        return this.materialise(newest, slot);
    }
    return null;
  }

  /** Every version of a chain, newest first (tests and diagnostics). */
  chain<T extends VersionOwner>(newest: T): T[] {
    const out = [newest];
    for (let slot = newest.history; slot !== NONE; slot = this.prev[slot]!)
      out.push(this.materialise(newest, slot));
    return out;
  }

  private materialise<T extends VersionOwner>(newest: T, slot: number): T {
    return {
      ...newest,
      american: this.american[slot]!,
      decimal: this.decimal[slot]!,
      links: this.links[slot]!,
      updatedAt: this.updatedAt[slot]!,
      receivedAt: this.receivedAt[slot]!,
      suspended: this.suspended[slot] === 1,
      history: NONE,
    };
  }

  /** Makes room: the entries in ring order at the start of arrays half as large again, their links renumbered. */
  private grow(): void {
    const capacity = Math.ceil(this.capacity * 1.5);
    const renumber = (slot: number) => (slot < 0 ? slot : (slot - this.tail + this.capacity) % this.capacity);
    const receivedAt = new Float64Array(capacity);
    const updatedAt = new Float64Array(capacity);
    const decimal = new Float64Array(capacity);
    const american = new Int32Array(capacity);
    const suspended = new Uint8Array(capacity);
    const prev = new Int32Array(capacity);
    const next = new Int32Array(capacity);
    const links = new Array<PriceLinks | undefined>(capacity);
    const owners = new Array<VersionOwner | undefined>(capacity);
    for (let index = 0; index < this.count; index += 1) {
      const slot = (this.tail + index) % this.capacity;
      receivedAt[index] = this.receivedAt[slot]!;
      updatedAt[index] = this.updatedAt[slot]!;
      decimal[index] = this.decimal[slot]!;
      american[index] = this.american[slot]!;
      suspended[index] = this.suspended[slot]!;
      prev[index] = renumber(this.prev[slot]!);
      next[index] = renumber(this.next[slot]!);
      links[index] = this.links[slot];
      const owner = this.owners[slot];
      owners[index] = owner;
      if (owner) owner.history = index;
    }
    Object.assign(this, { receivedAt, updatedAt, decimal, american, suspended, prev, next, links, owners });
    this.capacity = capacity;
    this.tail = 0;
  }

  private write(slot: number, fields: VersionFields): void {
    this.receivedAt[slot] = fields.receivedAt;
    this.updatedAt[slot] = fields.updatedAt;
    this.decimal[slot] = fields.decimal;
    this.american[slot] = fields.american;
    this.suspended[slot] = fields.suspended ? 1 : 0;
    this.links[slot] = fields.links;
  }

  /**
   * Frees the tail's entries received at or before `horizon` that no reader inside the window needs (their successor
   * was received at or before it too), and moves to the head the one each chain still needs. At most SWEEP_STEPS.
   */
  private sweep(horizon: number): void {
    for (let step = 0; step < SWEEP_STEPS && this.count > 0; step += 1) {
      const slot = this.tail;
      if (this.receivedAt[slot]! > horizon) return;
      this.tail = (this.tail + 1) % this.capacity;
      this.count -= 1;
      const next = this.next[slot]!;
      const owner = this.owners[slot];
      const links = this.links[slot];
      this.links[slot] = undefined;
      this.owners[slot] = undefined;
      if (next === DEAD) continue;
      // Whatever came before it in its chain (at most a moved entry, still ahead in the ring) is no longer needed.
      const before = this.prev[slot]!;
      if (before !== NONE) this.next[before] = DEAD;
      const successorReceivedAt = next === NONE ? owner!.receivedAt : this.receivedAt[next]!;
      if (successorReceivedAt <= horizon) {
        // Garbage: what follows covers the window start. Unlink it from its successor.
        if (next === NONE) owner!.history = NONE;
        else this.prev[next] = NONE;
        continue;
      }
      // Still needed by a reader at the window start: move it to the head. Nothing before it is needed.
      const moved = (this.tail + this.count) % this.capacity;
      this.count += 1;
      if (moved !== slot) {
        this.receivedAt[moved] = this.receivedAt[slot]!;
        this.updatedAt[moved] = this.updatedAt[slot]!;
        this.decimal[moved] = this.decimal[slot]!;
        this.american[moved] = this.american[slot]!;
        this.suspended[moved] = this.suspended[slot]!;
      }
      this.links[moved] = links;
      this.prev[moved] = NONE;
      this.next[moved] = next;
      this.owners[moved] = owner;
      if (next === NONE) owner!.history = moved;
      else this.prev[next] = moved;
    }
  }
}
