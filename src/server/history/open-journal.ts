import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { TickStateCode } from './recorder.ts';

// The open blocks' journal (issue 59, decision 300): every change the writer put into an open block (price-blocks.ts)
// is appended here once its batch's transaction has committed, so that a crash loses at most the batch being written
// rather than the open blocks (up to a window of changes). At the next start the changes still in the journal that the
// stored history lacks are written as blocks (`HistoryWriter.recover`). The window can then be longer than a minute
// (fewer, fuller blocks: the bytes a change) without a crash losing more.
//
// A folder of segments `open-<n>.bin`, each a run of fixed records (RECORD_BYTES, little-endian): series id (uint32),
// time (float64 unix µs), American and decimal odds (float64 each), state (uint8). A new segment is begun every
// SEGMENT_MS; a segment is removed once every change it holds is out of the open blocks (its latest time is before
// the earliest change still open: those changes are in blocks written by committed transactions).

export const RECORD_BYTES = 29;
/** How long a segment takes changes before the next one is begun. */
export const SEGMENT_MS = 30_000;

/** The changes of one batch (or read back), as columns. */
export interface JournalChanges {
  seriesId: number[];
  atUs: number[];
  american: number[];
  decimal: number[];
  state: TickStateCode[];
}

export const emptyChanges = (): JournalChanges => ({
  seriesId: [],
  atUs: [],
  american: [],
  decimal: [],
  state: [],
});

interface Segment {
  n: number;
  file: string;
  /** The latest change time it holds (unix µs; -Infinity while empty). */
  latestUs: number;
}

const SEGMENT_NAME = /^open-(\d+)\.bin$/;

export class OpenJournal {
  private segments: Segment[] = [];
  private fd: number | null = null;
  private begunAt = 0;
  private nextN = 0;
  private made = false;

  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The segments on disk, oldest first. */
  private onDisk(): Segment[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .map((name) => SEGMENT_NAME.exec(name))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => ({ n: Number(match[1]), file: path.join(this.dir, match[0]), latestUs: Infinity }))
      .sort((a, b) => a.n - b.n);
  }

  /**
   * What a previous process left (its changes in the order they were journaled; a record cut short at the end of a
   * segment, by a crash in the middle of a write, is left out). Call before `append`.
   */
  read(): JournalChanges {
    const out = emptyChanges();
    for (const segment of this.onDisk()) {
      const bytes = readFileSync(segment.file);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let offset = 0; offset + RECORD_BYTES <= bytes.length; offset += RECORD_BYTES) {
        out.seriesId.push(view.getUint32(offset, true));
        out.atUs.push(view.getFloat64(offset + 4, true));
        out.american.push(view.getFloat64(offset + 12, true));
        out.decimal.push(view.getFloat64(offset + 20, true));
        out.state.push((view.getUint8(offset + 28) & 0x03) as TickStateCode);
      }
    }
    return out;
  }

  /** Removes every segment (what they held is written) and begins afresh after them. */
  clear(): void {
    this.closeSegment();
    const left = this.onDisk();
    for (const segment of left) rmSync(segment.file, { force: true });
    this.segments = [];
    this.nextN = Math.max(this.nextN, (left.at(-1)?.n ?? -1) + 1);
  }

  /** Appends a committed batch's changes (one write). */
  append(changes: JournalChanges): void {
    const count = changes.seriesId.length;
    if (count === 0) return;
    const now = this.now();
    if (this.fd === null || now - this.begunAt >= SEGMENT_MS) this.beginSegment(now);
    const bytes = Buffer.allocUnsafe(count * RECORD_BYTES);
    let latest = -Infinity;
    for (let index = 0; index < count; index += 1) {
      const offset = index * RECORD_BYTES;
      const atUs = changes.atUs[index]!;
      bytes.writeUInt32LE(changes.seriesId[index]!, offset);
      bytes.writeDoubleLE(atUs, offset + 4);
      bytes.writeDoubleLE(changes.american[index]!, offset + 12);
      bytes.writeDoubleLE(changes.decimal[index]!, offset + 20);
      bytes.writeUInt8(changes.state[index]!, offset + 28);
      if (atUs > latest) latest = atUs;
    }
    writeSync(this.fd!, bytes);
    const current = this.segments.at(-1)!;
    if (latest > current.latestUs) current.latestUs = latest;
  }

  /**
   * Removes the segments whose changes are all out of the open blocks: their latest time is before `earliestOpenUs`
   * (the earliest change still open; null: none is). The segment being written is closed first when it qualifies.
   */
  prune(earliestOpenUs: number | null): void {
    const bound = earliestOpenUs ?? Infinity;
    while (this.segments.length > 0 && this.segments[0]!.latestUs < bound) {
      const segment = this.segments.shift()!;
      if (this.segments.length === 0) this.closeSegment();
      rmSync(segment.file, { force: true });
    }
  }

  /** Closes the segment being written (shutdown; its file stays until pruned or cleared). */
  close(): void {
    this.closeSegment();
  }

  private beginSegment(now: number): void {
    this.closeSegment();
    if (!this.made) {
      mkdirSync(this.dir, { recursive: true });
      this.nextN = Math.max(this.nextN, (this.onDisk().at(-1)?.n ?? -1) + 1);
      this.made = true;
    }
    const n = this.nextN;
    this.nextN += 1;
    const file = path.join(this.dir, `open-${n}.bin`);
    this.fd = openSync(file, 'a');
    this.begunAt = now;
    this.segments.push({ n, file, latestUs: -Infinity });
  }

  private closeSegment(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
