import type { TickStateCode } from './recorder.ts';
import type { SqlRunner } from './sql-client.ts';
import { decodeTicks, encodeTicks, type TickColumns } from './tick-block.ts';

// The odds history in blocks (issue 59, decision 240): a series' changes gathered in memory over a window (the open
// block), then written as one price_blocks row of delta-encoded columns (tick-block.ts). This module holds the open
// blocks and the reads that find a series' ticks in the stored blocks, the legacy rows (price_ticks, written before
// the switch or under HISTORY_FORMAT=rows) and the open blocks alike: every read merges the three, so that it answers
// what the same changes stored as rows would answer.

/** A block is sealed (written) once its first change is this old, … */
export const BLOCK_WINDOW_MS = 60_000;
/** … once it holds this many changes, or when a change falls on another UTC day than its first. */
export const BLOCK_MAX_TICKS = 256;
const DAY_US = 86_400_000_000;

/** One change of a series, as the reads use it. */
export interface StoredTick {
  seriesId: number;
  /** Unix microseconds. */
  atUs: number;
  american: number;
  decimal: number;
  state: TickStateCode;
}

/** A series' block in memory: its changes as columns, in the order they came. */
export interface OpenBlock extends TickColumns {
  seriesId: number;
}

/** A block ready to be written. */
export interface SealedBlock {
  seriesId: number;
  firstUs: number;
  lastUs: number;
  data: Uint8Array;
}

export function sealBlock(block: OpenBlock): SealedBlock {
  let firstUs = Infinity;
  let lastUs = -Infinity;
  for (const us of block.atUs) {
    if (us < firstUs) firstUs = us;
    if (us > lastUs) lastUs = us;
  }
  return { seriesId: block.seriesId, firstUs, lastUs, data: encodeTicks(block) };
}

/**
 * The open blocks of the series this writer records: appended to while a batch is written, sealed (taken out and
 * written in the same transaction) by age, size or day. Every change is journaled so that a batch whose transaction
 * fails leaves them as they were (`rollback`).
 */
export class OpenBlocks {
  private readonly blocks = new Map<number, OpenBlock>();
  /**
   * How long a block stays open (ms): BLOCK_WINDOW_MS, or 0 under a leader's fence (ROLE=ingest), where every batch
   * writes its blocks so that the cluster's readers and a next leader see each change as soon as rows would show it.
   */
  windowMs = BLOCK_WINDOW_MS;
  private journal: (() => void)[] = [];

  get size(): number {
    return this.blocks.size;
  }

  get(seriesId: number): OpenBlock | undefined {
    return this.blocks.get(seriesId);
  }

  /** Appends a change; returns the block it sealed first (full, a window older, or of another day), if any. */
  append(
    seriesId: number,
    atUs: number,
    american: number,
    decimal: number,
    state: TickStateCode,
  ): SealedBlock | null {
    let block = this.blocks.get(seriesId);
    let sealed: SealedBlock | null = null;
    if (
      block &&
      (block.atUs.length >= BLOCK_MAX_TICKS ||
        Math.floor(block.atUs[0]! / DAY_US) !== Math.floor(atUs / DAY_US))
    ) {
      sealed = this.take(block);
      block = undefined;
    }
    if (!block) {
      const opened: OpenBlock = { seriesId, atUs: [], american: [], decimal: [], state: [] };
      block = opened;
      this.blocks.set(seriesId, opened);
      this.journal.push(() => this.blocks.delete(seriesId));
    }
    const target = block;
    target.atUs.push(atUs);
    target.american.push(american);
    target.decimal.push(decimal);
    target.state.push(state);
    this.journal.push(() => {
      target.atUs.pop();
      target.american.pop();
      target.decimal.pop();
      target.state.pop();
    });
    return sealed;
  }

  /** Seals the blocks whose first change is at or before `beforeUs` (all of them when omitted). */
  sealOlder(beforeUs = Infinity): SealedBlock[] {
    const sealed: SealedBlock[] = [];
    for (const block of [...this.blocks.values()]) {
      if (block.atUs[0]! <= beforeUs) sealed.push(this.take(block));
    }
    return sealed;
  }

