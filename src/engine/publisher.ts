import type { Arb, FeedSource } from '#domain/schemas/feed.ts';

// Snapshots and their short history. The body is built only when the arbs changed, so an unchanged market keeps
// its bytes and ETag (clients then get 304s). Beside the bytes, a snapshot carries the arbs they were serialised from,
// so that readers in this process never parse what it wrote. The history keeps the newest snapshot of each
// `historyStepMs` slot of time over the last `historyMs` (its arbs, not its bytes), so delayed readers get the newest
// snapshot published at or before their horizon, at most a step and a publish interval early.

export interface Snapshot<E = unknown> {
  /** When it was built, unix ms. */
  at: number;
  /** The feed's `generated_at`, unix seconds. */
  generatedAt: number;
  /**
   * The feed's arbs, best first: the objects `body` was serialised from, shared with the engine and later snapshots
   * (never to be modified). An arb whose prices did not change is the same object from one snapshot to the next.
   */
  arbs: readonly Arb[];
  /** The engine's key of each arb (`keys[i]` is that of `arbs[i]`): event, market and sorted side ids. */
  keys: readonly string[];
  /** The feed body, UTF-8 JSON. */
  body: Buffer;
  /** What the publisher's `encode` hook made of the body (the server keeps compressed forms and an ETag here). */
  encoded: E;
}

export function feedBody(generatedAtMs: number, source: FeedSource, arbsJson: string): Buffer {
  return Buffer.from(
    `{"generated_at":${Math.floor(generatedAtMs / 1000)},"source":${JSON.stringify(source)},"arbs":${arbsJson}}`,
  );
}

/**
 * Writes a feed's arbs as `JSON.stringify(arbs)` would, byte for byte, from the JSON of each arb it wrote last time
 * (issue 37): arbs are never modified (an arb whose prices or found_at changed is a new object), so a tick that
 * changed a few markets serialises only their arbs, not the whole feed again. It keeps the last call's arbs only, so
 * what it holds is one feed's JSON whatever the snapshot history keeps.
 *
 * It also says whether the JSON differs from the last call's (`changed`), without comparing the two strings (decision
 * 197): the same arbs in the same order, or arbs whose JSON pieces are equal one by one, give the same JSON, and the
 * last call's string is returned again. Different pieces give a different JSON: each piece is one complete JSON
 * object, so a concatenation of them splits into its pieces in only one way. Comparing two feeds of a few hundred
 * kilobytes built by concatenation made V8 flatten and read both, on every tick that re-ranked.
 */
export class ArbsJson {
  private kept = new Map<Arb, string>();
  /** The UTF-8 bytes of the last body's arbs, by arb (`body`). */
  private bytes = new Map<Arb, Buffer>();
  private lastArbs: readonly Arb[] = [];
  private lastPieces: string[] = [];
  private lastJson: string | undefined = undefined;
  /** Whether any call gave pieces yet (the first always counts as a change). */
  private started = false;
  /** Whether the last `write` or `update` gave a JSON other than the call before it (true for the first call). */
  changed = true;

  /** The arbs' JSON (what `JSON.stringify(arbs)` gives); `changed` says whether it differs from the last call's. */
  write(arbs: readonly Arb[]): string {
    this.update(arbs);
    return this.json();
  }

  /** Takes the feed's arbs, as `write` does, without joining their JSON (`json` and `body` give it). */
  update(arbs: readonly Arb[]): void {
    const count = arbs.length;
    let same = this.started && count === this.lastArbs.length;
    for (let i = 0; same && i < count; i += 1) if (arbs[i] !== this.lastArbs[i]) same = false;
    this.lastArbs = arbs;
    if (same) {
      this.changed = false;
      return;
    }
    const kept = this.kept;
    const lastPieces = this.lastPieces;
    const next = new Map<Arb, string>();
    const pieces = new Array<string>(count);
    let equal = this.started && count === lastPieces.length;
    for (let i = 0; i < count; i += 1) {
      const arb = arbs[i]!;
      let one = next.get(arb) ?? kept.get(arb);
      if (one === undefined) one = JSON.stringify(arb);
      next.set(arb, one);
      pieces[i] = one;
      if (equal && one !== lastPieces[i]) equal = false;
    }
    this.kept = next;
    this.lastPieces = pieces;
    this.started = true;
    this.changed = !equal;
    if (!equal) this.lastJson = undefined;
  }

  /** The UTF-8 bytes of one of the last body's arbs (kept by `body`), else its JSON encoded now. */
  bytesOf(arb: Arb): Buffer {
    return this.bytes.get(arb) ?? Buffer.from(JSON.stringify(arb));
  }

  /** The last arbs' JSON, joined once. */
  json(): string {
    return (this.lastJson ??= `[${this.lastPieces.join(',')}]`);
  }

  /**
   * The feed body of the last arbs (`feedBody` of their JSON, byte for byte), put together from each arb's UTF-8 bytes,
   * kept while the arb stays in the feed: no string of the whole feed to build and encode (decision 197).
   */
  body(generatedAtMs: number, source: FeedSource): Buffer {
    return this.bodyOf(generatedAtMs, source, this.last());
  }

  /**
   * What `body` needs of the last call's arbs, to build it later (`bodyOf`): a snapshot's body is built when first read
   * (issue 59), by which time later calls may have taken other arbs. Neither array is modified afterwards.
   */
  last(): ArbsPieces {
    return { arbs: this.lastArbs, pieces: this.lastPieces };
  }

