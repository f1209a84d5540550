import { arbKey, arbKeyOf } from '#domain/arb-feed.ts';
import type { Arb, ArbFeed } from '#domain/schemas/feed.ts';

// Reads one fetched feed (its response text) into validated arbs, reusing the work of the previous read. Every arb
// passes the shared zod schema once; an arb read before is not parsed again: it is the same object as before. That
// does two jobs at once:
// - most of a refresh's work is skipped (a 500-arb feed where 10 arbs change parses 10 arbs, not 500), and
// - unchanged arbs keep their identity, so their memoised rows skip rendering even when the list around them
//   shifts (an index-by-index comparison would see every arb after a removed one as changed).
//
// Two ways to know an arb was read before:
// - By its text. The engine writes the feed compactly (`{"generated_at":…,"source":…,"arbs":[{…},{…}]}`), so the
//   text of the arbs array splits into one piece per arb (`splitFeedText`), and a piece equal to one read last time
//   is that arb. Only the changed pieces go through JSON.parse. This spares parsing ~0.5 MB per refresh and the
//   garbage of ~20,000 short-lived objects, the largest costs of a refresh after React's.
// - By its key (event id + sorted side ids) and JSON value, for a piece whose text changed and for a feed that does
//   not split (another layout, whitespace): the whole text is parsed and an arb whose JSON equals the one last read
//   under its key is reused.
// zod parsing is a pure function of its input, so an identical input may reuse an earlier output.
//
// An arb that fails the schema is left out and counted (`invalid`); the rest of the feed is read as usual, so one bad
// arb cannot take the page down (docs/decisions/064). Only an envelope that is not a feed fails the whole read.

/** The schemas a reader validates with, loaded lazily by the page (see get-arbs.ts). */
export interface FeedSchemas {
  /** The feed without its arbs: `{ generated_at, source, arbs: unknown[] }`. */
  envelope: { parse(input: unknown): Omit<ArbFeed, 'arbs'> & { arbs: unknown[] } };
  arb: { parse(input: unknown): Arb };
}

export interface ReadFeed {
  /** The feed without the arbs that failed the schema. */
  feed: ArbFeed;
  /** `arbKey` of each arb, in feed order. */
  keys: readonly string[];
  /** How many arbs of the text failed the schema and were left out. */
  invalid: number;
}

interface Entry {
  key: string;
  json: unknown;
  arb: Arb;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep equality of two values read by JSON.parse (objects, arrays, strings, numbers, booleans, null). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.prototype.hasOwnProperty.call(right, key) || !jsonEqual(left[key], right[key])) return false;
    count++;
  }
  return Object.keys(right).length === count;
}

/** The key an unvalidated arb would have, or null when its shape cannot give one (it is then parsed in full). */
function keyOfJson(json: unknown): string | null {
  if (!isRecord(json) || !isRecord(json.event) || typeof json.event.id !== 'string') return null;
  if (!Array.isArray(json.sides)) return null;
  const ids: string[] = [];
  for (const side of json.sides) {
    if (!isRecord(side) || typeof side.id !== 'string') return null;
    ids.push(side.id);
  }
  return arbKeyOf(json.event.id, ids);
}

export interface FeedText {
  /** The feed with an empty arbs array: the text before the array's elements joined to the text after them. */
  envelope: string;
  /** The text of each element of the top-level `arbs` array, in order, when each is a JSON value on its own. */
  pieces: string[];
}

const ARBS_KEY = '"arbs":[';

/**
 * Cuts a feed's text into its envelope and one piece per arb, without parsing it; null when the text is not laid out
 * so (the caller then parses it whole). The cut is a guess made with string searches: the top-level `"arbs":[`, the
 * last `]` of the text as the array's end, and `,` + the first arb's opening (`{"event":`) between elements. The
 * guess is sound when the envelope and every piece parse on their own as JSON (a caller's check): a valid value
 * list put where `[]` stood in a valid document parses to exactly those values, so the whole text parses to the
 * envelope with the pieces as its arbs.
 */
export function splitFeedText(text: string): FeedText | null {
  const open = text.indexOf(ARBS_KEY);
  if (open < 0 || !isTopLevelKeyAt(text, open)) return null;
  const start = open + ARBS_KEY.length;
  const end = text.lastIndexOf(']');
  if (end < start) return null;
  const envelope = text.slice(0, start) + text.slice(end);
  if (end === start) return { envelope, pieces: [] };
  if (!text.startsWith('{"', start)) return null;
  const keyEnd = text.indexOf('":', start + 2);
  if (keyEnd < 0 || keyEnd > end) return null;
  const separator = `,${text.slice(start, keyEnd + 2)}`;
  const pieces: string[] = [];
  let from = start;
  for (;;) {
    const next = text.indexOf(separator, from + 1);
    if (next < 0 || next > end) break;
    pieces.push(text.slice(from, next));
    from = next + 1;
  }
  pieces.push(text.slice(from, end));
  return { envelope, pieces };
}