  /** The earliest change not yet written (unix µs), or null. */
  earliestUs(): number | null {
    let earliest: number | null = null;
    for (const block of this.blocks.values()) {
      if (earliest === null || block.atUs[0]! < earliest) earliest = block.atUs[0]!;
    }
    return earliest;
  }

  /** Forgets the journal: what the batch did stays (its transaction committed). */
  commit(): void {
    this.journal = [];
  }

  /** Undoes what was done since the last commit (its transaction failed). */
  rollback(): void {
    for (let index = this.journal.length - 1; index >= 0; index -= 1) this.journal[index]!();
    this.journal = [];
  }

  private take(block: OpenBlock): SealedBlock {
    this.blocks.delete(block.seriesId);
    this.journal.push(() => this.blocks.set(block.seriesId, block));
    return sealBlock(block);
  }
}

/** Writes sealed blocks (one statement per 500). */
export async function insertBlocks(tx: SqlRunner, blocks: readonly SealedBlock[]): Promise<void> {
  for (let from = 0; from < blocks.length; from += 500) {
    const rows = blocks.slice(from, from + 500);
    await tx.query(
      `INSERT INTO price_blocks (first_at, last_at, series_id, data)
       SELECT timestamptz 'epoch' + f * interval '1 microsecond', timestamptz 'epoch' + l * interval '1 microsecond',
              id, decode(d, 'base64')
       FROM unnest($1::int8[], $2::int8[], $3::int4[], $4::text[]) AS r(f, l, id, d)`,
      [
        rows.map((block) => block.firstUs),
        rows.map((block) => block.lastUs),
        rows.map((block) => block.seriesId),
        rows.map((block) =>
          Buffer.from(block.data.buffer, block.data.byteOffset, block.data.length).toString('base64'),
        ),
      ],
    );
  }
}

/** Stored blocks as they leave SQL: one JSON array [series id, first µs, data as base64] each (decision 182). */
type BlockTuple = [number, number | string, string];
const BLOCK_TUPLE = `json_build_array(b.series_id, (extract(epoch from b.first_at) * 1000000)::int8, encode(b.data, 'base64'))`;
const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
/** A unix-µs parameter as an exact timestamptz. */
const US = (n: number) => `(timestamptz 'epoch' + $${n}::int8 * interval '1 microsecond')`;

function ticksOf([seriesId, firstUs, data]: BlockTuple): StoredTick[] {
  const columns = decodeTicks(Buffer.from(data, 'base64'), Number(firstUs));
  return columns.atUs.map((atUs, index) => ({
    seriesId,
    atUs,
    american: columns.american[index]!,
    decimal: columns.decimal[index]!,
    state: columns.state[index]!,
  }));
}

function openTicks(block: OpenBlock): StoredTick[] {
  return block.atUs.map((atUs, index) => ({
    seriesId: block.seriesId,
    atUs,
    american: block.american[index]!,
    decimal: block.decimal[index]!,
    state: block.state[index]!,
  }));
}

type TickRow = [number, number | string, number, number, number];

function rowTick([seriesId, atUs, american, decimal, state]: TickRow): StoredTick {
  return { seriesId, atUs: Number(atUs), american, decimal, state: state as TickStateCode };
}

/** Keeps, per series, the tick that `better` prefers. */
function keep(
  into: Map<number, StoredTick>,
  tick: StoredTick,
  better: (a: StoredTick, b: StoredTick) => boolean,
) {
  const held = into.get(tick.seriesId);
  if (!held || better(tick, held)) into.set(tick.seriesId, tick);
}

const later = (a: StoredTick, b: StoredTick) => a.atUs > b.atUs;

/**
 * Per series, its last change strictly before `beforeUs` (unix µs; at all when null), and only an open one when
 * `openOnly`: from the rows, the stored blocks and the open blocks. `bounds`: one bound per series instead (the
 * writer's first sights, each at its own time).
 */
