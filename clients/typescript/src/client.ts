// The Sharpline odds API from TypeScript: typed calls (types generated from /openapi.json into schema.ts), errors
// typed from the API's problem+json, and a stream that parses server-sent events and resumes with Last-Event-ID.
// Runs wherever `fetch` does (Node 18+, Deno, Bun, browsers); no dependencies.

import type { components, operations } from './schema.ts';

export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];

type QueryOf<Op extends keyof operations> = operations[Op]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;
type BodyOf<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;
/** The JSON of an operation's 200 answer. */
export type AnswerOf<Op extends keyof operations> = operations[Op]['responses'] extends {
  200: { content: { 'application/json': infer A } };
}
  ? A
  : never;

const PROBLEM_TYPE_BASE = 'https://sharpline.io/problems/';

/** An error answer of the API (RFC 9457 problem+json), or a transport failure (`status` 0, `code` `network`). */
export class SharplineError extends Error {
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** The problem's `type` URI: switch on it (or on `code`). */
  readonly type: string;
  /** The last part of `type`: `rate-limited`, `api-key-unknown`, `plan-feature`… */
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  /** The whole problem, extension members included (`errors`, `plans`, `retry_after_seconds`…). */
  readonly problem: Problem & Record<string, unknown>;
  /** Seconds from `Retry-After` (429, 503), when the answer gave it. */
  readonly retryAfter: number | undefined;

