import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { SeriesTick } from '#server/history/service.ts';
import type { SqlRunner } from '#server/history/sql-client.ts';

// A hand-fed board for the odds history's tests: fixtures and prices go through the engine's real intake
// (app.engine.ingest), on the test's virtual clock, and `flush()` writes what the history gathered.

export interface BoardEvent {
  source: string;
  id: string;
  startsAt: number;
}

export class HandBoard {
  private counter = 0;

  constructor(
    readonly app: FastifyInstance,
    readonly clock: { now(): number; advance(ms: number): void },
    private readonly prefix = 'hb',
  ) {}

  /** A fresh fixture (NBA unless `league` says otherwise) starting `startsInMs` from now. */
  addEvent(options: { league?: string; startsInMs?: number; live?: boolean } = {}): BoardEvent {
    this.counter += 1;
    const n = this.counter;
    const source = `${this.prefix}-${n}`;
    const startsAt = this.clock.now() + (options.startsInMs ?? 3_600_000);
    const accepted = this.app.engine.ingest({
      kind: 'event',
      sourceEventId: source,
      league: options.league ?? 'nba',
      home: { name: `${this.prefix} Home ${n}`, abbreviation: `H${n}` },
      away: { name: `${this.prefix} Away ${n}`, abbreviation: `A${n}` },
      startsAt,
      live: options.live ?? false,
    });
    expect(accepted).toBe(true);
    const event = this.app.engine.store
      .events()
      .find((candidate) => candidate.home.name === `${this.prefix} Home ${n}`);
    return { source, id: event!.id, startsAt };
  }

  /** One book's price (American) for one outcome; `extra` adds `point`, `period`, `suspended`… */
  price(
    event: BoardEvent,
    book: string,
    market: string,
    outcome: string,
    american: number,
    extra: Record<string, unknown> = {},
  ): void {
    const accepted = this.app.engine.ingest({
      kind: 'price',
      sourceEventId: event.source,
      book,
      market,
      outcome,
      american,
      ...extra,
    });
    expect(accepted).toBe(true);
  }

  /** Adds players to the fixture's roster (the source's event message listing them). */
  roster(event: BoardEvent, players: { id: string; name: string; team: 'home' | 'away' }[]): void {
    const known = this.app.engine.store.event(event.id)!;
    const accepted = this.app.engine.ingest({
      kind: 'event',
      sourceEventId: event.source,
      league: known.league,
      home: { name: known.home.name },
      away: { name: known.away.name },
      startsAt: event.startsAt,
      live: known.live,
      players,
    });
    expect(accepted).toBe(true);
  }

  /** The fixture goes live (the source's event message at its start). */
  start(event: BoardEvent): void {
    const accepted = this.app.engine.ingest({
      kind: 'event',
      sourceEventId: event.source,
      league: this.app.engine.store.event(event.id)!.league,
      home: { name: this.app.engine.store.event(event.id)!.home.name },
      away: { name: this.app.engine.store.event(event.id)!.away.name },
      startsAt: event.startsAt,
      live: true,
    });
    expect(accepted).toBe(true);
  }

  /** A score message of the source for the fixture (`status`, `home`, `away`, `periods`, `players`…). */
  score(event: BoardEvent, message: Record<string, unknown>): void {
    expect(this.app.engine.ingest({ kind: 'score', sourceEventId: event.source, ...message })).toBe(true);
  }

  /** The final score (the full game's period the same); `periods` adds other periods, `players` their box score. */
  final(
    event: BoardEvent,
    home: number,
    away: number,
    extra: {
      periods?: Record<string, { home: number; away: number }>;
      players?: Record<string, unknown>;
    } = {},
  ): void {
    this.score(event, {
      status: 'final',
      home,
      away,
      periods: { ...extra.periods, full: { home, away } },
      ...(extra.players ? { players: extra.players } : {}),
    });
  }

  end(event: BoardEvent): void {
    expect(this.app.engine.ingest({ kind: 'end', sourceEventId: event.source })).toBe(true);
  }

  /** Writes everything gathered so far (and fails the test if the writer could not). */
  async flush(): Promise<void> {
    expect(await this.app.history.flush()).toBe(true);
  }
}

/** One book's recorded ticks of an event up to `to`, by outcome (oldest first). */
export async function ticksByOutcome(
  app: FastifyInstance,
  eventId: string,
  book: string,
  to: number,
): Promise<Map<string, SeriesTick[]>> {
  const series = await app.history.series(eventId, { book });
  const ticks = await app.history.ticks(
    series.map((row) => row.id),
    { from: 0, to, limit: 1_000 },
  );
  return new Map(
    series.map((row) => [row.outcome, ticks.filter((tick) => tick.seriesId === row.id)] as const),
  );
}

/**
 * Counts the SQL statements app.history runs from now on (its reads: the writer's batches go through transactions
 * and are not counted), by wrapping the service's SQL client in place. `after` runs once each statement has answered,
 * before the caller sees the rows (a test may abort the client or move the clock there). `restore()` unwraps it.
 */
export function countHistoryQueries(
  app: FastifyInstance,
  after?: (text: string, index: number) => void | Promise<void>,
): { readonly count: number; readonly texts: readonly string[]; restore(): void } {
  const db = (app.history as unknown as { db: SqlRunner }).db;
  const original = db.query;
  const texts: string[] = [];
  db.query = async function <T>(text: string, params?: unknown[]): Promise<T[]> {
    texts.push(text);
    const rows = await original.call(db, text, params);
    await after?.(text, texts.length);
    return rows as T[];
  };
  return {
    get count() {
      return texts.length;
    },
    texts,
    restore() {
      db.query = original;
    },
  };
}
