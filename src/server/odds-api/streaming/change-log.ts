// The stream's change log (docs/decisions/082): every price and arb change becomes one entry with a global sequence
// number and its SSE frame serialised once, in a bounded buffer that the delay tiers release from and that a
// reconnecting client replays from. Event ids are `<boot>-<seq>`: a Last-Event-ID of this process still inside the
// buffer replays exactly what was missed; anything else gets a snapshot instead.
//
// On a ROLE=api instance (issue 19, decision 145) every change comes from applying one entry of the ingest leader's
// Redis Stream, and its id is `<entry ms>-<entry seq>-<index of the change in the entry>`: every api instance derives
// the same changes from the same entry, so a Last-Event-ID resumes on any of them.

export interface ChangeLogOptions {
  /** Entries kept for replay (and for the delayed tiers to catch up on). */
  bufferSize: number;
  /**
   * With no client connected for this long, no entry is kept: nobody can replay them, and a client that connects
   * later gets a snapshot. An idle server then holds no buffer and makes no garbage of it (docs/decisions/008).
   */
  idleRetainMs: number;
}

export type EntryKind =
  'price' | 'arb' | 'arb_removed' | 'ev' | 'ev_removed' | 'middle' | 'middle_removed' | 'score';

/** One change as its producer describes it (price-changes.ts, arb-changes.ts), before it has a seq. */
export interface Change {
  kind: EntryKind;
  eventId: string;
  league: string | undefined;
  /** The market's type and period (every kind but `score`; undefined when an arb's market is no longer known). */
  marketType: string | undefined;
  period?: string | undefined;
  /** Props only (every kind): the stat, the player's id and normalised name (`normalizePlayerName`), for the filters. */
  stat?: string | undefined;
  playerId?: string | undefined;
  playerName?: string | undefined;
  books: readonly string[];
  /** The event's data, serialised only if the log keeps the entry. */
  data: unknown;
}

export interface Entry {
  seq: number;
  /** When the change became known here (unix ms); a tier releases it once `at <= now − delay`. */
  at: number;
  kind: EntryKind;
  eventId: string;
  league: string | undefined;
  marketType: string | undefined;
  period?: string | undefined;
  stat?: string | undefined;
  playerId?: string | undefined;
  playerName?: string | undefined;
  books: readonly string[];
  /** The complete SSE frame minus its `id` line: `event: …\ndata: …\n\n`. */
  frame: string;
  /** ROLE=api: where the change came from in the leader's stream (see `StreamPosition`). */
  position?: StreamPosition;
  /** A delayed tier's own arb change (plan-arb-view.ts, decision 223), never in the log. */
  fromView?: true;
}

/** A change's place in the leader's stream: the entry id's two parts and the change's index within the entry. */
export type StreamPosition = readonly [ms: number, seq: number, index: number];

function compare(a: StreamPosition, b: StreamPosition): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

const positionId = (position: StreamPosition) => `${position[0]}-${position[1]}-${position[2]}`;

/** Older than any change: a client holding it gets a snapshot. */
const BEFORE_ALL: StreamPosition = [0, 0, 0];

export class ChangeLog {
  /** Distinguishes this process's event ids from another's (a restart, another instance behind the balancer). */
  readonly boot = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  /** Entries made since start (each an answer object serialised into its frame): none while idle. */
  made = 0;
  private readonly entries: Entry[] = [];
  private firstSeq = 1;
  private seq = 0;
  /** When a client was last seen connected (hub clock); entries are kept only within `idleRetainMs` of it. */
  private lastClientAt = Number.NEGATIVE_INFINITY;
  /** ROLE=api: the stream entry being applied, and how many changes it made so far. */
  private streamEntry: [ms: number, seq: number] | undefined;
  private indexInEntry = 0;
  /** ROLE=api: the position of the newest change, and the newest position that may no longer be kept here. */
  private lastPosition: StreamPosition | undefined;
  private floor: StreamPosition | undefined;

