// One process of stream-bench clients (bench/api.bench.ts forks several, so that the clients' own parsing is spread
// over processes and does not queue behind a single event loop). Opens its share of SSE connections, then records,
// per chunk received while measuring, arrival time − the newest `updated_at` in the chunk, as a histogram in ms.
// Protocol over IPC: parent sends {type:'open', …}; child answers {type:'opened', connected, failed}; parent sends
// 'measure', then 'report'; child answers {type:'report', histogram, chunks, events}.
import http from 'node:http';

interface OpenMessage {
  type: 'open';
  origin: string;
  /** Global index of this process's first client (leagues and keys rotate on it). */
  first: number;
  count: number;
  keys: string[];
  leagues: string[];
  query: string;
  /** Connections opened at once. */
  concurrency: number;
}

const NEEDLE = Buffer.from('"updated_at":"');
const PRICE = Buffer.from('event: price');
/** `2026-11-22T02:27:54.123Z` */
const STAMP_LENGTH = 24;
const MAX_MS = 60_000;

const histogram = new Uint32Array(MAX_MS + 1);
let chunks = 0;
let events = 0;
let measuring = false;
let closing = false;
let closed = 0;
const requests: http.ClientRequest[] = [];
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function onChunk(chunk: Buffer) {
  if (!measuring) return;
  const arrived = Date.now();
  // Entries are written in sequence order and the engine stamps them on receipt: the last stamp is the newest.
  const at = chunk.lastIndexOf(NEEDLE);
  if (at < 0 || at + NEEDLE.length + STAMP_LENGTH > chunk.length) return;
  const stamp = Date.parse(chunk.toString('latin1', at + NEEDLE.length, at + NEEDLE.length + STAMP_LENGTH));
  if (!Number.isFinite(stamp)) return;
  histogram[Math.max(0, Math.min(MAX_MS, arrived - stamp))]! += 1;
  chunks += 1;
  for (let index = chunk.indexOf(PRICE); index >= 0; index = chunk.indexOf(PRICE, index + PRICE.length))
    events += 1;
}

function open(message: OpenMessage, index: number): Promise<boolean> {
  return new Promise((resolve) => {
    const league = message.leagues[index % message.leagues.length];
    const request = http.get(
      `${message.origin}/v1/stream?league=${league}&${message.query}`,
      {
        agent,
        headers: { 'x-api-key': message.keys[index % message.keys.length]!, accept: 'text/event-stream' },
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          resolve(false);
          return;
        }
        resolve(true);
        response.on('data', onChunk);
        response.on('error', () => {});
        response.on('close', () => {
          if (!closing) closed += 1;
        });
      },
    );
    request.on('error', () => resolve(false));
    requests.push(request);
  });
}

process.on('message', async (message: OpenMessage | { type: 'measure' | 'report' | 'close' }) => {
  if (message.type === 'open') {
    let connected = 0;
    let failed = 0;
    for (let offset = 0; offset < message.count; offset += message.concurrency) {
      const batch = Array.from({ length: Math.min(message.concurrency, message.count - offset) }, (_, i) =>
        open(message, message.first + offset + i),
      );
      for (const ok of await Promise.all(batch)) {
        if (ok) connected += 1;
        else failed += 1;
      }
      process.send!({ type: 'progress', connected, failed });
    }
    process.send!({ type: 'opened', connected, failed });
  } else if (message.type === 'measure') {
    measuring = true;
  } else if (message.type === 'report') {
    measuring = false;
    const pairs: [number, number][] = [];
    histogram.forEach((count, ms) => {
      if (count > 0) pairs.push([ms, count]);
    });
    process.send!({ type: 'report', histogram: pairs, chunks, events, closed });
  } else if (message.type === 'close') {
    closing = true;
    for (const request of requests) request.destroy();
    process.exit(0);
  }
});
