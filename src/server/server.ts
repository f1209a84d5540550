import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { startExitWatchdog } from './exit-watchdog.ts';
import { heapGrowth } from './heap-growth.ts';

// Builds the app, listens, and shuts down gracefully on SIGTERM/SIGINT. Nothing else lives here.

/** How long after SHUTDOWN_TIMEOUT_MS the watchdog kills a process whose main thread could not run its own timer. */
const SHUTDOWN_WATCHDOG_GRACE_MS = 2_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }

  // Bounds the heap by what is live instead of by the machine's memory (docs/decisions/008), except while the public
  // feed is in demand, when HEAP_GROWTH_FEED_PCT applies (decision 294); and, with HEAP_FOR_SIZE, has V8 optimize the
  // heap for size while the feed is quiet (decision 301); and, unless HEAP_PRETENURING, turns V8's allocation-site
  // pretenuring off (decision 313).
  const onFeedWanted = heapGrowth(config);
  const app = await buildApp({ config, onFeedWanted });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const started = performance.now();
    app.log.info({ signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error(
        `shutdown timed out after ${config.SHUTDOWN_TIMEOUT_MS} ms (SHUTDOWN_TIMEOUT_MS); exiting`,
      );
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    // The timer above needs the main thread; a thread held by work that never ends is killed by the watchdog instead,
    // SHUTDOWN_WATCHDOG_GRACE_MS later (docs/decisions/312).
    startExitWatchdog(
      config.SHUTDOWN_TIMEOUT_MS + SHUTDOWN_WATCHDOG_GRACE_MS,
      `shutdown: the main thread was still busy ${config.SHUTDOWN_TIMEOUT_MS + SHUTDOWN_WATCHDOG_GRACE_MS} ms after ${signal} (SHUTDOWN_TIMEOUT_MS + ${SHUTDOWN_WATCHDOG_GRACE_MS} ms); killing the process`,
    );
    app.close().then(
      () => {
        const ms = Math.round(performance.now() - started);
        app.log.info({ ms }, `shut down in ${ms} ms`);
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
