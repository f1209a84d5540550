import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { delayMs, FREE_PLAN, PLANS } from '#domain/plans.ts';
import { OddsEngine, type EngineOptions } from '#engine/engine.ts';
import type { DropReason } from '#engine/messages.ts';
import { createSource, type OddsSource, type SourceContext } from '#engine/sources/index.ts';
import { strongEtag, type ContentCoding, type StaticEntry } from '../http/static-files.ts';
import { logDrops } from './drop-log.ts';
import { FeedDemand } from './feed-demand.ts';

// Starts the odds source and the engine when the app is ready, stops both on close, and keeps every published
// snapshot as bytes + gzip + brotli + strong ETag so the feed route answers like a static file.

export type FeedEngine = OddsEngine<StaticEntry>;

declare module 'fastify' {
  interface FastifyInstance {
    engine: FeedEngine;
    /** The odds source (what it carries besides prices: same-game-parlay books); started only where prices enter. */
    oddsSource: OddsSource;
    /** ROLE=ingest: starts and stops a fresh odds source as this instance gains and loses the lead (issue 19). */
    ingestControl: IngestControl;
  }
}

/** How the cluster plugin drives an ingest instance's source (ROLE=ingest). */
export interface IngestControl {
  /**
   * Clears the engine and starts a fresh source: each accepted message is handed to `accepted` with its time of
   * receipt, and `ready` runs once the source's initial state is in, just before the first publish.
   */
  lead(accepted: (message: unknown, at: number) => void, ready: () => void): Promise<void>;
  /** Stops the source (if running) and clears the engine. */
  follow(): Promise<void>;
}

export interface EnginePluginOptions {
  /** Overrides ODDS_SOURCE (tests pass a fake or a replay). */
  source?: OddsSource;
  engine?: Partial<Omit<EngineOptions<StaticEntry>, 'source' | 'encode'>>;
  /**
   * Told when the public feed's compressed bytes come into demand (true) and when FEED_WANTED_MS passed without a
   * reader (false); `server.ts` lets V8's heap grow more freely meanwhile (decision 294).
   */
  onFeedWanted?: (wanted: boolean) => void;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The snapshot's precomputed answer. Not `makeEntry`: its gzip 9 / brotli 11 suit build-time files, but the feed
 * is re-encoded up to four times a second, where gzip 6 / brotli 5 cost a few milliseconds instead of hundreds.
 * Those milliseconds run on zlib's thread pool, not the event loop (6–7 ms each held every stream's release;
 * issue 17): the entry is returned at once with its body and ETag, and `ready` settles when `gzip` and `br` are
 * filled in. Readers that negotiate an encoding await `ready` first. Compression cannot really fail on a Buffer; if
 * it did, the entry would stay identity-only (still correct bytes) rather than reject.
 */
export function snapshotEntry(body: Buffer): StaticEntry {
  const entry: StaticEntry = {
    body,
    etag: strongEtag(body),
    contentType: 'application/json; charset=utf-8',
  };
  entry.ready = compressEntry(entry);
  return entry;
}

/**
 * How long after one of the feed's compressed forms (gzip or brotli) was last asked for the engine's snapshots are
 * still given that form as they are published; past it, a snapshot is given it when a reader first asks for it (issue
 * 59, decisions 248 and 315).
 */
export const FEED_WANTED_MS = 60_000;

const CODINGS: readonly ContentCoding[] = ['gzip', 'br'];

/**
 * The engine's `encode`: an entry whose gzip and brotli forms are each made on demand (`StaticEntry.compress`, started
 * by `whenCompressed` with the reader's `Accept-Encoding`), and made as the snapshot is published when that form was
 * asked for within FEED_WANTED_MS. An idle server (no reader of the feed) then makes no compressed copy of the four
 * snapshots a second nobody fetches; a busy one makes the forms its readers take as each snapshot is published, off
 * the readers' path, and no brotli copy while only gzip readers come (API clients), nor gzip while only browsers do.
 * `demand` (default: one of its own on `now`) is told of every reader's demand, whatever its encoding: the feed is
 * wanted (decision 294's heap growth).
 */
