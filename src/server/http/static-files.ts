import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

// The built site held in memory: each file read once at start, compressed once, served from bytes. A request path
// is only ever looked up in this map, never joined onto the file system, so no path can reach outside the build.

export interface StaticEntry {
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  contentType: string;
  /** Set while `gzip`/`br` are still being computed: they are filled in when it resolves (an entry without it is complete). */
  ready?: Promise<void>;
  /**
   * Set on an entry whose compressed forms are made on demand, each encoding on its own (the engine's feed snapshots,
   * issue 59, decision 315): a reader's demand for the encoding it will be sent (null: the body as it is), which
   * starts making that form when it is not made or being made; returns what to await before choosing (undefined when
   * that form is already filled in, or none is needed).
   */
  compress?: (encoding: ContentCoding | null) => Promise<void> | undefined;
}

export type ContentCoding = 'br' | 'gzip';

/** Both forms, for negotiating what a reader would be sent were every form made. */
const EVERY_CODING: Pick<StaticEntry, 'br' | 'gzip'> = { br: Buffer.alloc(0), gzip: Buffer.alloc(0) };

/**
 * What a reader choosing among the entry's encodings awaits first (undefined: nothing to wait for): on an entry made
 * on demand, the form its `Accept-Encoding` prefers, started now if needed; otherwise the entry's whole compression.
 */
export function whenCompressed(
  entry: StaticEntry,
  acceptEncoding: string | undefined,
): Promise<void> | undefined {
  return entry.compress ? entry.compress(negotiateEncoding(acceptEncoding, EVERY_CODING)) : entry.ready;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.svg',
  '.txt',
  '.xml',
  '.ico',
]);

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export function strongEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** gzip 9 and brotli 11 of some bytes (pure functions of the bytes; brotli 11 is slow, ~0.5 s for the API reference). */
function compress(body: Buffer): { gzip: Buffer; br: Buffer } {
  return {
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  };
}

/**
 * The encodings of bytes already compressed, by their ETag (a SHA-256 of the bytes): a process that builds the app more
 * than once (the tests' hundreds of apps, each with the same site and API reference) compresses each distinct file
 * once. Bounded by the encodings' size; the oldest go first, and a file larger than the bound is not kept.
 */
export class EncodingCache {
  private readonly kept = new Map<string, { gzip: Buffer; br: Buffer }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.kept.size;
  }

  encodings(body: Buffer, etag: string): { gzip: Buffer; br: Buffer } {
    const kept = this.kept.get(etag);
    if (kept !== undefined) return kept;
    const made = compress(body);
    const size = made.gzip.length + made.br.length;
    if (size > this.maxBytes) return made;
    for (const [key, old] of this.kept) {
      if (this.bytes + size <= this.maxBytes) break;
      this.kept.delete(key);
      this.bytes -= old.gzip.length + old.br.length;
    }
    this.kept.set(etag, made);
    this.bytes += size;
    return made;
  }
}

const encodingCache = new EncodingCache(64 * 1024 * 1024);

export function makeEntry(body: Buffer, contentType: string, compressible: boolean): StaticEntry {
  const entry: StaticEntry = { body, etag: strongEtag(body), contentType };
  if (compressible && body.length > 256) {
    const { gzip, br } = encodingCache.encodings(body, entry.etag);
    entry.gzip = gzip;
    entry.br = br;
  }
  return entry;
}

export async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string) {
    for (const dirent of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, dirent.name);
      if (dirent.isDirectory()) await walk(full);
      else if (dirent.isFile()) out.push(full);
    }
  }
  await walk(root);
  return out;
}

export async function loadEntry(file: string): Promise<StaticEntry> {
  const ext = path.extname(file).toLowerCase();
  return makeEntry(await readFile(file), contentTypeFor(file), COMPRESSIBLE.has(ext));
}

/** Picks the smallest encoding the client accepts (br, then gzip, then identity). */
export function negotiateEncoding(
  acceptEncoding: string | undefined,
  entry: Pick<StaticEntry, 'br' | 'gzip'>,
): ContentCoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    accepted.set(name, Number.isFinite(quality) ? quality : 0);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (entry.br && ok('br')) return 'br';
  if (entry.gzip && ok('gzip')) return 'gzip';
  return null;
}

/** `If-None-Match` matches when it lists the entry's ETag (weak comparison, as RFC 9110 asks for GET) or `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
