import type { StaticEntry } from './static-files.ts';

// Finished answers of the value routes (GET /v1/ev and GET /v1/middles, issue 55, decision 205): per normalised
// question, the answer's bytes as sent (identity, gzip, brotli and the ETag, `encode`), as of one board. A request
// whose question and board are those of a kept answer costs a lookup; any other renders, encodes and keeps its answer.
// What is kept is bounded by bytes, not by count: the answers of one route can weigh 200 bytes or 2 MB each (a
// thousand middles), so 256 of them could pin anything from 50 KB to half a gigabyte. Past the budget the least recently
// used answers go first; an answer alone larger than the budget is sent and not kept.

/** Each value route's budget for finished answers: 16 MiB (identity, gzip and brotli bytes, and the keys). */
export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

export interface AnswerCacheOptions {
  /** The most bytes held at once. */
  budgetBytes: number;
  /** The answer's bytes as sent: the body, its ETag, and its compressed forms (possibly still being computed). */
  encode: (body: Buffer) => StaticEntry;
}

interface Held {
  key: string;
  /** The board the answer was rendered from (its instant): an answer of another board is stale. */
  version: number;
  entry: StaticEntry;
  bytes: number;
}

export class AnswerCache {
  /** In order of use, least recent first (a hit moves its answer to the end). */
  private readonly held = new Map<string, Held>();
  private heldBytes = 0;
  /** Answers rendered (not served from the cache), kept or not. */
  rendered = 0;
  /** Answers served from the cache. */
  hits = 0;
  /** Answers dropped to stay within the budget. */
  evicted = 0;

  constructor(private readonly options: AnswerCacheOptions) {}

  /** Bytes held now: never more than the budget once a call has returned. */
  get bytes(): number {
    return this.heldBytes;
  }

  get size(): number {
    return this.held.size;
  }

  get budgetBytes(): number {
    return this.options.budgetBytes;
  }

  /**
   * The answer to `key` (a normalised question) from the board of `version`: the kept one when it is of that board,
   * else `render()` serialised, encoded and kept. Resolves when its compressed forms are ready.
   */
  async answer(key: string, version: number, render: () => unknown): Promise<StaticEntry> {
    let held = this.held.get(key);
    if (held && held.version === version) {
      this.hits += 1;
      this.held.delete(key);
      this.held.set(key, held);
    } else {
      if (held) this.drop(held);
      const entry = this.options.encode(Buffer.from(JSON.stringify(render())));
      this.rendered += 1;
      held = { key, version, entry, bytes: key.length + entry.body.length };
      this.keep(held);
      if (entry.ready) {
        const pending = held;
        void entry.ready.then(() => {
          if (this.held.get(pending.key) !== pending) return;
          const compressed = (entry.gzip?.length ?? 0) + (entry.br?.length ?? 0);
          pending.bytes += compressed;
          this.heldBytes += compressed;
          this.evict();
        });
      }
    }
    const entry = held.entry;
    if (entry.ready) await entry.ready.catch(() => undefined);
    return entry;
  }

  private keep(held: Held): void {
    if (held.bytes > this.options.budgetBytes) return;
    this.held.set(held.key, held);
    this.heldBytes += held.bytes;
    this.evict();
  }

  private drop(held: Held): void {
    this.held.delete(held.key);
    this.heldBytes -= held.bytes;
  }

  /** Drops the least recently used answers until the budget holds. */
  private evict(): void {
    for (const oldest of this.held.values()) {
      if (this.heldBytes <= this.options.budgetBytes) return;
      this.drop(oldest);
      this.evicted += 1;
    }
  }
}
