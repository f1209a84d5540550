// One process of bench/stream-open.bench.ts: opens `count` streams at once (no keep-alive agent, every request sent
// in the same tick), reads each answer in full, and records per stream the time from the request to the end of its
// `snapshot` event. Protocol over IPC: parent sends {type:'open', …}; child answers {type:'opened', …} once every
// stream has its snapshot or failed; parent sends 'close' at the end. Or {type:'reopen', …}: `loops` loops per key
// open a stream, read its snapshot, close it and start again (after `pauseMs` when refused) for `seconds`; the child
// answers {type:'reopened', statuses, snapshots}.
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

interface ReopenMessage {
  type: 'reopen';
  origin: string;
  keys: string[];
  query: string;
  loops: number;
  seconds: number;
  pauseMs: number;
  timeoutMs: number;
}

function open(
  message: Pick<OpenMessage, 'origin' | 'keys' | 'query' | 'timeoutMs'>,
  index: number,
  closeAfter = false,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      if (closeAfter) request.destroy();
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
        // Until the snapshot's header is seen, the tail kept to find it across chunks; then whether the previous
        // chunk ended in a newline (its end, `\n\n`, may straddle two chunks). Nothing is copied once inside it.
        let pending = Buffer.alloc(0);
        let inSnapshot = false;
        let endedInNewline = false;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          chunks += 1;
          if (settled) return;
          let body = chunk;
          if (!inSnapshot) {
            pending = Buffer.concat([pending, chunk]);
            const at = pending.indexOf(SNAPSHOT);
            if (at < 0) {
              pending = pending.subarray(Math.max(0, pending.length - SNAPSHOT.length));
              return;
            }
            inSnapshot = true;
            body = pending.subarray(at + SNAPSHOT.length);
            pending = Buffer.alloc(0);
          }
          if ((endedInNewline && body[0] === 0x0a) || body.indexOf(END) >= 0)
            settle({ status, snapshotMs: performance.now() - started, bytes, chunks });
          endedInNewline = body.length > 0 && body[body.length - 1] === 0x0a;
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
    if (!closeAfter) requests.push(request);
  });
}

async function reopen(message: ReopenMessage) {
  const statuses: Record<string, number> = {};
  let snapshots = 0;
  const until = performance.now() + message.seconds * 1000;
  const loop = async (index: number) => {
    while (performance.now() < until) {
      const outcome = await open(message, index, true);
      statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
      if (Number.isFinite(outcome.snapshotMs)) snapshots += 1;
      else await new Promise((resolve) => setTimeout(resolve, message.pauseMs));
    }
  };
  await Promise.all(Array.from({ length: message.keys.length * message.loops }, (_, index) => loop(index)));
  process.send!({ type: 'reopened', statuses, snapshots });
}

process.on('message', async (message: OpenMessage | ReopenMessage | { type: 'close' }) => {
  if (message.type === 'reopen') await reopen(message);
  else if (message.type === 'open') {
    const outcomes = await Promise.all(
      Array.from({ length: message.count }, (_, i) => open(message, message.first + i)),
    );
    process.send!({ type: 'opened', outcomes });
  } else if (message.type === 'close') {
    for (const request of requests) request.destroy();
    process.exit(0);
  }
});