export async function lastTicksBefore(
  db: SqlRunner,
  open: OpenBlocks | null,
  seriesIds: readonly number[],
  beforeUs: number | null | readonly number[],
  openOnly = false,
): Promise<Map<number, StoredTick>> {
  const found = new Map<number, StoredTick>();
  if (seriesIds.length === 0) return found;
  const bounds = seriesIds.map((_, index) =>
    beforeUs === null ? Number.MAX_SAFE_INTEGER : typeof beforeUs === 'number' ? beforeUs : beforeUs[index]!,
  );
  const boundOf = new Map<number, number>();
  seriesIds.forEach((id, index) => boundOf.set(id, Math.min(boundOf.get(id) ?? Infinity, bounds[index]!)));
  const fits = (tick: StoredTick) =>
    tick.atUs < boundOf.get(tick.seriesId)! && (!openOnly || tick.state === 0);
  const stateClause = openOnly ? 'AND p.state = 0' : '';
  // The rows' last change and the last block starting before the bound, per series, in one statement; when only open
  // changes count and a block has none, earlier blocks are read (further statements) while none is found.
  const [first] = await db.query<{ rows: TickRow[] | string; blocks: BlockTuple[] | string }>(
    `SELECT
       (SELECT coalesce(json_agg(json_build_array(s.id, t.at_us, t.american, t.decimal, t.state)), '[]')
        FROM unnest($1::int4[], $2::int8[]) AS s(id, bound)
        CROSS JOIN LATERAL (
          SELECT (extract(epoch from p.at) * 1000000)::int8 AS at_us, p.american, p.decimal, p.state
          FROM price_ticks p
          WHERE p.series_id = s.id AND p.at < timestamptz 'epoch' + s.bound * interval '1 microsecond' ${stateClause}
          ORDER BY p.at DESC LIMIT 1
        ) AS t) AS rows,
       (${LAST_BLOCKS_SQL}) AS blocks`,
    [[...seriesIds], bounds],
  );
  for (const row of json(first!.rows)) keep(found, rowTick(row), later);
  for (const id of boundOf.keys()) {
    const block = open?.get(id);
    if (block) for (const tick of openTicks(block)) if (fits(tick)) keep(found, tick, later);
  }
  let tuples = json(first!.blocks);
  for (;;) {
    const next = new Map<number, number>();
    for (const tuple of tuples) {
      let hit = false;
      for (const tick of ticksOf(tuple)) {
        if (fits(tick)) {
          keep(found, tick, later);
          hit = true;
        }
      }
      // Only an open change counts and this block has none: the block before it, unless a change already found (in
      // the rows or open blocks) is later than this whole block.
      const held = found.get(tuple[0]);
      if (!hit && openOnly && !(held && held.atUs > Number(tuple[1]))) next.set(tuple[0], Number(tuple[1]));
    }
    if (next.size === 0) break;
    const [more] = await db.query<{ blocks: BlockTuple[] | string }>(
      `SELECT (${LAST_BLOCKS_SQL}) AS blocks`,
      [[...next.keys()], [...next.values()]],
    );
    tuples = json(more!.blocks);
  }
  return found;
}

/**
 * The first change of any of the series at or after `fromUs` (unix µs), or null: from the rows, the stored and the
 * open blocks, in one statement. A block starting at or after it starts with its `first_at` (no decoding); only a
 * block that starts before it and ends at or after it is decoded.
 */
export async function firstChangeFrom(
  db: SqlRunner,
  open: OpenBlocks | null,
  seriesIds: readonly number[],
  fromUs: number,
): Promise<number | null> {
  if (seriesIds.length === 0) return null;
  const [row] = await db.query<{
    rows: string | null;
    blocks: string | null;
    straddling: BlockTuple[] | string;
  }>(
    `WITH s AS (SELECT DISTINCT id FROM unnest($1::int4[]) AS s(id))
     SELECT ${NEXT_CHANGE_SQL('s', 2)}`,
    [[...seriesIds], fromUs],
  );
  return earliestOf(row!, open, seriesIds, fromUs);
}