  constructor(status: number, problem: Problem & Record<string, unknown>, retryAfter?: number) {
    super(`${status} ${problem.title}${problem.detail ? `: ${problem.detail}` : ''}`);
    this.name = 'SharplineError';
    this.status = status;
    this.type = problem.type;
    this.code = problem.type.startsWith(PROBLEM_TYPE_BASE)
      ? problem.type.slice(PROBLEM_TYPE_BASE.length)
      : problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

/** The rate-limit headers every authenticated answer carries. */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

export interface ClientOptions {
  apiKey: string;
  /** Default `https://sharpline.io`. */
  baseUrl?: string;
  /** Another fetch (a proxy agent, a test double); default the global one. */
  fetch?: typeof fetch;
  /** Per-request timeout of the REST calls, in ms (default 30 s). The stream has none. */
  timeoutMs?: number;
}

/** One server-sent event of /v1/stream. */
export interface StreamEvent {
  /** `snapshot`, `price`, `arb`, `arb_removed`, `ev`, `ev_removed`, `middle`, `middle_removed`, `close`. */
  event: string;
  /** The event's id: the stream resumes after it. */
  id: string | undefined;
  /** The raw `data`. */
  data: string;
  /** `data` parsed as JSON. */
  json<T = unknown>(): T;
}

export interface StreamOptions {
  /** Stops the stream (the iterator ends). */
  signal?: AbortSignal;
  /** Resume after this event id (what an earlier stream's last event had). */
  lastEventId?: string;
  /** Wait before reconnecting when the server gave no `retry:` (ms, default 1000). */
  reconnectDelayMs?: number;
  /** Give up after this many reconnections in a row without an event (default 10). */
  maxReconnects?: number;
  /** Called before each reconnection, with the id it resumes after. */
  onReconnect?: (lastEventId: string | undefined) => void;
}

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;

/** Query parameters as the API reads them: lists comma-separated, booleans `true`/`false`, empty ones left out. */
export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function numberHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** The rate-limit headers of an answer, if it has them. */
export function rateLimitOf(headers: Headers): RateLimit | undefined {
  const limit = numberHeader(headers, 'x-ratelimit-limit');
  const remaining = numberHeader(headers, 'x-ratelimit-remaining');
  const resetSeconds = numberHeader(headers, 'x-ratelimit-reset');
  if (limit === undefined || remaining === undefined || resetSeconds === undefined) return undefined;
  return { limit, remaining, resetSeconds };
}

async function errorOf(response: Response): Promise<SharplineError> {
  const text = await response.text();
  let problem: Problem & Record<string, unknown>;
  try {
    problem = JSON.parse(text) as Problem & Record<string, unknown>;
    if (typeof problem.type !== 'string') throw new Error('not a problem');
  } catch {
    problem = {
      type: 'about:blank',
      title: response.statusText || 'Error',
      status: response.status,
      detail: text.slice(0, 500),
    };
  }
  return new SharplineError(response.status, problem, numberHeader(response.headers, 'retry-after'));
}

/** Splits a text/event-stream body into events (the WHATWG parsing rules: fields, comments, CR/LF/CRLF). */
export async function* parseEventStream(
  body: ReadableStream<Uint8Array>,
  onRetry?: (ms: number) => void,
): AsyncGenerator<{ event: string; id: string | undefined; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  let sawId = false;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        // A lone CR at the end may be the first half of a CRLF: wait for the next chunk.
        if (!match || (match[0] === '\r' && match.index === buffer.length - 1)) break;
        const line = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        if (line === '') {
          if (data.length > 0)
            yield { event: event || 'message', id: sawId ? id : undefined, data: data.join('\n') };
          event = '';
          data = [];
          sawId = false;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) {
          id = value;
          sawId = true;
        } else if (field === 'retry' && /^\d+$/.test(value)) onRetry?.(Number(value));
      }
    }
  } finally {
    // Closes the connection when the caller stops early (break, return, an error), so that it does not count as an
    // open stream until the runtime collects it.
    await reader.cancel().catch(() => {});
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export class SharplineClient {
  readonly baseUrl: string;
  /** The rate-limit headers of the last answer. */
  lastRateLimit: RateLimit | undefined;
  private apiKey: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: ClientOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'https://sharpline.io').replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Any /v1 call: the answer's JSON, or a SharplineError. */
  async request<T>(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { 'x-api-key': this.apiKey, accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetch(`${this.baseUrl}${path}${queryString(options.query)}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new SharplineError(0, {
        type: 'network',
        title: 'No answer',
        status: 0,
        detail: error instanceof Error ? error.message : String(error),
      });
    }
    this.lastRateLimit = rateLimitOf(response.headers) ?? this.lastRateLimit;
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as T;
  }

  sports = () => this.request<AnswerOf<'listSports'>>('GET', '/v1/sports');
  leagues = () => this.request<AnswerOf<'listLeagues'>>('GET', '/v1/leagues');
  events = (query?: QueryOf<'listEvents'>) =>
    this.request<AnswerOf<'listEvents'>>('GET', '/v1/events', { query });
  event = (eventId: string) =>
    this.request<AnswerOf<'getEvent'>>('GET', `/v1/events/${encodeURIComponent(eventId)}`);
  odds = (query?: QueryOf<'getOdds'>) => this.request<AnswerOf<'getOdds'>>('GET', '/v1/odds', { query });
  arbs = (query?: QueryOf<'listArbs'>) => this.request<AnswerOf<'listArbs'>>('GET', '/v1/arbs', { query });
  positiveEv = (query?: QueryOf<'listPositiveEv'>) =>
    this.request<AnswerOf<'listPositiveEv'>>('GET', '/v1/ev', { query });
  middles = (query?: QueryOf<'listMiddles'>) =>
    this.request<AnswerOf<'listMiddles'>>('GET', '/v1/middles', { query });
  movement = (eventId: string, query: QueryOf<'getEventMovement'>) =>
    this.request<AnswerOf<'getEventMovement'>>('GET', `/v1/events/${encodeURIComponent(eventId)}/movement`, {
      query,
    });
  lines = (eventId: string, query?: QueryOf<'getEventLines'>) =>
    this.request<AnswerOf<'getEventLines'>>('GET', `/v1/events/${encodeURIComponent(eventId)}/lines`, {
      query,
    });
  clv = (body: BodyOf<'computeClv'>) => this.request<AnswerOf<'computeClv'>>('POST', '/v1/clv', { body });
  historicalOdds = (query: QueryOf<'getHistoricalOdds'>) =>
    this.request<AnswerOf<'getHistoricalOdds'>>('GET', '/v1/historical/odds', { query });
  sgp = (body: BodyOf<'priceSgp'>) => this.request<AnswerOf<'priceSgp'>>('POST', '/v1/sgp', { body });
  me = () => this.request<AnswerOf<'getMe'>>('GET', '/v1/me');
  usage = (query?: QueryOf<'getUsage'>) =>
    this.request<AnswerOf<'getUsage'>>('GET', '/v1/me/usage', { query });
  /** Replaces the key: the answer holds the new one (shown once: store it), which this client uses from now on. */
  rotateKey = async () => {
    const answer = await this.request<AnswerOf<'rotateKey'>>('POST', '/v1/me/rotate');
    this.apiKey = answer.key;
    return answer;
  };
  billingPortal = () => this.request<AnswerOf<'openBillingPortal'>>('POST', '/v1/me/portal');

  /**
   * /v1/stream's events, for as long as the caller iterates (or until `signal` aborts). A dropped connection is
   * reopened with `Last-Event-ID`, so the server replays what was missed (or sends a fresh `snapshot` when the gap is
   * too old). A `close` event ends the iteration after it is yielded, unless its reason is `plan-changed` (the stream
   * reopens on the new plan). An error answer (401, 403, 429…) is thrown as a SharplineError.
   */
  async *stream(query: QueryOf<'openStream'> = {}, options: StreamOptions = {}): AsyncGenerator<StreamEvent> {
    let lastEventId = options.lastEventId;
    let delay = options.reconnectDelayMs ?? 1000;
    const maxReconnects = options.maxReconnects ?? 10;
    let failures = 0;
    for (let attempt = 0; !options.signal?.aborted; attempt += 1) {
      if (attempt > 0) {
        if (failures > maxReconnects)
          throw new SharplineError(0, {
            type: 'network',
            title: 'Stream lost',
            status: 0,
            detail: `No event after ${maxReconnects} reconnections.`,
          });
        options.onReconnect?.(lastEventId);
        await sleep(delay, options.signal);
        if (options.signal?.aborted) return;
      }
      failures += 1;
      const headers: Record<string, string> = { 'x-api-key': this.apiKey, accept: 'text/event-stream' };
      if (lastEventId) headers['last-event-id'] = lastEventId;
      let response: Response;
      try {
        response = await this.fetch(`${this.baseUrl}/v1/stream${queryString(query as Query)}`, {
          headers,
          signal: options.signal,
        });
      } catch {
        continue;
      }
      if (!response.ok || !response.body) {
        const error = await errorOf(response);
        // A stream refused for a while (too many opens, a restart) is asked again after Retry-After.
        if ((response.status === 429 && error.code !== 'stream-limit') || response.status === 503) {
          delay = Math.max(delay, (error.retryAfter ?? 1) * 1000);
          continue;
        }
        throw error;
      }
      try {
        for await (const message of parseEventStream(response.body, (ms) => (delay = ms))) {
          failures = 0;
          if (message.id !== undefined) lastEventId = message.id;
          yield { ...message, json: <T>() => JSON.parse(message.data) as T };
          if (message.event === 'close') {
            const reason = (JSON.parse(message.data) as { reason?: string }).reason;
            if (reason !== 'plan-changed') return;
          }
        }
      } catch {
        // The connection dropped mid-stream: reconnect below.
      }
    }
  }
}

/** `new SharplineClient(options)`. */
export const createClient = (options: ClientOptions) => new SharplineClient(options);
