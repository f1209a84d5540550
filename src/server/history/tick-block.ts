import { canonicalDecimal } from '#domain/arbitrage.ts';
import { americanToDecimal, isValidAmerican, toAmericanOdds } from '#domain/odds.ts';
import type { TickStateCode } from './recorder.ts';

// One series' price changes over a window as one value of delta-encoded columns (issue 59, decision 240): what a
// price_blocks row holds in its `data` column. Every change is kept exactly (time to the microsecond, American and
// decimal odds as the same doubles, state); decoding gives back the very ticks encoded, in order.
//
// Layout: a version byte (1), the count of ticks (varint), then per tick:
//   a tag byte: bits 0-1 the state (0 open, 1 suspended, 2 removed); bits 2-3 how the American odds follow
//     (0 the previous tick's, 1 an integer delta from it as a zigzag varint, 2 a float64); bits 4-5 how the decimal
//     odds follow (0 derived from the American odds the way the engine derives them, 1 the previous tick's, 2 a
//     float64); bit 6 set when the time's sub-millisecond rank follows (varint).
//   the time: the delta of its millisecond from the previous tick's (the first tick's: from the block's `first_us`
//     millisecond, so 0) as a zigzag varint (a clock that went back gives a negative delta, kept as is).
//   then the rank (bit 6), the American odds (bits 2-3) and the decimal odds (bits 4-5) as the tag says.
// A typical change (open, American moved by a few points, decimal derived, a change seconds after the previous one)
// takes 5 bytes: the tag, 3 bytes of milliseconds, 1 of American delta.

export const BLOCK_VERSION = 1;

/** One series' ticks, as columns: times in unix microseconds (the recorder's `atUs`). */
export interface TickColumns {
  atUs: number[];
  american: number[];
  decimal: number[];
  state: TickStateCode[];
}

const AM_SAME = 0;
const AM_DELTA = 1;
const AM_FLOAT = 2;
const DE_DERIVED = 0;
const DE_SAME = 1;
const DE_FLOAT = 2;
const HAS_RANK = 0x40;

/** The decimal odds the engine gives a whole American price (what a decimal flagged `derived` decodes to). */
export function derivedDecimal(american: number): number | null {
  if (!Number.isFinite(american) || !isValidAmerican(american)) return null;
  return canonicalDecimal(americanToDecimal(toAmericanOdds(american)));
}

class Bytes {
  buffer = new Uint8Array(64);
  length = 0;
  private readonly scratch = new DataView(new ArrayBuffer(8));