  /**
   * The feed body of arbs taken earlier (`last`), byte for byte `body`'s at that call; the bytes of its arbs are kept
   * for the next body (and `bytesOf`) as `body` keeps them.
   */
  bodyOf(generatedAtMs: number, source: FeedSource, { arbs, pieces }: ArbsPieces): Buffer {
    const head = Buffer.from(
      `{"generated_at":${Math.floor(generatedAtMs / 1000)},"source":${JSON.stringify(source)},"arbs":[`,
    );
    const kept = this.bytes;
    const next = new Map<Arb, Buffer>();
    const parts = new Array<Buffer>(arbs.length);
    // The head, the commas between arbs, and the closing "]}".
    let length = head.length + Math.max(0, arbs.length - 1) + 2;
    for (let i = 0; i < arbs.length; i += 1) {
      const arb = arbs[i]!;
      const bytes = next.get(arb) ?? kept.get(arb) ?? Buffer.from(pieces[i]!);
      next.set(arb, bytes);
      parts[i] = bytes;
      length += bytes.length;
    }
    this.bytes = next;
    const out = Buffer.allocUnsafe(length);
    let at = head.copy(out, 0);
    for (let i = 0; i < parts.length; i += 1) {
      if (i > 0) out[at++] = COMMA;
      at += parts[i]!.copy(out, at);
    }
    out[at++] = CLOSE_BRACKET;
    out[at++] = CLOSE_BRACE;
    return out;
  }
}

/** The arbs of an `ArbsJson` call and their JSON pieces (`ArbsJson.last`). */
export interface ArbsPieces {
  readonly arbs: readonly Arb[];
  readonly pieces: readonly string[];
}

const COMMA = 0x2c;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * The public feed's body under an edge cap (the free tier's, decision 210): the arbs at or below `capPct` (near-arbs
 * included) in full, and of each arb above it only what the page needs to count it: `above_cap` holds the cap and,
 * per arb, its live flag, books, league, market type and `suspect` when set (no price, no edge). `bytesOf` gives an arb's JSON bytes.
 */
export function cappedFeedBody(
  generatedAtMs: number,
  source: FeedSource,
  arbs: readonly Arb[],
  capPct: number,
  bytesOf: (arb: Arb) => Buffer,
): Buffer {
  const parts: Buffer[] = [
    Buffer.from(
      `{"generated_at":${Math.floor(generatedAtMs / 1000)},"source":${JSON.stringify(source)},"arbs":[`,
    ),
  ];
  const above: string[] = [];
  let first = true;
  for (const arb of arbs) {
    if (arb.edge_pct <= capPct) {
      if (!first) parts.push(COMMA_BYTES);
      parts.push(bytesOf(arb));
      first = false;
    } else {
      above.push(
        JSON.stringify({
          live: arb.event.live,
          books: arb.sides.map((side) => side.sportsbook),
          league: arb.event.league,
          market_type: arb.market_type,
          ...(arb.suspect ? { suspect: true } : {}),
        }),
      );
    }
  }
  parts.push(Buffer.from(`],"above_cap":{"edge_pct":${capPct},"arbs":[${above.join(',')}]}}`));
  return Buffer.concat(parts);
}

const COMMA_BYTES = Buffer.from(',');

/** What a delayed reader needs of an older snapshot: its instant and arbs (its bytes are dropped once superseded). */
export type PastSnapshot = Pick<Snapshot, 'at' | 'generatedAt' | 'arbs' | 'keys'>;

export class SnapshotHistory<E> {
  /** One snapshot per `historyStepMs` bucket of time (the bucket's newest), oldest first. */
  private readonly items: PastSnapshot[] = [];
  private latestSnapshot: Snapshot<E> | undefined;

  constructor(
    private readonly historyMs: number,
    private readonly historyStepMs: number,
  ) {}

  get latest(): Snapshot<E> | undefined {
    return this.latestSnapshot;
  }

  get size(): number {
    return this.items.length;
  }

  add(snapshot: Snapshot<E>): void {
    this.latestSnapshot = snapshot;
    const past: PastSnapshot = {
      at: snapshot.at,
      generatedAt: snapshot.generatedAt,
      arbs: snapshot.arbs,
      keys: snapshot.keys,
    };
    // Buckets are fixed slots of time, so a market that publishes every 250 ms still leaves one snapshot per step
    // behind it (replacing while "less than a step after the last kept one" kept replacing the same slot for ever).
    const last = this.items[this.items.length - 1];
    if (last && this.bucket(last.at) === this.bucket(snapshot.at)) this.items[this.items.length - 1] = past;
    else this.items.push(past);
    // Keep one snapshot at or before the window start so `at(now − window)` still has an answer.
    const horizon = snapshot.at - this.historyMs;
    let drop = 0;
    while (drop + 1 < this.items.length && this.items[drop + 1]!.at <= horizon) drop += 1;
    if (drop > 0) this.items.splice(0, drop);
  }

  /**
   * The newest snapshot built at or before `time` (unix ms), as far as the steps keep it: at most one step plus one
   * publish interval older than the exact one. Undefined when none that old is kept.
   */
  at(time: number): PastSnapshot | undefined {
    const latest = this.latestSnapshot;
    if (latest && latest.at <= time) return latest;
    let lo = 0;
    let hi = this.items.length - 1;
    let found: PastSnapshot | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const item = this.items[mid]!;
      if (item.at <= time) {
        found = item;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  private bucket(at: number): number {
    return Math.floor(at / this.historyStepMs);
  }
}