export function feedEncoder(
  now: () => number = Date.now,
  demand: FeedDemand = new FeedDemand({ now, wantedMs: FEED_WANTED_MS }),
): (body: Buffer) => StaticEntry {
  const askedAt: Record<ContentCoding, number> = {
    gzip: Number.NEGATIVE_INFINITY,
    br: Number.NEGATIVE_INFINITY,
  };
  return (body) => {
    const entry: StaticEntry = {
      body,
      etag: strongEtag(body),
      contentType: 'application/json; charset=utf-8',
    };
    const making: Partial<Record<ContentCoding, Promise<void>>> = {};
    const make = (coding: ContentCoding): Promise<void> => {
      const started = making[coding];
      if (started) return started;
      const done = compressForm(entry, coding);
      making[coding] = done;
      // `ready`: every form being made, until all of them are filled in (what a reader of the entry as a whole awaits).
      const pending = Promise.all(Object.values(making)).then(() => {
        if (entry.ready === pending) delete entry.ready;
      });
      entry.ready = pending;
      return done;
    };
    const at = now();
    for (const coding of CODINGS) if (at - askedAt[coding] < FEED_WANTED_MS) make(coding);
    // Every reader's demand goes through here (`whenCompressed`): it keeps the feed, and the form it takes, wanted.
    entry.compress = (coding) => {
      demand.ask();
      if (!coding) return undefined;
      askedAt[coding] = now();
      return entry[coding] ? undefined : make(coding);
    };
    return entry;
  };
}

/** Fills in one of the entry's compressed forms on zlib's thread pool (gzip 6 or brotli 5, as `snapshotEntry`). */
function compressForm(entry: StaticEntry, coding: ContentCoding): Promise<void> {
  const body = entry.body;
  const compressed =
    coding === 'gzip'
      ? gzipAsync(body, { level: 6 })
      : brotliAsync(body, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        });
  // Compression cannot really fail on a Buffer; if it did, the form stays absent (the body is still correct bytes).
  return compressed.then(
    (bytes) => {
      entry[coding] = bytes;
    },
    () => undefined,
  );
}

/** Fills in the entry's gzip and brotli forms on zlib's thread pool; removes `ready` when done. */
function compressEntry(entry: StaticEntry): Promise<void> {
  return Promise.all(CODINGS.map((coding) => compressForm(entry, coding))).then(() => {
    delete entry.ready;
  });
}

/**
 * How far back the engine keeps every price version and feed snapshot: what the most delayed plan reads (Starter,
 * 2 minutes), plus 10 s for the readers' rounding of their instant. Longer costs memory for nothing: with player props
 * the simulator sends ~6,000 prices a second, each a retained version (decision 121).
 */
export const PRICE_HISTORY_MS = Math.max(...PLANS.map(delayMs)) + 10_000;

