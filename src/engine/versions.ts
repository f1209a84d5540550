import type { PriceLinks } from '#domain/markets.ts';

// The earlier versions of the engine's prices, for delayed readers (the paid API's Starter and Pro plans see the
// market as it was known 2 minutes or 15 seconds ago; decision 130). Each price's newest version is a row of its
// market's columns in the store (store.ts `MarketState.hot`; decision 198); what it replaced, and its own earlier
// receipts (re-confirmations), are entries of one columnar ring shared by the whole store: typed arrays (45 bytes an
// entry) instead of one ~150-byte object per version.
//
// An entry is appended for every update of a price, new version or re-confirmation: it is the version (or receipt)
// that stopped being the newest at that instant, chained to the entry before it by sequence number. An entry is needed
// while a reader inside the window could see it: until the receipt that superseded it (its append time) is older than
// the window start. Append times only grow, so the entries no reader needs are always the oldest: the sweep drops them
// from the tail, and a chain simply ends at the first sequence number older than the tail.

/** The fields of a version an entry keeps (the book and outcome are the newest version's). */
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
/** Entries per chunk by default (~737 KB of typed arrays): a few hundred chunks hold the 3-minute window of a busy board. */
const DEFAULT_CHUNK_SIZE = 1 << 14;
/** Swept chunks kept for the next ones the head needs (already touched memory), beyond which they are left to the collector. */
const MAX_SPARE_CHUNKS = 2;
const SUSPENDED = 1;
/** A price's flags in the store's columns (`replaceAt`): it is quoted; and it is suspended. */
export const PRICE_PRESENT = 1;
export const PRICE_SUSPENDED = 2;
/** The entry's links differ from its successor's; they are in `ownLinks` (links rarely change). */
const OWN_LINKS = 2;

/** One chunk of consecutive entries: the columns of `chunkSize` entries, in one buffer. */
interface Chunk {
  receivedAt: Float64Array;
  updatedAt: Float64Array;
  /** When the entry was superseded (appended): what the sweep reads. */
  supersededAt: Float64Array;
  decimal: Float64Array;
  american: Float64Array;
  /** Sequence number of the entry minus its predecessor's; 0 when it has none. */
  prevDelta: Int32Array;
  flags: Uint8Array;
}

/** The columns before the first chunk (never read: the ring is empty, and the head takes a chunk first). */
const EMPTY: Chunk = makeChunk(0);

function makeChunk(size: number): Chunk {
  const buffer = new ArrayBuffer(size * (5 * 8 + 4 + 1));
  return {
    receivedAt: new Float64Array(buffer, 0, size),
    updatedAt: new Float64Array(buffer, size * 8, size),
    supersededAt: new Float64Array(buffer, size * 16, size),
    decimal: new Float64Array(buffer, size * 24, size),
    american: new Float64Array(buffer, size * 32, size),
    prevDelta: new Int32Array(buffer, size * 40, size),
    flags: new Uint8Array(buffer, size * 44, size),
  };
}

/**
 * The entries, in chunks of `chunkSize` consecutive sequence numbers (decision 196): the head appends to its chunk and
 * takes a new one when it is full, the sweep lets go of a chunk once its last entry is dropped. Nothing is ever copied
 * to grow: before, the ring was one set of arrays grown by half again, and copying them (with the first writes to the
 * new memory) took about a tenth of the engine bench's CPU and put pauses of tens of milliseconds into single updates.
 */
