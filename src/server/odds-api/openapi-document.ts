// The passes that make the generated OpenAPI document one that linters and client generators take as it is
// (issue 58, decision 253), run after the converter and before `withResponseExamples`:
// - one named schema per type: the converter writes each named zod schema twice, `X` (answers) and `XInput`
//   (requests); only the ones some operation refers to are kept, and a request-only `XInput` takes the name `X`;
// - every operation has an `operationId`: a fixed name for the routes listed here, and for a route not listed (a new
//   one) a name made from its method and path (`GET /v1/scores` → `getScores`), so that the linter never finds one
//   missing;
// - the answers declare the headers the server sends: the rate-limit headers and `Cache-Control` on every
//   authenticated success, `ETag` on /v1/odds (with `If-None-Match` and its 304), `Retry-After` on 429 and 503;
// - `HEAD /v1/stream` (the stream's headers without a stream, decision 088) is documented beside `GET`;
// - a list parameter is comma-separated (`explode: false`), as the server reads it.
// The lint test (openapi-lint.test.ts) holds the whole document, new routes included, to Redocly's `recommended` rules.

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: unknown[];
  responses?: Record<string, Response>;
  [key: string]: unknown;
}

interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}

interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; headers?: Record<string, unknown> };
}

const SCHEMA_REF = '#/components/schemas/';
const HEADER_REF = '#/components/headers/';

/** The operationIds of the routes there were when they were named; a route missing here gets `derivedOperationId`. */
export const OPERATION_IDS: Record<string, string> = {
  'GET /v1/sports': 'listSports',
  'GET /v1/leagues': 'listLeagues',
  'GET /v1/events': 'listEvents',
  'GET /v1/events/{eventId}': 'getEvent',
  'GET /v1/odds': 'getOdds',
  'GET /v1/arbs': 'listArbs',
  'GET /v1/ev': 'listPositiveEv',
  'GET /v1/middles': 'listMiddles',
  'GET /v1/events/{eventId}/movement': 'getEventMovement',
  'GET /v1/events/{eventId}/lines': 'getEventLines',
  'POST /v1/clv': 'computeClv',
  'GET /v1/historical/odds': 'getHistoricalOdds',
  'POST /v1/sgp': 'priceSgp',
  'GET /v1/me': 'getMe',
  'GET /v1/me/usage': 'getUsage',
  'POST /v1/me/rotate': 'rotateKey',
  'POST /v1/me/portal': 'openBillingPortal',
  'GET /v1/stream': 'openStream',
  'HEAD /v1/stream': 'checkStream',
};

const pascal = (word: string) =>
  word
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** `GET /v1/scores` → `getScores`, `POST /v1/events/{eventId}/grade` → `postEventsByEventIdGrade`. */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment && segment !== 'v1')
    .map((segment) => (segment.startsWith('{') ? `By${pascal(segment)}` : pascal(segment)));
  return method.toLowerCase() + words.join('');
}

/** Every `$ref` to a named schema anywhere in `value`. */
function refsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(SCHEMA_REF))
        found.add(item.slice(SCHEMA_REF.length));
      else refsIn(item, found);
    }
  }
  return found;
}

function renameRefs(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, names));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(SCHEMA_REF)) {
        const name = item.slice(SCHEMA_REF.length);
        return [key, `${SCHEMA_REF}${names.get(name) ?? name}`];
      }
      return [key, renameRefs(item, names)];
    }),
  );
}

/** The named schemas the operations reach (through other named schemas too); the others go, `XInput` becomes `X`. */
export function oneSchemaPerType<D extends object>(document: D): D {
  const doc = document as Document;
  const schemas = doc.components?.schemas;
  if (!schemas) return document;
  const reached = new Set<string>();
  let frontier = [...refsIn(doc.paths, new Set())];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const name of frontier) {
      if (reached.has(name) || !(name in schemas)) continue;
      reached.add(name);
      next.push(...refsIn(schemas[name], new Set()));
    }
    frontier = next;
  }
  const names = new Map<string, string>();
  for (const name of reached) {
    const base = name.replace(/Input$/, '');
    if (base !== name && !reached.has(base)) names.set(name, base);
  }
  const kept = Object.entries(schemas)
    .filter(([name]) => reached.has(name))
    .map(([name, schema]) => [names.get(name) ?? name, renameRefs(schema, names)] as const);
  return {
    ...document,
    paths: renameRefs(doc.paths, names),
    components: { ...doc.components, schemas: Object.fromEntries(kept) },
  } as D;
}

