import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import fp from 'fastify-plugin';
import { dbKinds } from '../db/plugin.ts';
import { HistoryRecorder } from './recorder.ts';
import { HistoryService } from './service.ts';
import { sqlClient } from './sql-client.ts';
import { StoredSize } from './stored-size.ts';
import { HistoryWriter } from './writer.ts';

// Odds history (decision 106): records every price change the engine accepts into the database (PGlite or
// PostgreSQL), in batches every HISTORY_FLUSH_MS through a bounded queue, and decorates app.history for the reads.

declare module 'fastify' {
  interface FastifyInstance {
    history: HistoryService;
  }
}

const MAINTENANCE_MS = 10 * 60_000;
/** History writes failing without a break for longer than this make the server not ready (decision 148). */
export const HISTORY_FAILING_MAX_MS = 30_000;
/** /readyz's `storedBytes` is measured again when older than this (issue 59: current within a minute). */
export const STORED_BYTES_MAX_AGE_MS = 30_000;
/**
 * How long the shutdown writes the history's backlog before giving up the rest (recorded as a gap) and writing the open
 * blocks (decision 306): with SHUTDOWN_TIMEOUT_MS's 25 s, room for that last transaction and the other hooks.
 */
export const HISTORY_SHUTDOWN_BUDGET_MS = 5_000;

/**
 * The open blocks' journal's folder (decision 300): inside an on-disk embedded database's folder, for a writer that
 * keeps blocks open (blocks format, ROLE=all); none otherwise (in memory, PostgreSQL, rows, or ROLE=ingest, whose
 * blocks are written every batch).
 */
function journalDir(app: FastifyInstance, kind: string): string | undefined {
  const dir = app.config.PGLITE_DIR ?? path.join(app.config.dataDir, 'pglite');
  if (kind !== 'pglite' || dir.startsWith('memory://') || app.config.HISTORY_FORMAT !== 'blocks')
    return undefined;
  if (app.config.ROLE !== 'all') return undefined;
  return path.join(dir, 'sharpline-open-blocks');
}

export interface HistoryPluginOptions {
  /** The engine's clock (tests pass a virtual one). */
  now?: (() => number) | undefined;
}

export const historyPlugin = fp(
  async (app: FastifyInstance, options: HistoryPluginOptions) => {
    const now = options.now ?? Date.now;
    const kind = dbKinds.get(app.db) ?? 'pglite';
    const db = sqlClient(app.db, kind);
    const recorder = new HistoryRecorder(now);
    const writer = new HistoryWriter(db, {
      maxQueueRows: app.config.HISTORY_QUEUE_MAX_CHANGES,
      retentionDays: app.config.HISTORY_RETENTION_DAYS,
      maxBytes: app.config.HISTORY_MAX_GB * 1024 ** 3,
      now,
      format: app.config.HISTORY_FORMAT,
      // The open blocks' journal (decision 300) lives in the embedded database's folder, so that it goes with it.
      journalDir: journalDir(app, kind),
      log: {
        info: (details, message) => app.log.info(details, message),
        warn: (details, message) => app.log.warn(details, message),
      },
    });
    const service = new HistoryService(db, recorder, writer);
    app.decorate('history', service);
    // Rows format: whether blocks were written (under the blocks format) that the reads must look at too.
    await service.lookForBlocks().catch((error: unknown) => {
      app.log.warn(
        { error: error instanceof Error ? error.message : String(error) },
        'odds history: price_blocks not looked at',
      );
    });

    // An `api` instance's engine replays the ingest leader's prices: the leader records them (issue 19).
    if (!app.config.HISTORY_RECORD || app.config.ROLE === 'api') {
      app.readiness.register('history', () => ({ ok: true, details: { recording: false } }));
      return;
    }
    const store = app.engine.store;
    const unsubscribe = [
      store.subscribe((change) => recorder.onPrice(change)),
      store.subscribeEvents((change) => recorder.onEvent(change)),
      app.engine.scores.subscribe((score) => recorder.onScore(score)),
    ];

    // Partitions must exist before the first write: made at start (a failure here is logged, not fatal: the
    // default partition takes the rows), then every 10 minutes with the retention and the size cap.
    const storedSize = new StoredSize(db, { maxAgeMs: STORED_BYTES_MAX_AGE_MS, waitMs: 2_000, now });
    const maintain = () =>
      service
        .maintain()
        .then(() => storedSize.measure())
        .catch((error: unknown) => {
          app.log.warn(
            { error: error instanceof Error ? error.message : String(error) },
            'odds history maintenance failed',
          );
        });
    await maintain();
    // What a crash left in the open blocks' journal, written before the first batch (its first sights read it).
    await writer.recover().catch((error: unknown) => {
      app.log.warn(
        { error: error instanceof Error ? error.message : String(error) },
        'odds history: the open blocks journal not recovered',
      );
    });
    const maintenance = setInterval(() => void maintain(), MAINTENANCE_MS);
    maintenance.unref();
    const flush = setInterval(() => {
      const batch = recorder.cut();
      if (batch) writer.enqueue(batch);
    }, app.config.HISTORY_FLUSH_MS);
    flush.unref();

    app.readiness.register('history', async () => {
      // The ticks' size as measured within STORED_BYTES_MAX_AGE_MS, rather than at the last upkeep (10 minutes).
      const stored = await storedSize.read();
      const stats = { ...service.stats(), storedBytes: stored.bytes, storedBytesAt: stored.at };
      // The feed and the API run without the history, so a short outage leaves the server ready; writes failing
      // without a break for over HISTORY_FAILING_MAX_MS do not (decision 148): the history is being lost, or about to
      // be once the queue fills, and whoever watches /readyz must hear of it.
      const failingMs = stats.failingSince === null ? 0 : now() - Date.parse(stats.failingSince);
      return { ok: failingMs <= HISTORY_FAILING_MAX_MS, details: { recording: true, ...stats } };
    });

    // Before the database closes (decision 306): nothing more is taken, what was gathered is written for at most
    // HISTORY_SHUTDOWN_BUDGET_MS, then every open block is written in one last transaction; a backlog left past the
    // budget is given up and recorded as a gap, and the log says how many changes that was.
    app.addHook('preClose', async () => {
      clearInterval(flush);
      clearInterval(maintenance);
      for (const stop of unsubscribe) stop();
      const batch = recorder.cut();
      if (batch) writer.enqueue(batch);
      writer.sealBlocks();
      const started = performance.now();
      const report = await writer.close(
        Math.min(HISTORY_SHUTDOWN_BUDGET_MS, Math.floor(app.config.SHUTDOWN_TIMEOUT_MS / 5)),
      );
      const ms = Math.round(performance.now() - started);
      if (!report.sealed) {
        app.log.warn({ ...report, ms }, 'odds history at shutdown: open blocks not written');
      } else if (report.lostChanges > 0) {
        app.log.warn(
          { ...report, ms },
          `odds history at shutdown: ${report.lostChanges} queued price changes not written (recorded as a gap); open blocks written`,
        );
      } else {
        // Drained, or the budget ran out during the seal itself, which the last transaction then wrote: nothing lost.
        app.log.info({ ...report, ms }, 'odds history written at shutdown');
      }
    });
  },
  { name: 'history', dependencies: ['engine', 'db', 'readiness'] },
);