export class VersionRing {
  private readonly chunkSize: number;
  private readonly shift: number;
  /** The live chunks, oldest first: `chunks[k]` holds sequence numbers from `(first + k) * chunkSize`. */
  private chunks: Chunk[] = [];
  private first = 0;
  private readonly spare: Chunk[] = [];
  private readonly ownLinks = new Map<number, PriceLinks>();
  /** Sequence numbers: the oldest live entry, and the next to be appended. */
  private tail = 0;
  private head = 0;
  /**
   * Their places in their chunks, kept as they advance: appending and sweeping, once per update, take no division
   * (only a delayed read walking a chain does). The head's chunk is full (`headOffset === chunkSize`) before the first
   * entry and after each `chunkSize`-th.
   */
  private headOffset: number;
  private tailOffset = 0;
  /**
   * The head chunk's columns and the tail chunk's two the sweep reads, held on the ring itself: an append or a sweep
   * step reads a column as directly as when the ring was one set of arrays (through the chunk object it measured
   * ~50 % slower per append in a steady window).
   */
  private headReceivedAt = EMPTY.receivedAt;
  private headUpdatedAt = EMPTY.updatedAt;
  private headSupersededAt = EMPTY.supersededAt;
  private headDecimal = EMPTY.decimal;
  private headAmerican = EMPTY.american;
  private headPrevDelta = EMPTY.prevDelta;
  private headFlags = EMPTY.flags;
  private tailSupersededAt = EMPTY.supersededAt;
  private tailFlags = EMPTY.flags;
  /** `replace`'s columns for one object's fields. */
  private readonly scratch = new Float64Array(6);

  /** `chunkSize` (a power of two) is for tests, to make many chunks of a short run. */
  constructor(
    private readonly windowMs: number,
    chunkSize = DEFAULT_CHUNK_SIZE,
  ) {
    if (!(chunkSize >= 2 && (chunkSize & (chunkSize - 1)) === 0))
      throw new Error('a chunk holds a power of two entries');
    this.chunkSize = chunkSize;
    this.shift = Math.log2(chunkSize);
    this.headOffset = chunkSize;
  }

  /** Entries held: the versions and receipts that readers inside the window may still see. */
  get size(): number {
    return this.head - this.tail;
  }

  /**
   * Records `price` as it is now (the version being replaced, or the receipt being re-confirmed) as superseded at
   * `now`: the latest entry of its chain. The caller then gives `price` the new version's fields in place, `links`
   * among them (the same links for a re-confirmation). The store's prices are columns (`replaceAt`); this form, for
   * an object, goes through the same code.
   */
  replace(price: VersionOwner, links: PriceLinks, now: number): void {
    const cells = this.scratch;
    cells[0] = price.decimal;
    cells[1] = price.american;
    cells[2] = price.receivedAt;
    cells[3] = price.history;
    cells[4] = price.suspended ? PRICE_SUSPENDED : PRICE_PRESENT;
    cells[5] = price.updatedAt;
    this.replaceAt(cells, 0, 1, 5, price.links, links, now);
    price.history = cells[3]!;
  }

  /**
   * `replace` for a price held in columns (the store's hot blocks; store.ts): in `cells`, its decimal at `at`, its
   * American odds at `at + stride`, its time of receipt at `at + 2 * stride`, its chain's latest entry at
   * `at + 3 * stride` (given the new entry's), its flags (`PRICE_SUSPENDED`) at `at + 4 * stride`, its book time at
   * `updatedAt`. `links` are its links, `next` the new version's. Numbers are read from the array rather than passed:
   * a number passed to a call that is not inlined is boxed on the heap.
   */
  replaceAt(
    cells: Float64Array,
    at: number,
    stride: number,
    updatedAt: number,
    links: PriceLinks,
    next: PriceLinks,
    now: number,
  ): void {
    if (this.tail < this.head && this.tailSupersededAt[this.tailOffset]! <= now - this.windowMs)
      this.sweep(now - this.windowMs);
    if (this.headOffset === this.chunkSize) this.nextHeadChunk();
    const seq = this.head;
    const slot = this.headOffset;
    this.head += 1;
    this.headOffset = slot + 1;
    const previous = cells[at + 3 * stride]!;
    this.headDecimal[slot] = cells[at]!;
    this.headAmerican[slot] = cells[at + stride]!;
    this.headReceivedAt[slot] = cells[at + 2 * stride]!;
    this.headUpdatedAt[slot] = cells[updatedAt]!;
    this.headSupersededAt[slot] = now;
    this.headPrevDelta[slot] = previous >= this.tail ? seq - previous : 0;
    let flags = (cells[at + 4 * stride]! & PRICE_SUSPENDED) !== 0 ? SUSPENDED : 0;
    if (links !== next) {
      flags |= OWN_LINKS;
      this.ownLinks.set(seq, links);
    }
    this.headFlags[slot] = flags;
    cells[at + 3 * stride] = seq;
  }

