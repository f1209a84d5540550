import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { waitFor } from '#tests/support/server/trials.ts';
import { CLIENT_TYPES_FILE, clientTypes } from '../scripts/client-types.ts';
import {
  createClient,
  parseEventStream,
  queryString,
  SharplineError,
  type StreamEvent,
} from './typescript/src/client.ts';

// Both clients in the repository (issue 58) against a running server: the tests' usual app listening on loopback,
// fed prices by the test while the clients read. The stream goes through a proxy that drops a stream connection, so
// that each client's resumption with Last-Event-ID is what the test sees. The Python client's own unittest file runs
// here (python3, standard library only), so CI runs it with the rest.

const here = path.dirname(fileURLToPath(import.meta.url));
let app: FastifyInstance;
let base: string;
let key: string;
let starterKey: string;
let producer: NodeJS.Timeout;

/**
 * A loopback proxy to the server that keeps each connection's request head, and drops stream connections: every one
 * `dropStreams()` is called for, and (with `dropFirstStreamAfterMs`) the first one it carries after that long.
 */
class DroppingProxy {
  readonly heads: string[] = [];
  private readonly streams = new Set<net.Socket>();
  private server: net.Server | undefined;
  private droppedFirst = false;
  port = 0;

  constructor(
    private readonly target: number,
    private readonly dropFirstStreamAfterMs?: number,
  ) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close);
      upstream.on('error', close);
      client.on('close', close);
      upstream.on('close', close);
      client.once('data', (chunk: Buffer) => {
        const head = chunk.toString('latin1');
        this.heads.push(head);
        if (head.startsWith('GET /v1/stream')) {
          this.streams.add(client);
          client.on('close', () => this.streams.delete(client));
          if (this.dropFirstStreamAfterMs !== undefined && !this.droppedFirst) {
            this.droppedFirst = true;
            setTimeout(close, this.dropFirstStreamAfterMs);
          }
        }
      });
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as net.AddressInfo).port;
  }

  dropStreams(): void {
    for (const socket of this.streams) socket.destroy();
  }

  streamHeads(): string[] {
    return this.heads.filter((head) => head.startsWith('GET /v1/stream'));
  }

  async stop(): Promise<void> {
    this.dropStreams();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

let tick = 0;
function pushPrice(): void {
  tick += 1;
  const american = 100 + (tick % 200);
  app.engine.ingest({
    kind: 'price',
    sourceEventId: 'clients-ev',
    book: ['fanduel', 'draftkings', 'betmgm'][tick % 3],
    market: 'moneyline',
    outcome: tick % 2 ? 'home' : 'away',
    american: tick % 4 < 2 ? american : -american - 1,
  });
}

beforeAll(async () => {
  app = await buildTestApp({ stream: { heartbeatMs: 200 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
  app.engine.ingest({
    kind: 'event',
    sourceEventId: 'clients-ev',
    league: 'nba',
    home: { name: 'Boston Celtics', abbreviation: 'BOS' },
    away: { name: 'New York Knicks', abbreviation: 'NYK' },
    startsAt: Date.now() + 3_600_000,
  });
  for (let index = 0; index < 6; index += 1) pushPrice();
  key = await createKey(app, 'enterprise');
  starterKey = await createKey(app, 'starter');
  // Prices keep changing while the clients read the stream.
  producer = setInterval(pushPrice, 25);
});

afterAll(async () => {
  clearInterval(producer);
  await app.close();
});

describe('the TypeScript client (clients/typescript)', () => {
  it('has types that are what openapi-typescript makes of the served document (npm run clients:types)', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const current = readFileSync(CLIENT_TYPES_FILE, 'utf8') === (await clientTypes(doc));
    expect(
      current,
      'clients/typescript/src/schema.ts is not current: run `npm run clients:types`, commit it',
    ).toBe(true);
  });

  it('parses server-sent events split anywhere (CRLF across chunks, comments, multi-line data, retry)', async () => {
    const text =
      ': hi\r\nretry: 1500\r\n\r\nid: a-1\r\nevent: price\r\ndata: {"a":\r\ndata: 1}\r\n\r\nid: a-2\ndata: x\n\n';
    const bytes = new TextEncoder().encode(text);
    // Every split of the bytes into two chunks gives the same events.
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut));
          controller.enqueue(bytes.slice(cut));
          controller.close();
        },
      });
      const retries: number[] = [];
      const events = [];
      for await (const event of parseEventStream(body, (ms) => retries.push(ms))) events.push(event);
      expect(retries, `cut ${cut}`).toEqual([1500]);
      expect(events, `cut ${cut}`).toEqual([
        { event: 'price', id: 'a-1', data: '{"a":\n1}' },
        { event: 'message', id: 'a-2', data: 'x' },
      ]);
    }
    expect(
      queryString({ league: 'nba', markets: ['moneyline', 'spread'], main: true, event: undefined }),
    ).toBe('?league=nba&markets=moneyline%2Cspread&main=true');
  });

  it('calls the API with typed answers, comma lists and the rate-limit headers', async () => {
    const client = createClient({ apiKey: key, baseUrl: base });
    const odds = await client.odds({ league: 'nba', markets: ['moneyline'], main: 'true' });
    expect(odds.events).toHaveLength(1);
    expect(odds.events[0]!.event.home.name).toBe('Boston Celtics');
    expect(new Set(odds.events[0]!.markets.map((market) => market.type))).toEqual(new Set(['moneyline']));
    expect(client.lastRateLimit).toMatchObject({ limit: 2000 });
    const events = await client.events({ league: 'nba' });
    expect((await client.event(events.events[0]!.id)).event.id).toBe(events.events[0]!.id);
    expect((await client.leagues()).leagues.map((league) => league.key)).toContain('nba');
    expect((await client.me()).plan.id).toBe('enterprise');
  });

  it('throws problem+json answers as SharplineError with their type, status and members', async () => {
    const client = createClient({ apiKey: key, baseUrl: base });
    const invalid = await client
      .odds({ league: 'nba', markets: ['nonsense' as 'moneyline'] })
      .catch((e) => e);
    expect(invalid).toBeInstanceOf(SharplineError);
    expect(invalid).toMatchObject({ status: 400, code: 'validation' });
    expect(Object.keys(invalid.problem.errors)).toContain('markets.0');
    const unknown = await createClient({ apiKey: `sl_live_${'0'.repeat(32)}`, baseUrl: base })
      .sports()
      .catch((e) => e);
    expect(unknown).toMatchObject({
      status: 401,
      code: 'api-key-unknown',
      type: 'https://sharpline.io/problems/api-key-unknown',
    });
    const starter = createClient({ apiKey: starterKey, baseUrl: base });
    const refused = await starter
      .clv({ bets: [{ event_id: 'x', market: 'moneyline', outcome: 'home', price: 150 }] })
      .catch((e) => e);
    expect(refused).toMatchObject({ status: 403, code: 'plan-feature' });
    expect(refused.problem.plans).toContain('enterprise');
    const offline = await createClient({ apiKey: key, baseUrl: 'http://127.0.0.1:1' })
      .sports()
      .catch((e) => e);
    expect(offline).toMatchObject({ status: 0, code: 'network' });
  });

  it('streams events and, after a dropped connection, resumes with Last-Event-ID: nothing twice, no new snapshot', async () => {
    const proxy = new DroppingProxy(Number(new URL(base).port));
    await proxy.start();
    try {
      const client = createClient({ apiKey: key, baseUrl: `http://127.0.0.1:${proxy.port}` });
      const resumedAfter: (string | undefined)[] = [];
      const seen: StreamEvent[] = [];
      let pricesBeforeDrop = 0;
      let pricesAfter = 0;
      for await (const event of client.stream(
        { league: 'nba', types: ['price'] },
        { reconnectDelayMs: 100, onReconnect: (id) => resumedAfter.push(id) },
      )) {
        seen.push(event);
        if (event.event !== 'price') continue;
        if (resumedAfter.length === 0 && ++pricesBeforeDrop === 3) proxy.dropStreams();
        if (resumedAfter.length > 0 && ++pricesAfter === 5) break;
      }
      expect(seen[0]!.event).toBe('snapshot');
      expect(seen.filter((event) => event.event === 'snapshot')).toHaveLength(1);
      expect(resumedAfter).toHaveLength(1);
      const lastBeforeDrop = seen[seen.length - 1 - pricesAfter]!.id;
      expect(resumedAfter[0]).toBe(lastBeforeDrop);
      const heads = proxy.streamHeads();
      expect(heads).toHaveLength(2);
      expect(heads[1]!.toLowerCase()).toContain(`last-event-id: ${lastBeforeDrop}`);
      expect(heads[0]!.toLowerCase()).not.toContain('last-event-id');
      const ids = seen.map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(seen[seen.length - 1]!.json<{ league: string }>().league).toBe('nba');
      // Leaving the loop closed the connection: the server has no stream open.
      await waitFor(() => app.streamHub.clientCount === 0, 'the stream to close');
    } finally {
      await proxy.stop();
    }
  });
});

