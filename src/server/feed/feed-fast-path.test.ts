import { once } from 'node:events';
import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OddsSource } from '#engine/sources/index.ts';
import { fixedBoard } from '#tests/support/server/app.ts';
import { testConfig } from '#tests/support/server/config.ts';
import { buildApp } from '../app.ts';
import { feedFastPathOf, type FeedFastPath } from './feed-fast-path.ts';

// The fast path (decision 136) against the Fastify route it stands in front of, on the app users run: every request
// of a matrix is sent over a socket (where the fast path sits) and with `inject()` (always the route), and the
// status, every header line (name, value, order; Date, Connection and Keep-Alive are Node's) and the body must agree.

interface Answer {
  status: number;
  /** [name, value] pairs in the order sent, without the lines Node writes itself. */
  headers: [string, string][];
  body: Buffer;
}

const NODE_OWN = new Set(['date', 'connection', 'keep-alive']);

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (!NODE_OWN.has(raw[i]!.toLowerCase())) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

interface Running {
  app: FastifyInstance;
  fast: FeedFastPath;
  port: number;
  agent: Agent;
}

async function start(env: Record<string, string> = {}, source: OddsSource = fixedBoard, log?: string[]) {
  const app = await buildApp({
    config: testConfig(env),
    log: log ? { write: (line: string) => log.push(line) } : false,
    source,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const fast = feedFastPathOf(app.server);
  if (!fast) throw new Error('the fast path is not installed');
  // One keep-alive socket, as a polling client keeps.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return { app, fast, port: (app.server.address() as { port: number }).port, agent } satisfies Running;
}

async function stop(running: Running | undefined) {
  running?.agent.destroy();
  await running?.app.close();
}

function overSocket(
  { port, agent }: Running,
  method: string,
  url: string,
  headers: OutgoingHttpHeaders,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: url, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: pairs(res.rawHeaders), body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** What the Fastify route answers, lower-cased names (inject's headers are an object). */
async function viaFastify(
  { app }: Running,
  method: 'GET' | 'HEAD' | 'POST' | 'OPTIONS',
  url: string,
  headers: Record<string, string>,
) {
  const response = await app.inject({ method, url, headers });
  const sent = Object.entries(response.headers)
    .filter(([name]) => !NODE_OWN.has(name))
    .map(([name, value]) => [name, String(value)]);
  return { status: response.statusCode, headers: Object.fromEntries(sent), body: response.rawPayload };
}

function lowerCased(answer: Answer) {
  return Object.fromEntries(answer.headers.map(([name, value]) => [name.toLowerCase(), value]));
}

/** The matrix: encodings × validators × origins × query strings (sent as GET). */
function matrix(etag: string) {
  const encodings = [
    undefined,
    'gzip',
    'br',
    'identity',
    'gzip, deflate, br',
    'br;q=0, gzip',
    'gzip;q=0',
    '*',
    'deflate',
  ];
  const validators = [
    undefined,
    etag,
    `W/${etag}`,
    `"nope", ${etag}`,
    '*',
    '"nope"',
    etag.slice(0, -2) + '"',
  ];
  const origins = [undefined, 'https://example.test', 'https://partner.example', 'https://evil.example'];
  const urls = ['/tools/arbs.json', '/tools/arbs.json?t=1763770000000', '/tools/arbs.json?t=1&x=y'];
  const requests: { url: string; headers: Record<string, string> }[] = [];
  let i = 0;
  for (const encoding of encodings)
    for (const validator of validators)
      for (const origin of origins) {
        const headers: Record<string, string> = {};
        if (encoding !== undefined) headers['accept-encoding'] = encoding;
        if (validator !== undefined) headers['if-none-match'] = validator;
        if (origin !== undefined) headers.origin = origin;
        requests.push({ url: urls[i++ % urls.length]!, headers });
      }
  return requests;
}

/** Sends a request twice over the socket and once to the route; all three must be the same answer. */
async function expectSameAnswers(running: Running, url: string, headers: Record<string, string>) {
  const first = await overSocket(running, 'GET', url, headers);
  const before = running.fast.stats.fast;
  const second = await overSocket(running, 'GET', url, headers);
  expect(running.fast.stats.fast, `${url} ${JSON.stringify(headers)} answered by the fast path`).toBe(
    before + 1,
  );
  const route = await viaFastify(running, 'GET', url, headers);
  const label = `${url} ${JSON.stringify(headers)}`;
  expect(second, label).toEqual(first);
  expect(second.status, label).toBe(route.status);
  expect(lowerCased(second), label).toEqual(route.headers);
  expect(second.body.equals(route.body), label).toBe(true);
  return second;
}

describe('the feed fast path (site origin + CORS_ORIGINS)', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start({ CORS_ORIGINS: 'https://partner.example' });
  });
  afterAll(() => stop(running));

  it('answers every GET of the matrix exactly as the route does', async () => {
    const etag = running.app.engine.latest!.encoded.etag;
    const statuses = new Set<number>();
    for (const { url, headers } of matrix(etag)) {
      statuses.add((await expectSameAnswers(running, url, headers)).status);
    }
    expect([...statuses].sort()).toEqual([200, 304]);
    // One learned answer per case (200 × br/gzip/identity, 304) × origin case (none or refused, site, partner).
    expect(running.fast.stats.learned).toBe(12);
  });

  it('leaves HEAD, other methods and other paths to Fastify, which answers as before', async () => {
    const cases: ['GET' | 'HEAD' | 'POST' | 'OPTIONS', string][] = [
      ['HEAD', '/tools/arbs.json'],
      ['HEAD', '/tools/arbs.json?t=1'],
      ['POST', '/tools/arbs.json'],
      ['OPTIONS', '/tools/arbs.json'],
      ['GET', '/tools/arbs.json/'],
      ['GET', '/tools/arbs%2Ejson'],
      ['GET', '/tools/ARBS.json'],
      ['GET', '//tools/arbs.json'],
    ];
    for (const [method, url] of cases) {
      const headers = { 'accept-encoding': 'gzip', origin: 'https://example.test' };
      const fast = running.fast.stats.fast;
      const socket = await overSocket(running, method, url, headers);
      expect(running.fast.stats.fast, `${method} ${url}`).toBe(fast);
      const route = await viaFastify(running, method, url, headers);
      expect(socket.status, `${method} ${url}`).toBe(route.status);
      expect(lowerCased(socket), `${method} ${url}`).toEqual(route.headers);
      if (method !== 'HEAD') expect(socket.body.equals(route.body), `${method} ${url}`).toBe(true);
    }
  });

  it('reads header lines in any case, and repeated ones joined as Node joins them for the route', async () => {
    const etag = running.app.engine.latest!.encoded.etag;
    // What is sent over the socket, and the same headers as the route sees them in `request.headers`.
    const cases: [OutgoingHttpHeaders, Record<string, string>][] = [
      [{ 'ACCEPT-ENCODING': 'gzip' }, { 'accept-encoding': 'gzip' }],
      [{ 'Accept-Encoding': ['br;q=0', 'gzip'] }, { 'accept-encoding': 'br;q=0, gzip' }],
      [{ 'accept-encoding': ['gzip;q=0', 'br'] }, { 'accept-encoding': 'gzip;q=0, br' }],
      [{ 'accept-encoding': ['gzip', 'br;q=0'] }, { 'accept-encoding': 'gzip, br;q=0' }],
      [
        { 'accept-encoding': 'gzip', 'If-None-Match': [etag, '"nope"'] },
        { 'accept-encoding': 'gzip', 'if-none-match': `${etag}, "nope"` },
      ],
      [
        { 'accept-encoding': 'gzip', ORIGIN: 'https://partner.example' },
        { 'accept-encoding': 'gzip', origin: 'https://partner.example' },
      ],
      [
        { 'accept-encoding': 'gzip', Origin: ['https://partner.example', 'https://example.test'] },
        { 'accept-encoding': 'gzip', origin: 'https://partner.example, https://example.test' },
      ],
    ];
    // The site's own origin learned first: a repeated Origin line must not be taken for its last value.
    for (let i = 0; i < 2; i += 1)
      await overSocket(running, 'GET', '/tools/arbs.json', {
        'accept-encoding': 'gzip',
        origin: 'https://example.test',
      });
    for (const [sent, seen] of cases) {
      const label = JSON.stringify(sent);
      const first = await overSocket(running, 'GET', '/tools/arbs.json?t=7', sent);
      const fast = running.fast.stats.fast;
      const second = await overSocket(running, 'GET', '/tools/arbs.json?t=7', sent);
      expect(running.fast.stats.fast, `${label} answered by the fast path`).toBe(fast + 1);
      const route = await viaFastify(running, 'GET', '/tools/arbs.json?t=7', seen);
      expect(second, label).toEqual(first);
      expect(second.status, label).toBe(route.status);
      expect(lowerCased(second), label).toEqual(route.headers);
      expect(second.body.equals(route.body), label).toBe(true);
    }
  });

  it('leaves a GET that announces a body to Fastify, whatever the case of its header line', async () => {
    const cases: OutgoingHttpHeaders[] = [
      { 'accept-encoding': 'gzip', 'Content-Length': '0' },
      { 'accept-encoding': 'gzip', 'CONTENT-LENGTH': '0' },
      { 'accept-encoding': 'gzip', 'Transfer-Encoding': 'chunked' },
    ];
    for (const headers of cases) {
      const fast = running.fast.stats.fast;
      const passed = running.fast.stats.passed;
      for (let i = 0; i < 2; i += 1) {
        const answer = await overSocket(running, 'GET', '/tools/arbs.json', headers);
        expect(answer.status, JSON.stringify(headers)).toBe(200);
      }
      expect(running.fast.stats.fast, JSON.stringify(headers)).toBe(fast);
      // Straight to Fastify's handler: not even counted as a request of the feed's shape.
      expect(running.fast.stats.passed, JSON.stringify(headers)).toBe(passed);
    }
  });

  it('runs no hook on the feed route but helmet’s: a new one must be weighed against the fast path', () => {
    const lines = running.app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
    const at = lines.findIndex((line) => line.endsWith('tools/arbs.json (GET)'));
    expect(at).toBeGreaterThan(-1);
    const hooks: string[] = [];
    for (const line of lines.slice(at + 1)) {
      if (!line.includes('• (')) break;
      hooks.push(line.slice(line.indexOf('• (')));
    }
    // If this fails, a hook now runs for the feed that the fast path skips (feed-fast-path.ts, decision 136).
    expect(hooks).toEqual(['• (onRequest) ["helmetConfigureReply()","helmetApplyHeaders()"]']);
  });

  it('replays only what the route answers the same to every request of a case', async () => {
    const headers = { 'accept-encoding': 'gzip', origin: 'https://example.test' };
    const one = await viaFastify(running, 'GET', '/tools/arbs.json', headers);
    const two = await viaFastify(running, 'GET', '/tools/arbs.json?t=2', headers);
    expect(two).toEqual(one);
  });

  it('waits for the form a request takes while it is still being made, then answers with it', async () => {
    const entry = running.app.engine.latest!.encoded;
    const { gzip, br, compress } = entry;
    delete entry.gzip;
    delete entry.br;
    let finish!: () => void;
    const made = new Promise<void>((resolve) => {
      finish = () => {
        entry.gzip = gzip;
        entry.br = br;
        resolve();
      };
    });
    // The snapshot's forms as still being made (feedEncoder, decision 315): each reader asks for the one it takes.
    const asked: (string | null)[] = [];
    entry.compress = (coding) => {
      asked.push(coding);
      return coding && !entry[coding] ? made : undefined;
    };
    try {
      let answered = false;
      const pending = overSocket(running, 'GET', '/tools/arbs.json', { 'accept-encoding': 'gzip' }).then(
        (answer) => {
          answered = true;
          return answer;
        },
      );
      const routed = viaFastify(running, 'GET', '/tools/arbs.json', { 'accept-encoding': 'br' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBe(false);
      expect([...asked].sort()).toEqual(['br', 'gzip']);
      finish();
      const answer = await pending;
      expect(lowerCased(answer)['content-encoding']).toBe('gzip');
      expect(answer.body.equals(gzip!)).toBe(true);
      const route = await routed;
      expect(route.headers['content-encoding']).toBe('br');
      expect(route.body.equals(br!)).toBe(true);
    } finally {
      entry.compress = compress;
      entry.gzip = gzip;
      entry.br = br;
    }
  });
});

describe('the feed fast path with CORS_ORIGINS=*', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start({ CORS_ORIGINS: '*' });
  });
  afterAll(() => stop(running));

  it('answers every GET of the matrix exactly as the route does', async () => {
    const etag = running.app.engine.latest!.encoded.etag;
    for (const { url, headers } of matrix(etag)) await expectSameAnswers(running, url, headers);
    // 200 × br/gzip/identity, 304: one origin case.
    expect(running.fast.stats.learned).toBe(4);
  });
});

