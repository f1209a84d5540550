// One process of bench/stream-open.bench.ts: opens `count` streams at once (no keep-alive agent, every request sent
// in the same tick), reads each answer in full, and records per stream the time from the request to the end of its
// `snapshot` event. Protocol over IPC: parent sends {type:'open', …}; child answers {type:'opened', …} once every
// stream has its snapshot or failed; parent sends 'close' at the end.
import http from 'node:http';

interface OpenMessage {
  type: 'open';
  origin: string;
  /** Global index of this process's first stream (keys rotate on it). */
  first: number;
  count: number;
  keys: string[];
  query: string;
  /** Give up on streams that have no snapshot after this long. */
  timeoutMs: number;
}

const SNAPSHOT = Buffer.from('event: snapshot\n');
const END = Buffer.from('\n\n');
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const requests: http.ClientRequest[] = [];

interface Outcome {
  status: number;
  /** Request sent → last byte of the snapshot event (ms); NaN when none arrived. */
  snapshotMs: number;
  bytes: number;
  /** `data` events until the snapshot was complete: how many pieces it arrived in. */
  chunks: number;
}

function open(message: OpenMessage, index: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = http.get(
      `${message.origin}/v1/stream?${message.query}`,
      {
        agent,
        headers: { 'x-api-key': message.keys[index % message.keys.length]!, accept: 'text/event-stream' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          settle({ status, snapshotMs: Number.NaN, bytes: 0, chunks: 0 });
          return;
        }
        let bytes = 0;
        let chunks = 0;
        // Where the snapshot event starts in the stream (-1: not yet seen), and the bytes kept to find its end
        // across chunk boundaries.
        let pending = Buffer.alloc(0);
        let inSnapshot = false;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          chunks += 1;
          if (settled) return;
          if (!inSnapshot) {
            pending = Buffer.concat([pending, chunk]);
            const at = pending.indexOf(SNAPSHOT);
            if (at < 0) {
              pending = pending.subarray(Math.max(0, pending.length - SNAPSHOT.length));
              return;
            }
            inSnapshot = true;
            pending = pending.subarray(at + SNAPSHOT.length);
          } else pending = Buffer.concat([pending.subarray(Math.max(0, pending.length - 1)), chunk]);
          if (pending.indexOf(END) >= 0)
            settle({ status, snapshotMs: performance.now() - started, bytes, chunks });
          else pending = pending.subarray(Math.max(0, pending.length - 1));
        });
        response.on('error', () => {});
        response.on('close', () => settle({ status, snapshotMs: Number.NaN, bytes, chunks }));
      },
    );
    request.on('error', () => settle({ status: 0, snapshotMs: Number.NaN, bytes: 0, chunks: 0 }));
    setTimeout(
      () => settle({ status: -1, snapshotMs: Number.NaN, bytes: 0, chunks: 0 }),
      message.timeoutMs,
    ).unref();
    requests.push(request);
  });
}

process.on('message', async (message: OpenMessage | { type: 'close' }) => {
  if (message.type === 'open') {
    const outcomes = await Promise.all(
      Array.from({ length: message.count }, (_, i) => open(message, message.first + i)),
    );
    process.send!({ type: 'opened', outcomes });
  } else if (message.type === 'close') {
    for (const request of requests) request.destroy();
    process.exit(0);
  }
});