/** Whether the key starting at `at` (a `"`) is a key of the top-level object: only `{` is open before it. */
function isTopLevelKeyAt(text: string, at: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return !inString && depth === 1;
}

export function createFeedReader(schemas: FeedSchemas) {
  /** What the previous read found, by arb key and by piece text. */
  let byKey = new Map<string, Entry>();
  /** Piece text → its arb, or null for a piece that failed the schema (not validated again while it stays). */
  let byText = new Map<string, Entry | null>();
  let previousArbs: readonly Arb[] = [];

  /**
   * An arb from its JSON value: the previous one when it had the same key and JSON, else a validated new one; null
   * when it fails the schema.
   */
  function entryOf(json: unknown): Entry | null {
    const guess = keyOfJson(json);
    const known = guess === null ? undefined : byKey.get(guess);
    if (known && jsonEqual(known.json, json)) return known;
    let arb: Arb;
    try {
      arb = schemas.arb.parse(json);
    } catch {
      return null;
    }
    return { key: arbKey(arb), json, arb };
  }

  /**
   * The entries of a feed split into pieces, or null when a new piece is not JSON on its own (the cut was wrong, so
   * nothing is validated: the whole text decides). A step (`yield`) after each piece parsed or validated.
   */
  function* entriesOfPieces(pieces: readonly string[]): Generator<void, (Entry | null)[] | null> {
    const found: (Entry | null | { json: unknown })[] = [];
    for (const piece of pieces) {
      const entry = byText.get(piece);
      if (entry !== undefined) {
        found.push(entry);
        continue;
      }
      try {
        found.push({ json: JSON.parse(piece) as unknown });
      } catch {
        return null;
      }
      yield;
    }
    const entries: (Entry | null)[] = [];
    for (const item of found) {
      if (item === null || 'arb' in item) {
        entries.push(item);
        continue;
      }
      entries.push(entryOf(item.json));
      yield;
    }
    return entries;
  }

  function finish(
    envelope: Omit<ArbFeed, 'arbs'>,
    entries: readonly (Entry | null)[],
    pieces: readonly string[] | null,
  ): ReadFeed {
    const nextByKey = new Map<string, Entry>();
    const nextByText = new Map<string, Entry | null>();
    const arbs: Arb[] = [];
    const keys: string[] = [];
    let invalid = 0;
    entries.forEach((entry, index) => {
      if (pieces) nextByText.set(pieces[index]!, entry);
      if (!entry) {
        invalid++;
        return;
      }
      nextByKey.set(entry.key, entry);
      arbs.push(entry.arb);
      keys.push(entry.key);
    });
    byKey = nextByKey;
    byText = nextByText;
    if (arbs.length !== previousArbs.length || arbs.some((arb, index) => arb !== previousArbs[index])) {
      previousArbs = arbs;
    }
    return { feed: { ...envelope, arbs: previousArbs as Arb[] }, keys, invalid };
  }

  /** The read of `text` in steps: one per arb parsed or validated, so a caller may pause between them. */
  function* steps(text: string): Generator<void, ReadFeed> {
    const split = splitFeedText(text);
    if (split) {
      let envelope: ReturnType<FeedSchemas['envelope']['parse']> | null = null;
      try {
        envelope = schemas.envelope.parse(JSON.parse(split.envelope));
      } catch {
        // Not a feed as cut; the whole text decides below.
      }
      // The envelope's arbs are the `[]` left by the cut: the text after it holds no `]`, so no later array.
      const entries = envelope ? yield* entriesOfPieces(split.pieces) : null;
      if (envelope && entries) return finish(envelope, entries, split.pieces);
    }
    const envelope = schemas.envelope.parse(JSON.parse(text));
    const entries: (Entry | null)[] = [];
    for (const json of envelope.arbs) {
      entries.push(entryOf(json));
      yield;
    }
    return finish(envelope, entries, null);
  }

  return {
    /**
     * Validates `text` (the response body), leaving out the arbs that fail the schema; throws JSON.parse's error when
     * it is not JSON and the envelope schema's error when it is not a feed.
     */
    read(text: string): ReadFeed {
      const run = steps(text);
      for (;;) {
        const step = run.next();
        if (step.done) return step.value;
      }
    },
    /**
     * `read`, paused (`await pause()`) whenever `budgetMs` of work has passed since the last pause, so a large first
     * feed (hundreds of new arbs to parse and validate) is not one long task that blocks the page; a refresh that
     * finds few new arbs finishes within one slice (docs/decisions/175).
     */
    async readInSlices(text: string, pause: () => Promise<unknown>, budgetMs: number): Promise<ReadFeed> {
      const run = steps(text);
      let sliceStart = performance.now();
      for (;;) {
        const step = run.next();
        if (step.done) return step.value;
        if (performance.now() - sliceStart >= budgetMs) {
          await pause();
          sliceStart = performance.now();
        }
      }
    },
  };
}