  /** The head's chunk is full (or there is none yet): it takes a spare one, or a new one. */
  private nextHeadChunk(): void {
    const chunk = this.spare.pop() ?? makeChunk(this.chunkSize);
    this.chunks.push(chunk);
    this.headOffset = 0;
    this.headReceivedAt = chunk.receivedAt;
    this.headUpdatedAt = chunk.updatedAt;
    this.headSupersededAt = chunk.supersededAt;
    this.headDecimal = chunk.decimal;
    this.headAmerican = chunk.american;
    this.headPrevDelta = chunk.prevDelta;
    this.headFlags = chunk.flags;
    if (this.chunks.length === 1) this.tailColumns(chunk);
  }

  private tailColumns(chunk: Chunk): void {
    this.tailSupersededAt = chunk.supersededAt;
    this.tailFlags = chunk.flags;
  }

  /**
   * The version of a chain as known at `at`: the newest receipt at or before it (with `updatedBy`, whose book time is
   * too): `newest` itself when it qualifies, else a copy of it with that entry's fields; null when the window
   * holds none.
   */
  versionAt<T extends VersionOwner>(newest: T, at: number, updatedBy: boolean): T | null {
    if (newest.receivedAt <= at && (!updatedBy || newest.updatedAt <= at)) return newest;
    let links = newest.links;
    for (let seq = newest.history; seq >= this.tail;) {
      const place = seq - this.first * this.chunkSize;
      const chunk = this.chunks[place >>> this.shift]!;
      const slot = place & (this.chunkSize - 1);
      if (chunk.flags[slot]! & OWN_LINKS) links = this.ownLinks.get(seq)!;
      if (chunk.receivedAt[slot]! <= at && (!updatedBy || chunk.updatedAt[slot]! <= at))
        return materialise(newest, chunk, slot, links);
      const delta = chunk.prevDelta[slot]!;
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
      const place = seq - this.first * this.chunkSize;
      const chunk = this.chunks[place >>> this.shift]!;
      const slot = place & (this.chunkSize - 1);
      if (chunk.flags[slot]! & OWN_LINKS) links = this.ownLinks.get(seq)!;
      out.push(materialise(newest, chunk, slot, links));
      const delta = chunk.prevDelta[slot]!;
      if (delta === 0) break;
      seq -= delta;
    }
    return out;
  }

  /** Drops the oldest entries superseded at or before `horizon`: no reader inside the window can see them. */
  private sweep(horizon: number): void {
    while (this.tail < this.head) {
      const slot = this.tailOffset;
      if (this.tailSupersededAt[slot]! > horizon) return;
      if (this.tailFlags[slot]! & OWN_LINKS) this.ownLinks.delete(this.tail);
      this.tail += 1;
      this.tailOffset = slot + 1;
      if (this.tailOffset === this.chunkSize) {
        // Its last entry is gone: the chunk leaves the ring. When it was the head's too (the ring is now empty), the
        // head is at its end and takes a chunk at the next append, which then is the tail's as well.
        const chunk = this.chunks.shift()!;
        this.first += 1;
        this.tailOffset = 0;
        if (this.spare.length < MAX_SPARE_CHUNKS) this.spare.push(chunk);
        if (this.chunks.length > 0) this.tailColumns(this.chunks[0]!);
      }
    }
  }
}

function materialise<T extends VersionOwner>(newest: T, chunk: Chunk, slot: number, links: PriceLinks): T {
  return {
    ...newest,
    american: chunk.american[slot]!,
    decimal: chunk.decimal[slot]!,
    links,
    updatedAt: chunk.updatedAt[slot]!,
    receivedAt: chunk.receivedAt[slot]!,
    suspended: (chunk.flags[slot]! & SUSPENDED) !== 0,
    history: NONE,
  };
}