/** The response headers, defined once and referred to (`#/components/headers/…`). */
export const RESPONSE_HEADERS = {
  'RateLimit-Policy': {
    description: 'The key\'s quota (IETF RateLimit draft): `"minute";q=<requests per window>;w=60`.',
    schema: { type: 'string' },
    example: '"minute";q=100;w=60',
  },
  RateLimit: {
    description:
      'What is left of the current window: `"minute";r=<remaining>;t=<seconds until the window ends>`.',
    schema: { type: 'string' },
    example: '"minute";r=97;t=41',
  },
  'X-RateLimit-Limit': {
    description: "Requests a minute in the key's plan (the same as `q` in `RateLimit-Policy`).",
    schema: { type: 'integer' },
    example: 100,
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current one-minute window.',
    schema: { type: 'integer' },
    example: 97,
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window ends and the whole quota comes back.',
    schema: { type: 'integer' },
    example: 41,
  },
  'Retry-After': {
    description: 'Seconds to wait before asking again.',
    schema: { type: 'integer' },
    example: 12,
  },
  'Cache-Control': {
    description:
      '`no-store` (an answer for one key), `no-cache` on /v1/odds (keep it, but ask again with its `ETag`), `no-store, no-transform` on the stream.',
    schema: { type: 'string' },
    example: 'no-store',
  },
  ETag: {
    description:
      'A weak tag of this answer: send it back in `If-None-Match` and an unchanged answer comes as `304 Not Modified` without a body.',
    schema: { type: 'string' },
    example: 'W/"nba-1764936000123-3f9a"',
  },
} as const;

const RATE_LIMIT_HEADERS = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const;

const headerRef = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `${HEADER_REF}${name}` });

/**
 * The headers each response declares. Every authenticated success carries the rate-limit headers and
 * `Cache-Control`; /v1/odds adds its `ETag`; a 429 or 503 gives `Retry-After`.
 */
function withResponseHeaders(doc: Document): void {
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const headers: Record<string, unknown> = { ...response.headers };
        if (status.startsWith('2') && operation.security?.length) {
          for (const name of RATE_LIMIT_HEADERS) headers[name] = headerRef(name);
          headers['Cache-Control'] = headerRef('Cache-Control');
          if (path === '/v1/odds') headers.ETag = headerRef('ETag');
        }
        if (status === '429' || status === '503') headers['Retry-After'] = headerRef('Retry-After');
        if (Object.keys(headers).length > 0) response.headers = headers;
      }
    }
  }
  doc.components = { ...doc.components, headers: { ...doc.components?.headers, ...RESPONSE_HEADERS } };
  // /v1/odds answers If-None-Match: the conditional request and its 304.
  const odds = doc.paths?.['/v1/odds']?.get;
  if (odds?.responses?.['200'] && !odds.responses['304']) {
    odds.parameters = [
      ...(odds.parameters ?? []),
      {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description:
          'The `ETag` of an earlier answer to the same question: if nothing changed since, the answer is `304 Not Modified` without a body.',
        schema: { type: 'string' },
        example: 'W/"nba-1764936000123-3f9a"',
      },
    ];
    const { '200': ok, ...others } = odds.responses;
    odds.responses = {
      '200': ok,
      '304': {
        description:
          'Not modified: the answer to this question is the one whose `ETag` was sent in `If-None-Match`. No body; it counts as a request.',
        headers: { ...ok.headers },
      },
      ...others,
    };
  }
}

/** `HEAD /v1/stream`: GET's parameters and refusals, and a 200 with the stream's headers and no body. */
function withStreamHead(doc: Document): void {
  const stream = doc.paths?.['/v1/stream'];
  const get = stream?.get;
  if (!stream || !get || stream.head) return;
  const responses = Object.fromEntries(
    Object.entries(get.responses ?? {}).map(([status, response]) =>
      status === '200'
        ? [
            status,
            {
              description:
                'The headers a stream would open with (`Content-Type: text/event-stream`), and no body: the key, its plan and its stream limit are checked, and no stream is opened.',
              headers: response.headers,
            },
          ]
        : [status, response],
    ),
  );
  stream.head = {
    ...get,
    summary: 'Check a stream without opening it',
    description:
      "Answers what `GET /v1/stream` would (the same key checks, filters and refusals: `429 stream-limit` when the key has its plan's streams open) with headers only, and opens no stream.",
    responses,
  };
}

/**
 * A list parameter is sent comma-separated (`markets=moneyline,spread`), as every example in /docs shows: the form
 * style without explode, which generators otherwise take to be `markets=moneyline&markets=spread`.
 */
function withCommaLists(doc: Document): void {
  for (const methods of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      for (const parameter of (operation.parameters ?? []) as {
        in?: string;
        schema?: { type?: string };
        style?: string;
        explode?: boolean;
      }[]) {
        if (parameter.in === 'query' && parameter.schema?.type === 'array') {
          parameter.style ??= 'form';
          parameter.explode ??= false;
        }
      }
    }
  }
}

function withOperationIds(doc: Document): void {
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods)) {
      const name = `${method.toUpperCase()} ${path}`;
      operation.operationId ??= OPERATION_IDS[name] ?? derivedOperationId(method, path);
    }
  }
}

/** All the passes above, in order. */
export function lintableDocument<D extends object>(document: D): D {
  const doc = oneSchemaPerType(document) as Document;
  withStreamHead(doc);
  withOperationIds(doc);
  withCommaLists(doc);
  withResponseHeaders(doc);
  return doc as D;
}