/** What NEXT_CHANGE_SQL's three columns and the open blocks say: the earliest change at or after `fromUs`. */
function earliestOf(
  row: { rows: string | null; blocks: string | null; straddling: BlockTuple[] | string },
  open: OpenBlocks | null,
  seriesIds: Iterable<number>,
  fromUs: number,
): number | null {
  let first = Infinity;
  if (row.rows !== null) first = Math.min(first, Number(row.rows));
  if (row.blocks !== null) first = Math.min(first, Number(row.blocks));
  for (const tuple of json(row.straddling)) {
    for (const tick of ticksOf(tuple)) if (tick.atUs >= fromUs && tick.atUs < first) first = tick.atUs;
  }
  if (open && open.size > 0) {
    for (const id of seriesIds) {
      const block = open.get(id);
      if (block) for (const us of block.atUs) if (us >= fromUs && us < first) first = us;
    }
  }
  return first === Infinity ? null : first;
}

/** The same, latest change strictly before `beforeUs` (LAST_CHANGE_SQL's columns). */
function latestOf(
  row: { prev_rows: string | null; prev_blocks: string | null; prev_straddling: BlockTuple[] | string },
  open: OpenBlocks | null,
  seriesIds: Iterable<number>,
  beforeUs: number,
): number | null {
  let last = -Infinity;
  if (row.prev_rows !== null) last = Math.max(last, Number(row.prev_rows));
  if (row.prev_blocks !== null) last = Math.max(last, Number(row.prev_blocks));
  for (const tuple of json(row.prev_straddling)) {
    for (const tick of ticksOf(tuple)) if (tick.atUs < beforeUs && tick.atUs > last) last = tick.atUs;
  }
  if (open && open.size > 0) {
    for (const id of seriesIds) {
      const block = open.get(id);
      if (block) for (const us of block.atUs) if (us < beforeUs && us > last) last = us;
    }
  }
  return last === -Infinity ? null : last;
}

/**
 * Over one event's series in key order (at most `limit`, after the key `after`): the latest change strictly before
 * `atUs` and the earliest at or after `nextUs` (unix µs), with the page's size and last key: one statement, as the
 * rows' `changesAround` (service.ts) is, blocks decoded only where they straddle an instant.
 */
export async function changesAroundPage(
  db: SqlRunner,
  open: OpenBlocks | null,
  eventId: string,
  atUs: number,
  nextUs: number,
  after: { marketKey: string; outcome: string; book: string } | undefined,
  limit: number,
): Promise<{
  previous: number | null;
  next: number | null;
  count: number;
  last: { marketKey: string; outcome: string; book: string } | null;
}> {
  const [row] = await db.query<{
    count: number;
    ids: number[] | string;
    market_key: string | null;
    outcome: string | null;
    book: string | null;
    rows: string | null;
    blocks: string | null;
    straddling: BlockTuple[] | string;
    prev_rows: string | null;
    prev_blocks: string | null;
    prev_straddling: BlockTuple[] | string;
  }>(
    `WITH s AS MATERIALIZED (
       SELECT id, market_key, outcome, book FROM history_series
       WHERE event_id = $1 AND (market_key, outcome, book) > ($4, $5, $6)
       ORDER BY market_key, outcome, book LIMIT $7),
     last AS (SELECT market_key, outcome, book FROM s ORDER BY market_key DESC, outcome DESC, book DESC LIMIT 1)
     SELECT
       (SELECT count(*) FROM s)::int AS count,
       -- The page's ids only when changes wait in open blocks (they are looked at in memory).
       (SELECT coalesce(json_agg(id), '[]') FROM s WHERE $8) AS ids,
       (SELECT market_key FROM last) AS market_key,
       (SELECT outcome FROM last) AS outcome,
       (SELECT book FROM last) AS book,
       ${LAST_CHANGE_SQL('s', 2)},
       ${NEXT_CHANGE_SQL('s', 3)}`,
    [
      eventId,
      atUs,
      nextUs,
      after?.marketKey ?? '',
      after?.outcome ?? '',
      after?.book ?? '',
      limit,
      open !== null && open.size > 0,
    ],
  );
  const ids = json(row!.ids);
  return {
    previous: latestOf(row!, open, ids, atUs),
    next: earliestOf(row!, open, ids, nextUs),
    count: row!.count,
    last:
      row!.market_key === null
        ? null
        : { marketKey: row!.market_key, outcome: row!.outcome!, book: row!.book! },
  };
}

