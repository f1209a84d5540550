import { arbKey, arbKeyOf } from '#domain/arbs.ts';
import type { Arb, ArbFeed } from '#domain/schemas/feed.ts';

// Reads one fetched feed into validated arbs, reusing the work of the previous read. Every arb passes the shared zod
// schema once; an arb whose JSON is identical to the one read last time under the same key (event id + sorted side
// ids) is not parsed again: it is the same object as before. That does two jobs at once:
// - most of a refresh's validation is skipped (a 500-arb feed where 10 arbs change parses 10 arbs, not 500), and
// - unchanged arbs keep their identity, so their memoised rows skip rendering even when the list around them
//   shifts (an index-by-index comparison would see every arb after a removed one as changed).
// zod parsing is a pure function of its input, so an identical input may reuse an earlier output.

/** The schemas a reader validates with, loaded lazily by the page (see get-arbs.ts). */
export interface FeedSchemas {
  /** The feed without its arbs: `{ generated_at, source, arbs: unknown[] }`. */
  envelope: { parse(input: unknown): Omit<ArbFeed, 'arbs'> & { arbs: unknown[] } };
  arb: { parse(input: unknown): Arb };
}

export interface ReadFeed {
  feed: ArbFeed;
  /** `arbKey` of each arb, in feed order. */
  keys: readonly string[];
}

interface Entry {
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

export function createFeedReader(schemas: FeedSchemas) {
  let previous = new Map<string, Entry>();
  let previousArbs: readonly Arb[] = [];

  return {
    /** Validates `json` (the parsed response body); throws the schema's error when it is not a feed. */
    read(json: unknown): ReadFeed {
      const envelope = schemas.envelope.parse(json);
      const current = new Map<string, Entry>();
      const arbs: Arb[] = [];
      const keys: string[] = [];
      let unchanged = envelope.arbs.length === previousArbs.length;
      envelope.arbs.forEach((item, index) => {
        const guess = keyOfJson(item);
        const known = guess === null ? undefined : previous.get(guess);
        let arb: Arb;
        let key: string;
        if (known && jsonEqual(known.json, item)) {
          arb = known.arb;
          key = guess!;
        } else {
          arb = schemas.arb.parse(item);
          key = arbKey(arb);
        }
        current.set(key, { json: item, arb });
        arbs.push(arb);
        keys.push(key);
        if (unchanged && previousArbs[index] !== arb) unchanged = false;
      });
      previous = current;
      if (!unchanged) previousArbs = arbs;
      return { feed: { ...envelope, arbs: previousArbs as Arb[] }, keys };
    },
  };
}
