import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The floor under any stream fan-out in Node on this machine: a bare `http` server (no framework, no rendering, no
// filters) writing one ~600-byte SSE chunk to each of N open responses, timed until Node has flushed them all to
// the kernel (the end of the turn: chunked responses are corked and written by one writev each on the next tick).
// The clients read in a child process, as the stream bench's do. Median of `rounds`.

const CLIENT = `
const http = require('node:http');
const [port, count] = process.argv.slice(1).map(Number);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
for (let i = 0; i < count; i += 1) http.get({ host: '127.0.0.1', port, path: '/', agent }, (res) => res.on('data', () => {}));
`;

export interface WriteFloor {
  clients: number;
  /** Median time to write one chunk to every client and flush it (ms). */
  medianMs: number;
  /** The same per client (µs): what one more stream costs each release. */
  perClientUs: number;
}

export async function measureWriteFloor(clients: number, rounds = 15): Promise<WriteFloor> {
  const responses: http.ServerResponse[] = [];
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write('retry: 2000\n\n');
    responses.push(response);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const child = spawn(process.execPath, ['-e', CLIENT, String(port), String(clients)], { stdio: 'inherit' });
  try {
    const deadline = Date.now() + 120_000;
    while (responses.length < clients) {
      if (Date.now() > deadline) throw new Error(`write floor: ${responses.length} of ${clients} connected`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const chunk = Buffer.from(`id: 1\nevent: price\ndata: ${'x'.repeat(600)}\n\n`);
    const times: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const started = performance.now();
      for (const response of responses) response.write(chunk);
      await new Promise((resolve) => setImmediate(resolve));
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    return {
      clients,
      medianMs: Number(median.toFixed(1)),
      perClientUs: Number(((median * 1000) / clients).toFixed(2)),
    };
  } finally {
    child.kill();
    for (const response of responses) response.destroy();
    server.close();
  }
}
