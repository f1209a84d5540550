import { Worker } from 'node:worker_threads';

// The last resort of a shutdown (docs/decisions/312): `server.ts` exits with 1 when closing takes longer than
// SHUTDOWN_TIMEOUT_MS, but that timer runs on the main thread, so it cannot fire while the main thread is held by
// synchronous work that does not end. Seen once: the embedded database (PGlite, WebAssembly on the main thread) looping
// in its error handling after its data folder was deleted under a stopping server; the process stayed, and an
// orchestrator waiting for it would have had to kill it. The watchdog is a worker thread with a timer of its own:
// past its deadline it writes one line to standard error and sends the process SIGKILL (exit status 137), which no
// stuck thread can hold back. It never keeps the process alive (the worker is unref'd), and a process that exits in
// time never hears from it.

const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
setTimeout(() => {
  try {
    writeSync(2, JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg: workerData.message }) + '\\n');
  } finally {
    process.kill(process.pid, 'SIGKILL');
  }
}, workerData.ms);
`;

/**
 * Starts a watchdog that kills this process (SIGKILL) `ms` milliseconds from now unless it has exited by then, whatever
 * its main thread is doing. `message` is written to standard error (as a pino-shaped fatal line) just before.
 */
export function startExitWatchdog(ms: number, message: string): void {
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { ms, message },
    // The worker needs no heap to speak of; its stdout/stderr are not piped through the main thread.
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
    stdout: false,
    stderr: false,
  });
  worker.unref();
}