export const enginePlugin = fp(
  async (app: FastifyInstance, options: EnginePluginOptions) => {
    const role = app.config.ROLE;
    // The value scan runs wherever the API is served: /v1/ev, /v1/middles, their pages' feeds and the stream read its sets
    // (decision 273); an ingest instance serves none of them and keeps none.
    const valuesOn = role !== 'ingest';
    const createConfiguredSource = () =>
      createSource({
        ODDS_SOURCE: app.config.ODDS_SOURCE,
        SIM_SEED: app.config.SIM_SEED,
        SIM_PROPS: app.config.SIM_PROPS,
        SIM_START: app.config.SIM_START,
        ODDS_API_KEY: app.config.ODDS_API_KEY,
        ODDS_API_URL: app.config.ODDS_API_URL,
        ODDS_API_PROPS_BUDGET: app.config.ODDS_API_PROPS_BUDGET,
        ODDS_API_PROPS_RESERVE: app.config.ODDS_API_PROPS_RESERVE,
        ODDS_API_PROPS_WINDOW_H: app.config.ODDS_API_PROPS_WINDOW_H,
        ODDS_API_PROPS_MAX_EVENTS: app.config.ODDS_API_PROPS_MAX_EVENTS,
        ODDS_API_SCORES_INTERVAL_S: app.config.ODDS_API_SCORES_INTERVAL_S,
      });
    // An `api` instance never starts it: it only names the feed's source and carries its same-game-parlay books.
    let source = options.source ?? createConfiguredSource();
    const now = options.engine?.now ?? Date.now;
    const pendingDrops = new Map<DropReason, number>();
    // Readers' demand is measured in wall time (the engine's clock may be a test's).
    const demand = new FeedDemand({
      now: Date.now,
      wantedMs: FEED_WANTED_MS,
      onChange: options.onFeedWanted,
    });
    const engine: FeedEngine = new OddsEngine<StaticEntry>({
      historyMs: PRICE_HISTORY_MS,
      ...options.engine,
      scan: {
        floorPct: app.config.ARB_FLOOR_PCT,
        maxAgePreMatchMs: app.config.ARB_MAX_AGE_PREMATCH_S * 1000,
        maxAgeLiveMs: app.config.ARB_MAX_AGE_LIVE_S * 1000,
        maxEdgePct: app.config.ARB_MAX_EDGE_PCT,
        ...options.engine?.scan,
      },
      limits: {
        minDecimal: app.config.ODDS_MIN_DECIMAL,
        maxDecimal: app.config.ODDS_MAX_DECIMAL,
        ...options.engine?.limits,
      },
      source: source.name,
      // The api instances judge their own stores (decision 170).
      values: { ev: valuesOn, middles: valuesOn },
      encode: feedEncoder(Date.now, demand),
      // GET /tools/arbs.json is the free tier's: arbs above its cap are counted, not shown (decision 210).
      publicEdgeCapPct: FREE_PLAN.finders.arbEdgeCapPct ?? undefined,
      onDrop: (reason, count) => pendingDrops.set(reason, (pendingDrops.get(reason) ?? 0) + count),
    });
    app.decorate('engine', engine);
    app.decorate('oddsSource', source);

    // Dropped input is summarised in the log at most every 30 s (a bad feed must not flood the log); what the source
    // drops by design at debug level (decision 298).
    const dropLog = setInterval(() => {
      if (pendingDrops.size === 0) return;
      logDrops(app.log, pendingDrops, source.expectedDrops);
      pendingDrops.clear();
    }, 30_000);
    dropLog.unref();

    app.readiness.register('engine', () => {
      const stats = engine.stats();
      return {
        // A standby ingest instance publishes nothing, and is ready to take the lead.
        ok: engine.latest !== undefined || role === 'ingest',
        details: {
          source: stats.source,
          published: stats.published,
          lastPublishedAt:
            stats.lastPublishedAt === null ? null : new Date(stats.lastPublishedAt).toISOString(),
          events: stats.events,
          markets: stats.markets,
          arbs: stats.arbs,
          accepted: stats.accepted,
          dropped: stats.dropped,
          drops: stats.drops,
          // Whether this instance keeps the positive-EV and middles sets (every instance serving the API; decision 273).
          values: engine.values !== undefined,
        },
      };
    });

    const contextFor = (
      accepted?: (message: unknown, at: number) => void,
      onReady?: () => void,
    ): SourceContext => ({
      ingest: accepted
        ? (message) => {
            const at = now();
            const ok = engine.ingest(message, at);
            if (ok) accepted(message, at);
            return ok;
          }
        : (message) => engine.ingest(message),
      drop: (reason) => engine.drop(reason),
      ready: () => {
        onReady?.();
        engine.markReady();
        engine.tick();
      },
      now: Date.now,
      log: {
        info: (details, message) => app.log.info(details, message),
        warn: (details, message) => app.log.warn(details, message),
      },
    });

    let running = false;
    const stopSource = async () => {
      if (!running) return;
      running = false;
      await source.stop();
    };
    app.decorate('ingestControl', {
      async lead(accepted, onReady) {
        await stopSource();
        engine.clear();
        // A fresh source per lead: it starts from the current market, as after a restart.
        if (!options.source) source = createConfiguredSource();
        running = true;
        await source.start(contextFor(accepted, onReady));
      },
      async follow() {
        await stopSource();
        engine.clear();
      },
    } satisfies IngestControl);

    app.addHook('onReady', async () => {
      if (role === 'api') return;
      engine.start();
      if (role === 'all') {
        running = true;
        await source.start(contextFor());
      }
    });
    app.addHook('onClose', async () => {
      clearInterval(dropLog);
      demand.stop();
      engine.stop();
      await stopSource();
    });
  },
  { name: 'engine', dependencies: ['readiness'] },
);