describe('the feed fast path before the first snapshot', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start({}, { name: 'replay', start() {}, stop() {} });
  });
  afterAll(() => stop(running));

  it('leaves the 503 to the route', async () => {
    for (const origin of [undefined, 'https://example.test']) {
      const headers: Record<string, string> = { 'accept-encoding': 'gzip' };
      if (origin) headers.origin = origin;
      const socket = await overSocket(running, 'GET', '/tools/arbs.json?t=1', headers);
      const route = await viaFastify(running, 'GET', '/tools/arbs.json?t=1', headers);
      expect(socket.status).toBe(503);
      expect(socket.status).toBe(route.status);
      expect(lowerCased(socket)).toEqual(route.headers);
      expect(socket.body.equals(route.body)).toBe(true);
    }
    expect(running.fast.stats.fast).toBe(0);
    expect(running.fast.stats.passed).toBe(2);
  });
});

describe('the feed fast path’s request log', () => {
  const lines: string[] = [];
  let running: Running;
  beforeAll(async () => {
    running = await start({ LOG_LEVEL: 'info' }, fixedBoard, lines);
  });
  afterAll(() => stop(running));

  it('writes the lines Fastify writes for the route', async () => {
    const requestLines = () =>
      lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'incoming request' || line.msg === 'request completed');
    const cases = [
      ['/tools/arbs.json?t=1', 'gzip'],
      ['/tools/arbs.json?t=2&key=secret', 'br'],
    ] as const;
    for (const [url, encoding] of cases) {
      lines.length = 0;
      await overSocket(running, 'GET', url, { 'accept-encoding': encoding }); // the route
      await overSocket(running, 'GET', url, { 'accept-encoding': encoding }); // the fast path
      const [routeIn, routeDone, fastIn, fastDone] = requestLines();
      expect(requestLines()).toHaveLength(4);
      expect(routeIn!.reqId).toBe(routeDone!.reqId);
      expect(fastIn!.reqId).toBe(fastDone!.reqId);
      expect(fastIn!.reqId).not.toBe(routeIn!.reqId);
      expect(typeof fastDone!.responseTime).toBe('number');
      const same = ({ time, reqId, responseTime, ...rest }: Record<string, unknown>) => {
        void [time, reqId, responseTime];
        return rest;
      };
      expect(same(fastIn!)).toEqual(same(routeIn!));
      expect(same(fastDone!)).toEqual(same(routeDone!));
    }
    expect(running.fast.stats.fast).toBe(2);
    expect(running.fast.stats.learned).toBe(2);
  });
});