describe('the clients on the server', () => {
  it('serves each client file as the repository holds it, and /docs shows both clients beside curl', async () => {
    for (const [url, file] of [
      ['/clients/sharpline.py', 'python/sharpline.py'],
      ['/clients/typescript/client.ts', 'typescript/src/client.ts'],
      ['/clients/typescript/schema.ts', 'typescript/src/schema.ts'],
    ] as const) {
      const response = await fetch(`${base}${url}`);
      expect(response.status, url).toBe(200);
      expect(await response.text(), url).toBe(readFileSync(path.join(here, file), 'utf8'));
    }
    const page = await (await fetch(`${base}/docs`)).text();
    const clients = page.slice(page.indexOf('<h2 id="clients">'), page.indexOf('<h2 id="glossary">'));
    for (const name of ['clients-curl', 'clients-ts', 'clients-python'])
      expect(clients).toContain(`data-snippet="${name}"`);
    expect(clients).toContain('client.stream(');
    expect(clients).toContain('sharpline.Client(');
  });
});

/** A /docs snippet's text as the page shows it, with this server's origin in its slot. */
function snippetOf(page: string, name: string): string {
  const start = page.indexOf(`data-snippet="${name}">`);
  const html = page.slice(start + `data-snippet="${name}">`.length, page.indexOf('</code>', start));
  return html
    .replace(/<span data-slot="origin">[^<]*<\/span>/g, base)
    .replace(/<[^>]+>/g, '')
    .replace(
      /&(lt|gt|quot|#39|amp);/g,
      (_, entity: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[entity]!,
    );
}

/** Runs a command until its output has a whole line starting with `until` (then stops it), or it ends, or 30 s pass. */
function runUntil(command: string, args: string[], env: Record<string, string>, until: string) {
  return new Promise<string>((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    let output = '';
    const stop = () => {
      clearTimeout(timer);
      child.kill();
    };
    const timer = setTimeout(stop, 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      // A whole line only: a pipe's chunk can end inside a line ("price " with its data still to come).
      if (
        output
          .split('\n')
          .slice(0, -1)
          .some((line) => line.startsWith(until))
      )
        stop();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', () => {
      clearTimeout(timer);
      resolve(output);
    });
  });
}

describe("/docs' client snippets", () => {
  it('run as shown: a first call, then stream events, with each client', async () => {
    const page = await (await fetch(`${base}/docs`)).text();
    const python = await runUntil(
      'python3',
      ['-c', snippetOf(page, 'clients-python')],
      { SHARPLINE_KEY: key, PYTHONPATH: path.join(here, 'python'), PYTHONDONTWRITEBYTECODE: '1' },
      'price ',
    );
    expect(python).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z 1 events RateLimit\(limit=2000/m);
    expect(python).toMatch(/^snapshot \{/m);
    expect(python).toMatch(/^price \{'event_id': /m);
    const dir = mkdtempSync(path.join(tmpdir(), 'clients-snippet-'));
    try {
      const file = path.join(dir, 'snippet.mts');
      writeFileSync(
        file,
        snippetOf(page, 'clients-ts').replace(
          "'./client.ts'",
          JSON.stringify(path.join(here, 'typescript/src/client.ts')),
        ),
      );
      const ts = await runUntil(
        process.execPath,
        ['--import', 'tsx', file],
        { SHARPLINE_KEY: key },
        'price ',
      );
      expect(ts).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z 1 events \{ limit: 2000/m);
      expect(ts).toMatch(/^snapshot \{/m);
      expect(ts).toMatch(/^price \{/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the Python client (clients/python)', () => {
  it('passes its unittest suite against this server, resuming a dropped stream with Last-Event-ID', async () => {
    const proxy = new DroppingProxy(Number(new URL(base).port), 600);
    await proxy.start();
    try {
      const result = await new Promise<{ code: number; output: string }>((resolve) => {
        execFile(
          'python3',
          ['-m', 'unittest', 'discover', '-v', '-s', path.join(here, 'python', 'tests')],
          {
            env: {
              ...process.env,
              SHARPLINE_BASE_URL: base,
              SHARPLINE_STREAM_URL: `http://127.0.0.1:${proxy.port}`,
              SHARPLINE_API_KEY: key,
              SHARPLINE_STARTER_KEY: starterKey,
              PYTHONDONTWRITEBYTECODE: '1',
            },
            timeout: 60_000,
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
        );
      });
      expect(result.output).toMatch(/Ran \d+ tests/);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/test_resumes_with_last_event_id_after_a_drop .*\.\.\. ok/);
      const heads = proxy.streamHeads();
      expect(heads).toHaveLength(2);
      expect(heads[1]!.toLowerCase()).toMatch(/last-event-id: [0-9a-z]+-\d+/);
    } finally {
      await proxy.stop();
    }
  });
});