  /**
   * `lowestReleased`: the lowest seq released by a delay tier that has clients (Infinity when none): the entries
   * after it are not trimmed while the buffer is below twice its size.
   */
  constructor(
    private readonly options: ChangeLogOptions,
    private readonly now: () => number,
    private readonly lowestReleased: () => number,
  ) {}

  get lastSeq(): number {
    return this.seq;
  }

  get oldestSeq(): number {
    return this.firstSeq;
  }

  /** The SSE id of a seq. */
  id(seq: number): string {
    if (this.streamEntry === undefined) return `${this.boot}-${seq}`;
    const entry = this.entries[seq - this.firstSeq];
    if (entry?.position) return positionId(entry.position);
    if (seq >= this.seq && this.lastPosition) return positionId(this.lastPosition);
    // Not kept here any more: an id that asks for a snapshot on resume rather than one that would skip changes.
    return positionId(BEFORE_ALL);
  }

  /** ROLE=api: the changes appended from now on come from the leader's stream entry `<ms>-<seq>`. */
  enterStreamEntry(ms: number, seq: number): void {
    this.streamEntry = [ms, seq];
    this.indexInEntry = 0;
  }

  /**
   * ROLE=api: the follower started over from the full entry it is in (it started, missed an entry, or follows a new
   * leader): what came before it, and the entry itself, may differ from what other instances sent, so an id up to
   * the end of this entry gets a snapshot.
   */
  restartStream(): void {
    if (this.streamEntry)
      this.raiseFloor([this.streamEntry[0], this.streamEntry[1], Number.MAX_SAFE_INTEGER]);
  }

  /**
   * The floor only moves forward: trimming changes older than a restart must not let an id from before the restart
   * (another leader's, another instance's view) resume across it.
   */
  private raiseFloor(position: StreamPosition): void {
    if (!this.floor || compare(position, this.floor) > 0) this.floor = position;
  }

  /**
   * Whether nothing would be kept now: no client connected, and none for `idleRetainMs`. Then the buffer is emptied
   * and starts after the last seq, and on a ROLE=api instance the floor covers the whole stream entry being applied,
   * so any older Last-Event-ID gets a snapshot. The hub asks before it makes a change (issue 59): an idle server builds
   * no answer object, and does not even compare arb snapshots, for changes nobody reads.
   */
  idle(clients: number): boolean {
    const now = this.now();
    if (clients > 0) {
      this.lastClientAt = now;
      return false;
    }
    if (now - this.lastClientAt <= this.options.idleRetainMs) return false;
    if (this.entries.length > 0) this.entries.length = 0;
    // The change not made takes a seq all the same: an id given before it must not resume as if nothing came after.
    this.seq += 1;
    this.firstSeq = this.seq + 1;
    // The changes not made are not counted in the entry: an id inside it may differ from another instance's, so the
    // floor covers it whole, and a snapshot taken now is said to be at its end (the store applies an entry at once).
    if (this.streamEntry) {
      const end: StreamPosition = [this.streamEntry[0], this.streamEntry[1], Number.MAX_SAFE_INTEGER];
      this.lastPosition = end;
      this.raiseFloor(end);
    }
    return true;
  }

  /**
   * Gives the change the next seq and keeps it. Returns the entry, or undefined when the log is `idle` (then the change
   * takes no seq).
   */
  append(change: Change, clients: number): Entry | undefined {
    if (this.idle(clients)) return undefined;
    this.seq += 1;
    const now = this.now();
    let position: StreamPosition | undefined;
    if (this.streamEntry) {
      position = [this.streamEntry[0], this.streamEntry[1], this.indexInEntry];
      this.indexInEntry += 1;
      this.lastPosition = position;
    }
    const entry: Entry = {
      seq: this.seq,
      at: now,
      kind: change.kind,
      eventId: change.eventId,
      league: change.league,
      marketType: change.marketType,
      books: change.books,
      frame: `event: ${change.kind}\ndata: ${JSON.stringify(change.data)}\n\n`,
    };
    if (position) entry.position = position;
    if (change.period !== undefined) entry.period = change.period;
    if (change.stat !== undefined) {
      entry.stat = change.stat;
      entry.playerId = change.playerId;
      entry.playerName = change.playerName;
    }
    this.entries.push(entry);
    this.made += 1;
    this.trim();
    return entry;
  }

