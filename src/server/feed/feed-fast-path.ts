import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { etagMatches, negotiateEncoding, whenCompressed, type StaticEntry } from '../http/static-files.ts';

// GET /tools/arbs.json answered on Node's 'request' event, before Fastify builds its request and reply, routes, runs
// the hooks (helmet's headers are rebuilt on every request) and writes (docs/decisions/136). What is sent is what the
// Fastify route sent: the first request of each case (snapshot × 200/304 × encoding × origin) goes through Fastify
// as before, and the status and header lines it wrote are kept and replayed, with the snapshot's precomputed bytes,
// for the same case until the next snapshot. Anything else (other paths, methods, a request with a body, no snapshot
// yet, the server closing) goes to Fastify untouched.

export const FEED_PATH = '/tools/arbs.json';
const FEED_PATH_QUERY = `${FEED_PATH}?`;
/** Header lines Node writes itself from the request and the clock; they are left to Node on every answer. */
const NODE_OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Answer {
  status: number;
  /** Flat [name, value, name, value, …] as Fastify wrote them, for `res.writeHead(status, headers)`. */
  headers: string[];
  body: Buffer | undefined;
}

export interface FeedFastPathOptions {
  /** Whether the request's `Origin` may read the feed: the route's own rule (arbs-feed.ts). */
  originCase(origin: string | undefined): string;
}

export interface FeedFastPath {
  /** Answers served here, and requests of the feed's shape sent to Fastify (first of a case, or not answerable). */
  readonly stats: { fast: number; learned: number; passed: number };
  /** Whether the app's `close()` has begun: every request then goes to Fastify. */
  readonly closing: boolean;
}

const installed = new WeakMap<Server, FeedFastPath>();

/** The fast path on this server, if installed (its counters, for tests and benches). */
export function feedFastPathOf(server: Server): FeedFastPath | undefined {
  return installed.get(server);
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type WithGenReqId = FastifyInstance & { genReqId?: (req: IncomingMessage) => string };

/** The status and header lines of an answer Node wrote, minus those Node adds per response. */
function writtenAnswer(res: ServerResponse): { status: number; headers: string[] } | undefined {
  const head = (res as ServerResponse & { _header?: unknown })._header;
  if (typeof head !== 'string') return undefined;
  const lines = head.split('\r\n');
  const headers: string[] = [];
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon);
    if (NODE_OWN_HEADERS.has(name.toLowerCase())) continue;
    headers.push(name, line.slice(colon + 1).trim());
  }
  return { status: res.statusCode, headers };
}

function header(headers: string[], name: string): string | undefined {
  for (let i = 0; i < headers.length; i += 2) if (headers[i]!.toLowerCase() === name) return headers[i + 1];
  return undefined;
}

/**
 * Puts the fast path in front of Fastify's handler on the app's HTTP server. Requests made with `app.inject()` never
 * reach it (they call Fastify's handler directly), so they show what the Fastify route answers.
 */