describe('the feed fast path while the app closes', () => {
  // Decision 268: the fast path learns that `close()` began from Fastify's `preClose` hook (a supported API), not from
  // Fastify's private state. A request Node still hands over then (pipelined behind one in flight) goes to Fastify,
  // which answers 503 with `Connection: close`.
  it('hands a request of a learned case to Fastify once close() began, and Fastify answers 503', async () => {
    const running = await start();
    const socket = connect(running.port, '127.0.0.1');
    try {
      await once(socket, 'connect');
      for (let i = 0; i < 2; i += 1) await overSocket(running, 'GET', '/tools/arbs.json', {});
      expect(running.fast.stats.fast).toBe(1);
      running.agent.destroy();
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (received += chunk));
      // A request in flight (its body not all sent) keeps the server from closing; Node answers its
      // `Expect: 100-continue` once it holds the request, so close() starts only then.
      socket.write(
        'POST /api/trial-requests HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          'Content-Length: 2\r\nExpect: 100-continue\r\n\r\n{',
      );
      while (!received.includes('100 Continue')) await once(socket, 'data');
      expect(running.fast.closing).toBe(false);
      const closed = running.app.close();
      while (!running.fast.closing) await new Promise((resolve) => setImmediate(resolve));
      socket.write('}GET /tools/arbs.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      // 100 Continue, the POST's answer (its body is no trial request), then the feed's: Fastify's own 503.
      const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
      while (statuses().length < 3) await once(socket, 'data');
      expect(statuses()).toEqual([100, 400, 503]);
      socket.destroy();
      await closed;
      expect(running.fast.stats.fast).toBe(1);
    } finally {
      socket.destroy();
      await running.app.close();
    }
  });
});