/** Times as exact µs text. */
const US_TEXT = (expression: string) => `(extract(epoch from ${expression}) * 1000000)::int8::text`;

/**
 * Columns `rows`, `blocks` and `straddling` over the series of the CTE `s`: the rows' earliest change at or after the
 * µs parameter $n, the earliest first change of the blocks starting at or after it, and the blocks starting before it
 * and ending at or after it (to decode).
 */
const NEXT_CHANGE_SQL = (s: string, n: number) => `
  (SELECT ${US_TEXT('min(t.at)')} FROM ${s} CROSS JOIN LATERAL (
     SELECT p.at FROM price_ticks p WHERE p.series_id = ${s}.id AND p.at >= ${US(n)} ORDER BY p.at LIMIT 1) AS t) AS rows,
  (SELECT ${US_TEXT('min(b.first_at)')} FROM ${s} CROSS JOIN LATERAL (
     SELECT p.first_at FROM price_blocks p WHERE p.series_id = ${s}.id AND p.first_at >= ${US(n)}
     ORDER BY p.first_at LIMIT 1) AS b) AS blocks,
  (SELECT coalesce(json_agg(${BLOCK_TUPLE}), '[]') FROM ${s} CROSS JOIN LATERAL (
     SELECT p.series_id, p.first_at, p.last_at, p.data FROM price_blocks p
     WHERE p.series_id = ${s}.id AND p.first_at < ${US(n)} ORDER BY p.first_at DESC LIMIT 1) AS b
   WHERE b.last_at >= ${US(n)}) AS straddling`;

/**
 * Columns `prev_rows`, `prev_blocks` and `prev_straddling`: the rows' latest change strictly before the µs parameter
 * $n; of each series' last block starting before it, the latest `last_at` among those ending before it (their last
 * change); and those ending at or after it (to decode).
 */
const LAST_CHANGE_SQL = (s: string, n: number) => `
  (SELECT ${US_TEXT('max(t.at)')} FROM ${s} CROSS JOIN LATERAL (
     SELECT p.at FROM price_ticks p WHERE p.series_id = ${s}.id AND p.at < ${US(n)} ORDER BY p.at DESC LIMIT 1) AS t)
     AS prev_rows,
  (SELECT ${US_TEXT('max(b.last_at)')} FROM ${s} CROSS JOIN LATERAL (
     SELECT p.last_at FROM price_blocks p WHERE p.series_id = ${s}.id AND p.first_at < ${US(n)}
     ORDER BY p.first_at DESC LIMIT 1) AS b WHERE b.last_at < ${US(n)}) AS prev_blocks,
  (SELECT coalesce(json_agg(${BLOCK_TUPLE}), '[]') FROM ${s} CROSS JOIN LATERAL (
     SELECT p.series_id, p.first_at, p.last_at, p.data FROM price_blocks p
     WHERE p.series_id = ${s}.id AND p.first_at < ${US(n)} ORDER BY p.first_at DESC LIMIT 1) AS b
   WHERE b.last_at >= ${US(n)}) AS prev_straddling`;

/** Per (series, bound) of $1 and $2: the last block starting before the bound, as BLOCK_TUPLEs. */
const LAST_BLOCKS_SQL = `SELECT coalesce(json_agg(${BLOCK_TUPLE}), '[]')
  FROM unnest($1::int4[], $2::int8[]) AS s(id, bound)
  CROSS JOIN LATERAL (
    SELECT p.series_id, p.first_at, p.data FROM price_blocks p
    WHERE p.series_id = s.id AND p.first_at < timestamptz 'epoch' + s.bound * interval '1 microsecond'
    ORDER BY p.first_at DESC LIMIT 1
  ) AS b`;