  private room(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  /** A non-negative integer up to 2^53 - 1, 7 bits a byte (arithmetic, not bitwise: past 32 bits). */
  varint(value: number): void {
    this.room(8);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.buffer[this.length++] = rest;
  }

  zigzag(value: number): void {
    this.varint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  float64(value: number): void {
    this.room(8);
    this.scratch.setFloat64(0, value, true);
    for (let index = 0; index < 8; index += 1) this.buffer[this.length++] = this.scratch.getUint8(index);
  }
}

/**
 * Encodes one series' ticks (times strictly increasing, as the recorder gives them; any order is kept as given).
 * Throws a RangeError for a time that is not a non-negative safe integer (never given by the recorder).
 */
export function encodeTicks(ticks: TickColumns): Uint8Array {
  const { atUs, american, decimal, state } = ticks;
  const count = atUs.length;
  if (american.length !== count || decimal.length !== count || state.length !== count) {
    throw new RangeError('tick columns of different lengths');
  }
  const out = new Bytes();
  out.byte(BLOCK_VERSION);
  out.varint(count);
  let previousMs = count > 0 ? msOf(atUs[0]!) : 0;
  let previousAmerican = Number.NaN;
  let previousDecimal = Number.NaN;
  for (let index = 0; index < count; index += 1) {
    const us = atUs[index]!;
    if (!Number.isSafeInteger(us) || us < 0) throw new RangeError(`tick time out of range: ${us}`);
    const ms = msOf(us);
    const rank = us - ms * 1000;
    const am = american[index]!;
    const de = decimal[index]!;
    const base = Number.isSafeInteger(previousAmerican) ? previousAmerican : 0;
    let amMode: number;
    if (Object.is(am, previousAmerican)) amMode = AM_SAME;
    else if (Number.isSafeInteger(am) && !Object.is(am, -0) && Math.abs(am - base) < 2 ** 31)
      amMode = AM_DELTA;
    else amMode = AM_FLOAT;
    const derived = derivedDecimal(am);
    let deMode: number;
    if (derived !== null && Object.is(derived, de)) deMode = DE_DERIVED;
    else if (Object.is(de, previousDecimal)) deMode = DE_SAME;
    else deMode = DE_FLOAT;
    const st = state[index]! & 0x03;
    out.byte(st | (amMode << 2) | (deMode << 4) | (rank !== 0 ? HAS_RANK : 0));
    out.zigzag(ms - previousMs);
    if (rank !== 0) out.varint(rank);
    if (amMode === AM_DELTA) out.zigzag(am - base);
    else if (amMode === AM_FLOAT) out.float64(am);
    if (deMode === DE_FLOAT) out.float64(de);
    previousMs = ms;
    previousAmerican = am;
    previousDecimal = de;
  }
  return out.buffer.slice(0, out.length);
}

/** A block's ticks back as columns; `firstUs`: the block's first tick time (its `first_us` column). */
export function decodeTicks(data: Uint8Array, firstUs: number): TickColumns {
  const reader = new Reader(data);
  const version = reader.byte();
  if (version !== BLOCK_VERSION) throw new RangeError(`price block version ${version} not known`);
  const count = reader.varint();
  const out: TickColumns = { atUs: [], american: [], decimal: [], state: [] };
  let ms = msOf(firstUs);
  let american = Number.NaN;
  let decimal = Number.NaN;
  for (let index = 0; index < count; index += 1) {
    const tag = reader.byte();
    ms += reader.zigzag();
    const rank = tag & HAS_RANK ? reader.varint() : 0;
    const amMode = (tag >> 2) & 0x03;
    if (amMode === AM_DELTA) american = (Number.isSafeInteger(american) ? american : 0) + reader.zigzag();
    else if (amMode === AM_FLOAT) american = reader.float64();
    else if (amMode !== AM_SAME) throw new RangeError(`price block: American mode ${amMode}`);
    const deMode = (tag >> 4) & 0x03;
    if (deMode === DE_DERIVED) {
      const derived = derivedDecimal(american);
      if (derived === null)
        throw new RangeError('price block: decimal odds derived from invalid American odds');
      decimal = derived;
    } else if (deMode === DE_FLOAT) decimal = reader.float64();
    else if (deMode !== DE_SAME) throw new RangeError(`price block: decimal mode ${deMode}`);
    out.atUs.push(ms * 1000 + rank);
    out.american.push(american);
    out.decimal.push(decimal);
    out.state.push((tag & 0x03) as TickStateCode);
  }
  if (reader.offset !== data.length) throw new RangeError('price block: bytes after its last tick');
  return out;
}

/**
 * Only the times of a block's ticks (unix µs, in order): what the walk of the historical board needs. Skips the prices
 * (no decimal odds derived), so it costs a fraction of `decodeTicks`.
 */
export function decodeTimes(data: Uint8Array, firstUs: number): number[] {
  const reader = new Reader(data);
  const version = reader.byte();
  if (version !== BLOCK_VERSION) throw new RangeError(`price block version ${version} not known`);
  const count = reader.varint();
  const out: number[] = [];
  let ms = msOf(firstUs);
  for (let index = 0; index < count; index += 1) {
    const tag = reader.byte();
    ms += reader.zigzag();
    const rank = tag & HAS_RANK ? reader.varint() : 0;
    const amMode = (tag >> 2) & 0x03;
    if (amMode === AM_DELTA) reader.varint();
    else if (amMode === AM_FLOAT) reader.skip(8);
    if (((tag >> 4) & 0x03) === DE_FLOAT) reader.skip(8);
    out.push(ms * 1000 + rank);
  }
  return out;
}

/**
 * The tick of a block with the latest time before `beforeUs` (open only, when `openOnly`), or null: what `decodeTicks`
 * would give for it, without building the other ticks or deriving their decimal odds (the board's prices read one
 * tick a series).
 */
export function decodeLastBefore(
  data: Uint8Array,
  firstUs: number,
  beforeUs: number,
  openOnly: boolean,
): { atUs: number; american: number; decimal: number; state: TickStateCode } | null {
  const reader = new Reader(data);
  const version = reader.byte();
  if (version !== BLOCK_VERSION) throw new RangeError(`price block version ${version} not known`);
  const count = reader.varint();
  let ms = msOf(firstUs);
  let american = Number.NaN;
  // The decimal odds as the block says them: a float64 given, or derived from this American price (computed once,
  // for the tick chosen).
  let decimal = Number.NaN;
  let derivedFrom: number | null = null;
  let best: {
    atUs: number;
    american: number;
    decimal: number;
    derivedFrom: number | null;
    state: number;
  } | null = null;
  for (let index = 0; index < count; index += 1) {
    const tag = reader.byte();
    ms += reader.zigzag();
    const rank = tag & HAS_RANK ? reader.varint() : 0;
    const amMode = (tag >> 2) & 0x03;
    if (amMode === AM_DELTA) american = (Number.isSafeInteger(american) ? american : 0) + reader.zigzag();
    else if (amMode === AM_FLOAT) american = reader.float64();
    else if (amMode !== AM_SAME) throw new RangeError(`price block: American mode ${amMode}`);
    const deMode = (tag >> 4) & 0x03;
    if (deMode === DE_DERIVED) derivedFrom = american;
    else if (deMode === DE_FLOAT) {
      decimal = reader.float64();
      derivedFrom = null;
    } else if (deMode !== DE_SAME) throw new RangeError(`price block: decimal mode ${deMode}`);
    const atUs = ms * 1000 + rank;
    const state = tag & 0x03;
    if (atUs < beforeUs && (!openOnly || state === 0) && (best === null || atUs > best.atUs)) {
      best = { atUs, american, decimal, derivedFrom, state };
    }
  }
  if (reader.offset !== data.length) throw new RangeError('price block: bytes after its last tick');
  if (best === null) return null;
  let chosen = best.decimal;
  if (best.derivedFrom !== null) {
    const derived = derivedDecimal(best.derivedFrom);
    if (derived === null)
      throw new RangeError('price block: decimal odds derived from invalid American odds');
    chosen = derived;
  }
  return { atUs: best.atUs, american: best.american, decimal: chosen, state: best.state as TickStateCode };
}

const msOf = (us: number): number => Math.floor(us / 1000);

class Reader {
  offset = 0;
  private readonly view: DataView;

  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  byte(): number {
    if (this.offset >= this.data.length) throw new RangeError('price block: truncated');
    return this.data[this.offset++]!;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new RangeError('price block: varint too long');
    }
  }

  zigzag(): number {
    const value = this.varint();
    return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
  }

  skip(bytes: number): void {
    if (this.offset + bytes > this.data.length) throw new RangeError('price block: truncated');
    this.offset += bytes;
  }

  float64(): number {
    if (this.offset + 8 > this.data.length) throw new RangeError('price block: truncated');
    const value = this.view.getFloat64(this.offset, true);
    this.offset += 8;
    return value;
  }
}