  /**
   * Keeps the buffer bounded (trimming in chunks, so the splice cost is amortised), but never drops an entry a tier
   * with clients has not released yet, unless the buffer has grown to twice its size.
   */
  private trim() {
    const { bufferSize } = this.options;
    if (this.entries.length <= bufferSize + Math.min(1024, bufferSize)) return;
    let limit = this.entries.length - bufferSize;
    if (this.entries.length < bufferSize * 2)
      limit = Math.min(limit, this.lowestReleased() + 1 - this.firstSeq);
    if (limit <= 0) return;
    const dropped = this.entries[limit - 1]!.position;
    if (dropped) this.raiseFloor(dropped);
    this.entries.splice(0, limit);
    this.firstSeq += limit;
  }

  /** Whether every entry after `seq` is still kept. */
  keepsAfter(seq: number): boolean {
    return seq + 1 >= this.firstSeq;
  }

  /** The kept entries after `after`, up to and including `upTo`, in seq order. */
  *between(after: number, upTo: number): Generator<Entry> {
    const end = Math.min(this.entries.length, upTo + 1 - this.firstSeq);
    for (let index = Math.max(0, after + 1 - this.firstSeq); index < end; index += 1)
      yield this.entries[index]!;
  }

  /** The kept entries after `after` that arrived at or before `horizon`: what a tier releases next. */
  releasable(after: number, horizon: number): Entry[] {
    const from = Math.max(0, after + 1 - this.firstSeq);
    let index = from;
    while (index < this.entries.length && this.entries[index]!.at <= horizon) index += 1;
    return this.entries.slice(from, index);
  }

  /** The newest seq already arrived at `horizon` (where a new tier starts). */
  newestAt(horizon: number): number {
    let seq = this.firstSeq - 1;
    for (const entry of this.entries) {
      if (entry.at > horizon) break;
      seq = entry.seq;
    }
    return seq;
  }

  /**
   * The first seq to replay for a Last-Event-ID, to a tier that has released up to `released`; undefined when a
   * snapshot is needed instead (no id, malformed, another process, or older than the buffer).
   */
  replayStart(lastEventId: string | undefined, released: number): number | undefined {
    if (lastEventId === undefined) return undefined;
    if (this.streamEntry !== undefined) return this.replayStartInStream(lastEventId.trim(), released);
    const match = /^([0-9a-z]+)-(\d+)$/.exec(lastEventId.trim());
    if (!match || match[1] !== this.boot) return undefined;
    const seq = Number(match[2]);
    if (seq > released) return undefined;
    if (!this.keepsAfter(seq)) return undefined;
    return seq + 1;
  }

  /** ROLE=api: the first kept change after a stream position, if everything after it is still kept here. */
  private replayStartInStream(lastEventId: string, released: number): number | undefined {
    const match = /^(\d{1,16})-(\d{1,16})-(\d{1,16})$/.exec(lastEventId);
    if (!match) return undefined;
    const seen: StreamPosition = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (this.floor && compare(seen, this.floor) < 0) return undefined;
    // The first kept change after `seen` (entries are in stream order).
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(this.entries[mid]!.position ?? BEFORE_ALL, seen) <= 0) lo = mid + 1;
      else hi = mid;
    }
    const start = this.firstSeq + lo;
    // The client saw more than this tier has released (a faster tier's id): it gets a snapshot.
    if (start - 1 > released) return undefined;
    return start;
  }
}