/**
 * The changes of the series in [fromUs, toUs) (unix µs), ordered by series then time, after the cursor (series id,
 * µs), at most `limit`: from the rows, the stored and the open blocks.
 */
export async function ticksBetween(
  db: SqlRunner,
  open: OpenBlocks | null,
  seriesIds: readonly number[],
  range: { fromUs: number; toUs: number; limit: number; after: { seriesId: number; atUs: number } },
): Promise<StoredTick[]> {
  if (seriesIds.length === 0 || range.limit <= 0) return [];
  const { fromUs, toUs, limit, after } = range;
  const wanted = (tick: StoredTick) =>
    tick.atUs >= fromUs &&
    tick.atUs < toUs &&
    (tick.seriesId > after.seriesId || (tick.seriesId === after.seriesId && tick.atUs > after.atUs));
  const [rows] = await db.query<{ rows: TickRow[] | string }>(
    `SELECT coalesce(json_agg(json_build_array(t.series_id, t.at_us, t.american, t.decimal, t.state)
                              ORDER BY t.series_id, t.at_us), '[]') AS rows
     FROM (
       SELECT p.series_id, (extract(epoch from p.at) * 1000000)::int8 AS at_us, p.american, p.decimal, p.state
       FROM price_ticks p
       WHERE p.series_id = ANY($1::int4[]) AND p.at >= ${US(2)} AND p.at < ${US(3)}
         AND (p.series_id, p.at) > ($4::int4, ${US(5)})
       ORDER BY p.series_id, p.at LIMIT $6
     ) AS t`,
    [[...seriesIds], fromUs, toUs, after.seriesId, after.atUs, limit],
  );
  const out: StoredTick[] = json(rows!.rows).map(rowTick);
  // Stored blocks overlapping the range, in (series, first change) order, read a page at a time until `limit` of
  // their changes are in range (or none is left).
  let cursor = { seriesId: after.seriesId, firstUs: -1 };
  let fromBlocks = 0;
  for (;;) {
    const [blocks] = await db.query<{ rows: BlockTuple[] | string }>(
      `SELECT coalesce(json_agg(${BLOCK_TUPLE} ORDER BY b.series_id, b.first_at), '[]') AS rows FROM (
         SELECT p.series_id, p.first_at, p.data FROM price_blocks p
         WHERE p.series_id = ANY($1::int4[]) AND p.first_at < ${US(3)} AND p.last_at >= ${US(2)}
           AND p.series_id >= $4::int4 AND (p.series_id, p.first_at) > ($4::int4, ${US(5)})
           AND (p.series_id > $6::int4 OR p.last_at > ${US(7)})
         ORDER BY p.series_id, p.first_at LIMIT $8
       ) AS b`,
      [[...seriesIds], fromUs, toUs, cursor.seriesId, cursor.firstUs, after.seriesId, after.atUs, BLOCK_PAGE],
    );
    const tuples = json(blocks!.rows);
    for (const tuple of tuples) {
      for (const tick of ticksOf(tuple)) {
        if (wanted(tick)) {
          out.push(tick);
          fromBlocks += 1;
        }
      }
    }
    if (tuples.length < BLOCK_PAGE || fromBlocks >= limit) break;
    const last = tuples.at(-1)!;
    cursor = { seriesId: last[0], firstUs: Number(last[1]) };
  }
  for (const id of new Set(seriesIds)) {
    const block = open?.get(id);
    if (block) for (const tick of openTicks(block)) if (wanted(tick)) out.push(tick);
  }
  out.sort((a, b) => a.seriesId - b.seriesId || a.atUs - b.atUs);
  return out.slice(0, limit);
}

const BLOCK_PAGE = 200;
