import type { TickStateCode } from './recorder.ts';
import type { SqlRunner } from './sql-client.ts';
import { decodeLastBefore, decodeTicks, decodeTimes, encodeTicks, type TickColumns } from './tick-block.ts';

// The odds history in blocks (issue 59, decision 240): a series' changes gathered in memory over a window (the open
// block), then written as one price_blocks row of delta-encoded columns (tick-block.ts). This module holds the open
// blocks and the reads that find a series' ticks in the stored blocks, the legacy rows (price_ticks, written before
// the switch or under HISTORY_FORMAT=rows) and the open blocks alike: every read merges the three, so that it answers
// what the same changes stored as rows would answer.

/** A block is sealed (written) once its first change is this old, … */
export const BLOCK_WINDOW_MS = 60_000;
/**
 * … or, when the open blocks are journaled (open-journal.ts, decision 300: a crash then loses at most the batch being
 * written, not the open blocks, so the window no longer bounds what a crash loses), this old less up to
 * JOURNALED_SPREAD of it, a fixed fraction by series (3 to 5 minutes, 4 on average): the blocks every series opens at
 * start are then not all written at once, nor are their successors a window later.
 */
export const JOURNALED_WINDOW_MS = 300_000;
export const JOURNALED_SPREAD = 0.4;
/** … once it holds this many changes, or when a change falls on another UTC day than its first. */
export const BLOCK_MAX_TICKS = 256;
const DAY_US = 86_400_000_000;

/**
 * The league's index of changes (decision 311): per league, a series of its own (event `league:<league>`, market
 * `changes`, outcome `any`, book `*`) whose ticks are the milliseconds in which any series of the league changed, each
 * at the earliest microsecond written in it, with a constant price (an open +100): stored as every series is (open
 * blocks, their journal, price_blocks day partitions, retention), it answers a board's previous and next change
 * with one series' probes instead of every series of the league. Its event is not in history_events (no read that
 * lists events or their series sees it), and nothing else is ever written under it.
 */
export const LEAGUE_INDEX_MARKET = 'changes';
export const LEAGUE_INDEX_OUTCOME = 'any';
export const LEAGUE_INDEX_BOOK = '*';
/** The index's constant price: +100 (its decimal, 2, is the one the blocks derive from it: a tick costs ~2 bytes). */
export const LEAGUE_INDEX_AMERICAN = 100;
export const LEAGUE_INDEX_DECIMAL = 2;
export const leagueIndexEvent = (league: string): string => `league:${league}`;

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