export function installFeedFastPath(
  app: FastifyInstance,
  options: FeedFastPathOptions,
): FeedFastPath | undefined {
  const server = app.server as Server;
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1)
    throw new Error('feed fast path: expected Fastify to be the only request listener');
  const fastify = listeners[0]!;
  // Closing (decision 268): Fastify's `preClose` hooks run once `close()` has flagged the server closing, while it still
  // listens; from then on every request goes to Fastify, which answers 503 with `Connection: close` itself.
  let closingStarted = false;
  app.addHook('preClose', (done) => {
    closingStarted = true;
    done();
  });
  const closing = () => closingStarted;
  const genReqId = (app as WithGenReqId).genReqId?.bind(app);
  // Fastify's per-request log lines, unless disabled (a function deciding per request: the fast path stays out).
  const logDisabled = app.initialConfig.disableRequestLogging;
  if (typeof logDisabled === 'function') return undefined;
  const log = app.log as FastifyInstance['log'] & { isLevelEnabled?(level: string): boolean };
  const stats = { fast: 0, learned: 0, passed: 0 };
  /** `ready` promises known to have settled (so a request does not wait a turn for one that already has). */
  const settled = new WeakSet<Promise<void>>();
  let current: StaticEntry | undefined;
  let answers = new Map<string, Answer>();

  function pass(req: IncomingMessage, res: ServerResponse) {
    stats.passed += 1;
    fastify(req, res);
  }

  function answersFor(entry: StaticEntry): Map<string, Answer> {
    if (entry !== current) {
      current = entry;
      answers = new Map();
    }
    return answers;
  }

  /** Per-request log lines as Fastify writes them for a route (incoming request, request completed). */
  function logged(req: IncomingMessage, res: ServerResponse) {
    if (logDisabled === true || !genReqId || !log.isLevelEnabled?.('info')) return;
    const start = performance.now();
    const child = log.child({ reqId: genReqId(req) });
    child.info({ req }, 'incoming request');
    res.once('finish', () => {
      child.info({ res, responseTime: performance.now() - start }, 'request completed');
    });
  }

  function answer(req: IncomingMessage, res: ServerResponse, entry: StaticEntry) {
    if (closing() || app.engine.latest?.encoded !== entry) return pass(req, res);
    const notModified = etagMatches(req.headers['if-none-match'], entry.etag);
    const encoding = notModified ? null : negotiateEncoding(req.headers['accept-encoding'], entry);
    const body = notModified ? undefined : encoding ? entry[encoding]! : entry.body;
    const key = `${notModified ? 304 : 200} ${encoding ?? ''} ${options.originCase(req.headers.origin)}`;
    const known = answersFor(entry).get(key);
    if (known) {
      stats.fast += 1;
      logged(req, res);
      res.writeHead(known.status, known.headers);
      res.end(known.body);
      return;
    }
    // The first request of this case: Fastify answers it, and what it wrote is kept if it is this case's answer.
    res.once('finish', () => {
      const written = writtenAnswer(res);
      if (!written || current !== entry || answers.has(key)) return;
      const expected = {
        status: notModified ? 304 : 200,
        etag: entry.etag,
        encoding: encoding ?? undefined,
        length: body ? String(body.length) : undefined,
      };
      if (
        written.status !== expected.status ||
        header(written.headers, 'etag') !== expected.etag ||
        header(written.headers, 'content-encoding') !== expected.encoding ||
        header(written.headers, 'content-length') !== expected.length
      ) {
        return;
      }
      stats.learned += 1;
      answers.set(key, { ...written, body });
    });
    pass(req, res);
  }

  function onRequest(req: IncomingMessage, res: ServerResponse) {
    const url = req.url;
    if (
      req.method !== 'GET' ||
      (url !== FEED_PATH && !url?.startsWith(FEED_PATH_QUERY)) ||
      req.headers['content-length'] !== undefined ||
      req.headers['transfer-encoding'] !== undefined
    ) {
      return fastify(req, res);
    }
    const entry = app.engine?.latest?.encoded;
    if (!entry || closing()) return pass(req, res);
    // The form this request will be sent may still be being made, or not started (whenCompressed): wait for it
    // before choosing the encoding.
    const ready = whenCompressed(entry, req.headers['accept-encoding']);
    if (ready && !settled.has(ready)) {
      const done = () => {
        settled.add(ready);
        safely(req, res, entry);
      };
      ready.then(done, done);
      return;
    }
    safely(req, res, entry);
  }

  /** An error here must not become an uncaught exception: Fastify answers instead, or the socket is closed. */
  function safely(req: IncomingMessage, res: ServerResponse, entry: StaticEntry) {
    try {
      answer(req, res, entry);
    } catch (error) {
      log.error({ err: error }, 'feed fast path failed');
      if (!res.headersSent) pass(req, res);
      else res.destroy();
    }
  }

  server.removeListener('request', fastify);
  server.on('request', onRequest);
  const fastPath: FeedFastPath = {
    stats,
    get closing() {
      return closing();
    },
  };
  installed.set(server, fastPath);
  return fastPath;
}
