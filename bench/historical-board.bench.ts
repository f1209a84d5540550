// Historical board benchmark (issue 31, decision 147): how long `GET /v1/historical/odds` holds the event loop while it
// pages a large board on the embedded database (PGlite runs its statements on the server's thread). A board of
// 8 NBA events × 81 spread lines × 2 outcomes × 15 books (19,440 prices, ~3.5 MB as one answer) is written through the
// real intake and history writer, then read page by page with an Elite key while a 1 ms timer measures every stall of
// the event loop. Writes bench/results/historical-board.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import { SPORTSBOOK_KEYS } from '#domain/sportsbooks.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard } from '#tests/support/server/history.ts';
import { createKey } from '#tests/support/server/odds-api.ts';

const EVENTS = Number(process.env.BENCH_BOARD_EVENTS ?? 8);
const ROUNDS = Number(process.env.BENCH_BOARD_ROUNDS ?? 5);

const clock = virtualClock(Date.now() - 3_600_000);
const app = await buildTestApp({ now: clock.now });
await app.ready();
app.engine.stop();
const key = await createKey(app, 'elite');
const board = new HandBoard(app, clock, 'bench');
for (let n = 0; n < EVENTS; n += 1) {
  const event = board.addEvent({ startsInMs: 5 * 3_600_000 + n * 60_000 });
  for (let line = -20; line <= 20; line += 0.5) {
    for (const book of SPORTSBOOK_KEYS) {
      board.price(event, book, 'spread', 'home', -110, { point: line });
      board.price(event, book, 'spread', 'away', -110, { point: -line });
    }
  }
}
clock.advance(60_000);
await board.flush();
// A running server analyzes the embedded database's changed tables within a minute (decision 181); the bench reads
// the board as it would be by then, not in the seconds after a first write the planner knows nothing about.
// PostgreSQL reports change counts at most once a second, so passes run until the series table has been analyzed.
const analyzed: string[] = [];
for (let pass = 0; pass < 50 && !analyzed.includes('history_series'); pass += 1) {
  analyzed.push(...(await app.analyzeDatabase()));
  if (!analyzed.includes('history_series')) await new Promise((resolve) => setTimeout(resolve, 100));
}
const at = new Date(clock.now()).toISOString();

// Fastify loads its injection library on the first `inject()`: 15–20 ms of module loading that is the bench's own, not
// the route's, so one request to /healthz goes first.
await app.inject({ url: '/healthz' });

/** Gaps between the turns of a 1 ms timer: what any other request would have waited. */
const stalls: number[] = [];
/** How many gaps the first page took: its stalls include the process's first request (code compiled on first use). */
let firstPageGaps = -1;
let last = performance.now();
const probe = setInterval(() => {
  const now = performance.now();
  stalls.push(now - last);
  last = now;
}, 1);
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();

const CURSOR = Buffer.from('"next_cursor":"');
/** The answer's `next_cursor`, or null. */
function cursorOf(body: Buffer): string | null {
  const start = body.indexOf(CURSOR);
  if (start < 0) return null;
  const from = start + CURSOR.length;
  return body.subarray(from, body.indexOf('"', from)).toString();
}

const pageTimes: number[] = [];
let pages = 0;
let bytes = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  let cursor: string | null = null;
  do {
    const started = performance.now();
    // The answer is read as bytes: turning 0.9 MB into a string, or parsing it, would be the bench's own stall (a
    // server writes the bytes to a socket), so the cursor is found in the bytes.
    const answer = await app.inject({
      url: `/v1/historical/odds?league=nba&at=${at}${cursor ? `&cursor=${cursor}` : ''}`,
      headers: { 'x-api-key': key },
      payloadAsStream: true,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of answer.stream()) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    pageTimes.push(performance.now() - started);
    if (firstPageGaps < 0) firstPageGaps = stalls.length;
    if (answer.statusCode !== 200)
      throw new Error(`status ${answer.statusCode}: ${body.subarray(0, 200).toString()}`);
    bytes += body.length;
    pages += 1;
    cursor = cursorOf(body);
    // Quota: 10 requests a page of the Elite plan's 250 a minute; the virtual clock moves a minute a board.
  } while (cursor);
  clock.advance(60_000);
}
clearInterval(probe);
histogram.disable();
await app.close();

const sorted = [...stalls].sort((a, b) => a - b);
const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const result = {
  at: new Date().toISOString(),
  loadavg: os.loadavg(),
  events: EVENTS,
  prices: EVENTS * 81 * 2 * SPORTSBOOK_KEYS.length,
  rounds: ROUNDS,
  pages,
  meanPageBytes: Math.round(bytes / pages),
  meanPageMs: Math.round(pageTimes.reduce((a, b) => a + b, 0) / pages),
  timerGapMs: { p50: quantile(0.5), p99: quantile(0.99), max: sorted.at(-1) },
  /** The longest gap once the first page (the process's first request) has been answered. */
  timerGapMaxAfterFirstPageMs: Math.max(...stalls.slice(firstPageGaps)),
  firstPageTimerGapMaxMs: Math.max(...stalls.slice(0, firstPageGaps)),
  eventLoopDelayMaxMs: histogram.max / 1e6,
  analyzedBeforeReading: analyzed,
};
console.log(JSON.stringify(result, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/historical-board.json', JSON.stringify(result, null, 2));