/** What an `OpenBlocks` journal entry undoes: a block opened (deleted), a change appended (popped), a block taken (put back). */
const JOURNAL_OPENED = 0;
const JOURNAL_APPENDED = 1;
const JOURNAL_TAKEN = 2;

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
  /** How much of the window a series' own window may be shorter (0: every series the same window). */
  spread = 0;
  /**
   * Whether price_ticks held a row at the last look (`HistoryService.lookForBlocks`, at start and every maintenance):
   * rows written before a switch to blocks are read beside them; once none is left the reads skip price_ticks
   * (decision 277). Nothing writes rows under the blocks format, so a false stays true to what is stored.
   */
  rowsStored = true;
  /**
   * What was done since the last commit, to undo in reverse: per entry its kind (`JOURNAL_*`) and its block. Two arrays
   * of records rather than a closure per change (a closure and its context for each of the ~1,600 changes a second of
   * the idle default, all garbage a second later; issue 59).
   */
  private journalKinds: number[] = [];
  private journalBlocks: OpenBlock[] = [];

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
      this.journalKinds.push(JOURNAL_OPENED);
      this.journalBlocks.push(opened);
    }
    const target = block;
    target.atUs.push(atUs);
    target.american.push(american);
    target.decimal.push(decimal);
    target.state.push(state);
    this.journalKinds.push(JOURNAL_APPENDED);
    this.journalBlocks.push(target);
    return sealed;
  }

  /** Seals the blocks whose first change is at or before `beforeUs` (all of them when omitted). */
  sealOlder(beforeUs = Infinity): SealedBlock[] {
    const sealed: SealedBlock[] = [];
    // Over the map itself (a block taken is deleted behind the iterator, which a Map allows): no copy of every block
    // once a second.
    for (const block of this.blocks.values()) {
      if (block.atUs[0]! <= beforeUs) sealed.push(this.take(block));
    }
    return sealed;
  }

  /** Seals the blocks a window old at `nowMs` (unix ms): each series' own window under a spread. */
  sealDue(nowMs: number): SealedBlock[] {
    if (this.spread === 0) return this.sealOlder((nowMs - this.windowMs) * 1000);
    const nowUs = nowMs * 1000;
    const sealed: SealedBlock[] = [];
    for (const block of this.blocks.values()) {
      // The series' fraction of the spread: its id scrambled (Fibonacci hashing) into [0, 1).
      const fraction = (Math.imul(block.seriesId, 0x9e3779b1) >>> 0) / 2 ** 32;
      const windowUs = this.windowMs * 1000 * (1 - this.spread * fraction);
      if (block.atUs[0]! <= nowUs - windowUs) sealed.push(this.take(block));
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
    this.journalKinds.length = 0;
    this.journalBlocks.length = 0;
  }

  /** Undoes what was done since the last commit (its transaction failed). */
  rollback(): void {
    for (let index = this.journalKinds.length - 1; index >= 0; index -= 1) {
      const block = this.journalBlocks[index]!;
      switch (this.journalKinds[index]) {
        case JOURNAL_OPENED:
          this.blocks.delete(block.seriesId);
          break;
        case JOURNAL_APPENDED:
          block.atUs.pop();
          block.american.pop();
          block.decimal.pop();
          block.state.pop();
          break;
        default:
          // JOURNAL_TAKEN
          this.blocks.set(block.seriesId, block);
      }
    }
    this.commit();
  }

  private take(block: OpenBlock): SealedBlock {
    this.blocks.delete(block.seriesId);
    this.journalKinds.push(JOURNAL_TAKEN);
    this.journalBlocks.push(block);
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
/** A timestamptz parameter: given as `usText`, its value is known when the statement is planned. */
const US = (n: number) => `$${n}::timestamptz`;
/** The start of the UTC day (unix µs) holding the instant `us`. */
const dayOf = (us: number) => Math.floor(us / DAY_US) * DAY_US;

/**
 * A unix-µs instant as timestamptz text, exact to the microsecond. Instants are given as timestamptz parameters, not
 * as `epoch + µs * interval` (a stable expression, computed only once the statement runs): the planner then leaves
 * out the day partitions the bounds rule out, rather than planning a scan of every partition for each probe and
 * dropping them at run time (decision 277; planning was most of a walk statement's time).
 */
export function usText(us: number): string {
  const ms = Math.floor(us / 1000);
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, -1)}${String(us - ms * 1000).padStart(3, '0')}Z`;
}

// Where reads look first (decision 277): a block never crosses a UTC day (its changes all fall on its first change's
// day), so a series' changes of one day are in the blocks starting that day, one day partition. A read around an
// instant probes that partition alone, and the partitions before or after it only for what the day did not answer:
// a probe of (series_id, first_at) over a partitioned table opens every partition it cannot rule out (yesterday, the
// days kept by the retention, the days made ahead, the default one), each an index descent.

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

/** Whether price_ticks may hold rows the reads must merge (rows format, or rows seen at the last look). */
const rowsOf = (open: OpenBlocks | null): boolean => open === null || open.rowsStored;

/**
 * The last block of each series of `s` (column `id`) starting before `bound`, as BLOCK_TUPLEs: in `bound`'s day
 * partition first (`day`: its start, `bound` excluded); the days before only for a series without a block that day
 * before the bound (the union stops at its first row).
 */
const LAST_BLOCKS_SQL = (
  s: string,
  bound: string,
  day: string,
) => `SELECT coalesce(json_agg(${BLOCK_TUPLE}), '[]')
  FROM ${s}
  CROSS JOIN LATERAL (
    (SELECT p.series_id, p.first_at, p.data FROM price_blocks p
     WHERE p.series_id = s.id AND p.first_at >= ${day} AND p.first_at < ${bound}
     ORDER BY p.first_at DESC LIMIT 1)
    UNION ALL
    (SELECT p.series_id, p.first_at, p.data FROM price_blocks p
     WHERE p.series_id = s.id AND p.first_at < ${day}
     ORDER BY p.first_at DESC LIMIT 1)
    LIMIT 1
  ) AS b`;

/**
 * The statement's series and bounds: one bound for all (given as scalars, so that the planner prunes the partitions)
 * or one per series (unnested: pruned per series as the statement runs).
 */
function boundsSql(
  ids: readonly number[],
  bounds: readonly number[],
): { s: string; bound: string; day: string; params: unknown[] } {
  const days = bounds.map((bound) => usText(dayOf(bound - 1)));
  if (bounds.every((bound) => bound === bounds[0])) {
    return {
      s: 'unnest($1::int4[]) AS s(id)',
      bound: US(2),
      day: US(3),
      params: [[...ids], usText(bounds[0]!), days[0]],
    };
  }
  return {
    s: 'unnest($1::int4[], $2::timestamptz[], $3::timestamptz[]) AS s(id, bound, day)',
    bound: 's.bound',
    day: 's.day',
    params: [[...ids], bounds.map(usText), days],
  };
}

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
  // The rows' last change (while price_ticks may hold any) and the last block starting before the bound, per series,
  // in one statement; when only open changes count and a block has none, earlier blocks are read (further
  // statements) while none is found.
  const sql = boundsSql(seriesIds, bounds);
  const rowsSql = rowsOf(open)
    ? `(SELECT coalesce(json_agg(json_build_array(s.id, t.at_us, t.american, t.decimal, t.state)), '[]')
        FROM ${sql.s}
        CROSS JOIN LATERAL (
          SELECT (extract(epoch from p.at) * 1000000)::int8 AS at_us, p.american, p.decimal, p.state
          FROM price_ticks p
          WHERE p.series_id = s.id AND p.at < ${sql.bound} ${stateClause}
          ORDER BY p.at DESC LIMIT 1
        ) AS t)`
    : `'[]'`;
  const [first] = await db.query<{ rows: TickRow[] | string; blocks: BlockTuple[] | string }>(
    `SELECT ${rowsSql} AS rows, (${LAST_BLOCKS_SQL(sql.s, sql.bound, sql.day)}) AS blocks`,
    sql.params,
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
      // The block's latest tick before the series' bound: the only one of it that can be kept.
      const [seriesId, firstUs, data] = tuple;
      const tick = decodeLastBefore(
        Buffer.from(data, 'base64'),
        Number(firstUs),
        boundOf.get(seriesId)!,
        openOnly,
      );
      const hit = tick !== null;
      if (tick) keep(found, { seriesId, ...tick }, later);
      // Only an open change counts and this block has none: the block before it, unless a change already found (in
      // the rows or open blocks) is later than this whole block.
      const held = found.get(tuple[0]);
      if (!hit && openOnly && !(held && held.atUs > Number(tuple[1]))) next.set(tuple[0], Number(tuple[1]));
    }
    if (next.size === 0) break;
    const more = boundsSql([...next.keys()], [...next.values()]);
    const [row] = await db.query<{ blocks: BlockTuple[] | string }>(
      `SELECT (${LAST_BLOCKS_SQL(more.s, more.bound, more.day)}) AS blocks`,
      more.params,
    );
    tuples = json(row!.blocks);
  }
  return found;
}

/** What AROUND_SQL's columns say (µs as text, null when none). */
interface AroundRow {
  ids: number[] | string;
  rows?: string | null;
  blocks: string | null;
  any_next: boolean;
  straddling: BlockTuple[] | string;
  prev_rows?: string | null;
  prev_blocks?: string | null;
  any_prev?: boolean;
}

/** Times as exact µs text. */
const US_TEXT = (expression: string) => `(extract(epoch from ${expression}) * 1000000)::int8::text`;
const TUPLE = (alias: string) =>
  `json_build_array(id, (extract(epoch from ${alias}_first) * 1000000)::int8, encode(${alias}_data, 'base64'))`;

/**
 * Over the series of the CTE `s` (column `id`), in one pass: the earliest change at or after the instant `next`, and
 * (with `prev`) the latest strictly before the instant `prev` (timestamptz parameters; `day` and `dayEnd`: the UTC day
 * of `prev`, or of `next` without it). Per series one probe of the day's partition (its last block starting before
 * `next`, `b`); only when that block ends before `next`, one more (its first block starting after, `n`); only when it
 * starts at or after `prev` (a change in the instant's own millisecond, as when a client steps from change to change),
 * one more (the block before it, `o`). A CTE `a`, and the columns of AroundRow:
 * - `ids`: the series (for the open blocks and the days around, looked at apart);
 * - `rows`, `prev_rows`: the legacy rows' (price_ticks) nearest changes, while any may be stored (`rows`);
 * - `blocks`: the earliest first change of the day's blocks starting at or after `next`; `any_next`: whether the day
 *   holds a change at or after `next` (else the days after are looked at, `laterChange`);
 * - `prev_blocks`: the latest last change of the day's blocks ending before `prev`; `any_prev`: whether the day holds a
 *   change before `prev` (else the days before are looked at, `earlierChange`);
 * - `straddling`: the day's blocks ending at or after `prev` (or `next`), to decode: they hold changes on both sides.
 */
function aroundSql(options: { next: string; prev?: string; day: string; dayEnd: string; rows: boolean }): {
  cte: string;
  columns: string;
} {
  const { next, prev, day, dayEnd } = options;
  // The block holding the series' last change before `prev`: `b`, or when `b` starts at or after it, `o`.
  const before = prev ?? next;
  const cte = `a AS MATERIALIZED (
    SELECT x.id, b.first_at AS b_first, b.last_at AS b_last, b.data AS b_data, n.first_at AS next_first,
      o.first_at AS o_first, o.last_at AS o_last, o.data AS o_data,
      CASE WHEN b.first_at < ${before} THEN b.last_at ELSE o.last_at END AS p_last
    FROM s AS x
    LEFT JOIN LATERAL (
      SELECT p.first_at, p.last_at, p.data FROM price_blocks p
      WHERE p.series_id = x.id AND p.first_at >= ${day} AND p.first_at < ${next}
      ORDER BY p.first_at DESC LIMIT 1) AS b ON true
    LEFT JOIN LATERAL (
      SELECT p.first_at FROM price_blocks p
      WHERE p.series_id = x.id AND p.first_at >= ${next} AND p.first_at < ${dayEnd}
        AND (b.last_at IS NULL OR b.last_at < ${next})
      ORDER BY p.first_at LIMIT 1) AS n ON true
    LEFT JOIN LATERAL (
      SELECT p.first_at, p.last_at, p.data FROM price_blocks p
      WHERE p.series_id = x.id AND p.first_at >= ${day} AND p.first_at < ${before}
        AND b.first_at >= ${before}
      ORDER BY p.first_at DESC LIMIT 1) AS o ON true)`;
  const columns = [
    `(SELECT coalesce(json_agg(id), '[]') FROM s) AS ids`,
    `(SELECT ${US_TEXT('min(next_first)')} FROM a) AS blocks`,
    `EXISTS (SELECT 1 FROM a WHERE b_last >= ${next} OR next_first IS NOT NULL) AS any_next`,
    `(SELECT coalesce(json_agg(t), '[]') FROM (
       SELECT ${TUPLE('b')} AS t FROM a WHERE b_last >= ${before}
       UNION ALL SELECT ${TUPLE('o')} FROM a WHERE o_last >= ${before}) AS d) AS straddling`,
  ];
  if (options.rows) {
    columns.push(`(SELECT ${US_TEXT('min(t.at)')} FROM s AS x CROSS JOIN LATERAL (
       SELECT p.at FROM price_ticks p WHERE p.series_id = x.id AND p.at >= ${next} ORDER BY p.at LIMIT 1) AS t) AS rows`);
  }
  if (prev !== undefined) {
    columns.push(
      `(SELECT ${US_TEXT('max(p_last)')} FROM a WHERE p_last < ${prev}) AS prev_blocks`,
      `EXISTS (SELECT 1 FROM a WHERE p_last IS NOT NULL) AS any_prev`,
    );
    if (options.rows) {
      columns.push(`(SELECT ${US_TEXT('max(t.at)')} FROM s AS x CROSS JOIN LATERAL (
         SELECT p.at FROM price_ticks p WHERE p.series_id = x.id AND p.at < ${prev} ORDER BY p.at DESC LIMIT 1) AS t)
         AS prev_rows`);
    }
  }
  return { cte, columns: columns.join(',\n') };
}

/** The earliest first change of the series' blocks starting on the days from `dayEndUs` on (no decoding needed). */
async function laterChange(db: SqlRunner, ids: readonly number[], dayEndUs: number): Promise<number | null> {
  const [row] = await db.query<{ at: string | null }>(
    `SELECT ${US_TEXT('min(l.first_at)')} AS at FROM unnest($1::int4[]) AS x(id) CROSS JOIN LATERAL (
       SELECT p.first_at FROM price_blocks p WHERE p.series_id = x.id AND p.first_at >= $2::timestamptz
       ORDER BY p.first_at LIMIT 1) AS l`,
    [[...ids], usText(dayEndUs)],
  );
  return row?.at == null ? null : Number(row.at);
}

/** The latest last change of the series' blocks starting before `dayUs` (they end before it: nothing to decode). */
async function earlierChange(db: SqlRunner, ids: readonly number[], dayUs: number): Promise<number | null> {
  const [row] = await db.query<{ at: string | null }>(
    `SELECT ${US_TEXT('max(l.last_at)')} AS at FROM unnest($1::int4[]) AS x(id) CROSS JOIN LATERAL (
       SELECT p.last_at FROM price_blocks p WHERE p.series_id = x.id AND p.first_at < $2::timestamptz
       ORDER BY p.first_at DESC LIMIT 1) AS l`,
    [[...ids], usText(dayUs)],
  );
  return row?.at == null ? null : Number(row.at);
}

/**
 * AROUND_SQL's answer with the blocks it left to decode (their times only), the open blocks, and what the day did not
 * answer (the days before or after): the earliest change at or after `nextUs` and the
 * latest strictly before `prevUs` (when given). `dayUs`: the start of the day AROUND_SQL looked at.
 */
async function around(
  db: SqlRunner,
  open: OpenBlocks | null,
  row: AroundRow,
  dayUs: number,
  nextUs: number,
  prevUs: number | null,
): Promise<{ previous: number | null; next: number | null }> {
  let first = Infinity;
  let last = -Infinity;
  for (const value of [row.rows, row.blocks]) {
    if (value != null) first = Math.min(first, Number(value));
  }
  for (const value of [row.prev_rows, row.prev_blocks]) {
    if (value != null) last = Math.max(last, Number(value));
  }
  for (const [, firstUs, data] of json(row.straddling)) {
    for (const us of decodeTimes(Buffer.from(data, 'base64'), Number(firstUs))) {
      if (us >= nextUs && us < first) first = us;
      if (prevUs !== null && us < prevUs && us > last) last = us;
    }
  }
  const ids = json(row.ids);
  if (open && open.size > 0) {
    for (const id of ids) {
      const block = open.get(id);
      if (!block) continue;
      for (const us of block.atUs) {
        if (us >= nextUs && us < first) first = us;
        if (prevUs !== null && us < prevUs && us > last) last = us;
      }
    }
  }
  // The days after and before: only when the day had no change on that side (one that did is nearer than theirs).
  if (!row.any_next && ids.length > 0) {
    const later = await laterChange(db, ids, dayUs + DAY_US);
    if (later !== null && later < first) first = later;
  }
  if (prevUs !== null && !row.any_prev && ids.length > 0) {
    const earlier = await earlierChange(db, ids, dayUs);
    if (earlier !== null && earlier > last) last = earlier;
  }
  return { previous: last === -Infinity ? null : last, next: first === Infinity ? null : first };
}

/**
 * The first change of any of the series at or after `fromUs` (unix µs), or null: from the rows, the stored and the
 * open blocks (AROUND_SQL).
 */
export async function firstChangeFrom(
  db: SqlRunner,
  open: OpenBlocks | null,
  seriesIds: readonly number[],
  fromUs: number,
): Promise<number | null> {
  if (seriesIds.length === 0) return null;
  const day = dayOf(fromUs);
  const sql = aroundSql({ next: US(2), day: US(3), dayEnd: US(4), rows: rowsOf(open) });
  const [row] = await db.query<AroundRow>(
    `WITH s AS MATERIALIZED (SELECT DISTINCT id FROM unnest($1::int4[]) AS s(id)), ${sql.cte}
     SELECT ${sql.columns}`,
    [[...seriesIds], usText(fromUs), usText(day), usText(day + DAY_US)],
  );
  return (await around(db, open, row!, day, fromUs, null)).next;
}

/**
 * Over one event's series in key order (at most `limit`, after the key `after`): the latest change strictly before
 * `atUs` and the earliest at or after `nextUs` (unix µs), with the page's size and last key: one statement, as the
 * rows' `changesAround` (service.ts) is, blocks decoded (their times only) where they straddle an instant.
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
  const day = dayOf(atUs);
  const sql = aroundSql({ prev: US(2), next: US(3), day: US(8), dayEnd: US(9), rows: rowsOf(open) });
  const [row] = await db.query<
    AroundRow & { count: number; market_key: string | null; outcome: string | null; book: string | null }
  >(
    `WITH s AS MATERIALIZED (
       SELECT id, market_key, outcome, book FROM history_series
       WHERE event_id = $1 AND (market_key, outcome, book) > ($4, $5, $6)
       ORDER BY market_key, outcome, book LIMIT $7),
     last AS (SELECT market_key, outcome, book FROM s ORDER BY market_key DESC, outcome DESC, book DESC LIMIT 1),
     ${sql.cte}
     SELECT
       (SELECT count(*) FROM s)::int AS count,
       (SELECT market_key FROM last) AS market_key,
       (SELECT outcome FROM last) AS outcome,
       (SELECT book FROM last) AS book,
       ${sql.columns}`,
    [
      eventId,
      usText(atUs),
      usText(nextUs),
      after?.marketKey ?? '',
      after?.outcome ?? '',
      after?.book ?? '',
      limit,
      usText(day),
      usText(day + DAY_US),
    ],
  );
  const { previous, next } = await around(db, open, row!, day, nextUs, atUs);
  return {
    previous,
    next,
    count: row!.count,
    last:
      row!.market_key === null
        ? null
        : { marketKey: row!.market_key, outcome: row!.outcome!, book: row!.book! },
  };
}

/**
 * Over every series of the events: the latest change strictly before `atUs` and the earliest at or after `nextUs`
 * (unix µs), in one statement (`changesAroundPage` for whole events: the board's walk over many small events at once).
 */
export async function changesAroundEvents(
  db: SqlRunner,
  open: OpenBlocks | null,
  eventIds: readonly string[],
  atUs: number,
  nextUs: number,
): Promise<{ previous: number | null; next: number | null }> {
  const day = dayOf(atUs);
  const sql = aroundSql({ prev: US(2), next: US(3), day: US(4), dayEnd: US(5), rows: rowsOf(open) });
  const [row] = await db.query<AroundRow>(
    `WITH s AS MATERIALIZED (SELECT id FROM history_series WHERE event_id = ANY($1::text[])), ${sql.cte}
     SELECT ${sql.columns}`,
    [[...eventIds], usText(atUs), usText(nextUs), usText(day), usText(day + DAY_US)],
  );
  return around(db, open, row!, day, nextUs, atUs);
}

/**
 * Over the series (any: the league's index, decision 311): the latest change strictly before `atUs` and the earliest at
 * or after `nextUs` (unix µs), from the rows, the stored and the open blocks, in one statement (with the days before or
 * after only when the instant's day holds none on that side).
 */
export async function changesAroundSeries(
  db: SqlRunner,
  open: OpenBlocks | null,
  seriesIds: readonly number[],
  atUs: number,
  nextUs: number,
): Promise<{ previous: number | null; next: number | null }> {
  if (seriesIds.length === 0) return { previous: null, next: null };
  const day = dayOf(atUs);
  const sql = aroundSql({ prev: US(2), next: US(3), day: US(4), dayEnd: US(5), rows: rowsOf(open) });
  const [row] = await db.query<AroundRow>(
    `WITH s AS MATERIALIZED (SELECT DISTINCT id FROM unnest($1::int4[]) AS s(id)), ${sql.cte}
     SELECT ${sql.columns}`,
    [[...seriesIds], usText(atUs), usText(nextUs), usText(day), usText(day + DAY_US)],
  );
  return around(db, open, row!, day, nextUs, atUs);
}

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
  const out: StoredTick[] = [];
  if (rowsOf(open)) {
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
      [[...seriesIds], usText(fromUs), usText(toUs), after.seriesId, usText(after.atUs), limit],
    );
    out.push(...json(rows!.rows).map(rowTick));
  }
  // Stored blocks overlapping the range, in (series, first change) order, read a page at a time until `limit` of
  // their changes are in range (or none is left). A block holding a change at or after `fromUs` starts on that
  // change's day or later (a block never crosses a day): the days before are not opened.
  let cursor = { seriesId: after.seriesId, firstUs: -1 };
  let fromBlocks = 0;
  for (;;) {
    const [blocks] = await db.query<{ rows: BlockTuple[] | string }>(
      `SELECT coalesce(json_agg(${BLOCK_TUPLE} ORDER BY b.series_id, b.first_at), '[]') AS rows FROM (
         SELECT p.series_id, p.first_at, p.data FROM price_blocks p
         WHERE p.series_id = ANY($1::int4[]) AND p.first_at < ${US(3)} AND p.last_at >= ${US(2)}
           AND p.first_at >= ${US(9)}
           AND p.series_id >= $4::int4 AND (p.series_id, p.first_at) > ($4::int4, ${US(5)})
           AND (p.series_id > $6::int4 OR p.last_at > ${US(7)})
         ORDER BY p.series_id, p.first_at LIMIT $8
       ) AS b`,
      [
        [...seriesIds],
        usText(fromUs),
        usText(toUs),
        cursor.seriesId,
        usText(cursor.firstUs),
        after.seriesId,
        usText(after.atUs),
        BLOCK_PAGE,
        usText(dayOf(Math.max(0, fromUs))),
      ],
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
