import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PROBLEMS, PROBLEM_TYPE_BASE } from '#domain/schemas/api/problems.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { derivedOperationId, oneSchemaPerType } from './openapi-document.ts';

// The served OpenAPI document as a client generator meets it (issue 58, decision 253): Redocly CLI's `recommended`
// rules pass with no error and no warning, every example is valid against its schema, and every problem `type` URI
// it names answers 200. The whole document is checked, so a route added later is held to the same rules.

const run = promisify(execFile);
const REDOCLY = path.resolve('node_modules/.bin/redocly');

let app: FastifyInstance;
let doc: Record<string, unknown> & {
  paths: Record<string, Record<string, { operationId?: string }>>;
  components: Record<string, Record<string, unknown>>;
};
let dir: string;

beforeAll(async () => {
  app = await buildTestApp();
  await app.ready();
  doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

describe('the served OpenAPI document', () => {
  it("passes Redocly CLI's recommended ruleset with no error and no warning", async () => {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    // redocly.yaml (the repository's) extends `recommended`; no telemetry, no update check: the lint runs offline.
    const { stdout } = await run(REDOCLY, ['lint', file, '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: LintProblem[];
    };
    const found = report.problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(found).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('gives every example that is valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const local = (schema: unknown) =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object;
    const checked: string[] = [];
    const failures: string[] = [];
    const check = (where: string, schema: unknown, example: unknown) => {
      const validate = ajv.compile(local(schema));
      checked.push(where);
      if (!validate(example)) failures.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    /** A schema's own `examples` and those of the schemas inside it. */
    const walkSchema = (where: string, schema: unknown) => {
      if (!schema || typeof schema !== 'object') return;
      if (Array.isArray(schema)) {
        schema.forEach((item, index) => walkSchema(`${where}/${index}`, item));
        return;
      }
      const { examples, ...rest } = schema as Record<string, unknown>;
      if (Array.isArray(examples))
        examples.forEach((example, index) => check(`${where}/examples/${index}`, rest, example));
      for (const [key, value] of Object.entries(rest)) {
        if (key === 'properties' && value && typeof value === 'object')
          for (const [name, property] of Object.entries(value))
            walkSchema(`${where}/properties/${name}`, property);
        else if (typeof value === 'object') walkSchema(`${where}/${key}`, value);
      }
    };
    /** Media, parameter and header objects: `example` (and `examples[].value`) against their `schema`. */
    const walk = (where: string, node: unknown) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        node.forEach((item, index) => walk(`${where}/${index}`, item));
        return;
      }
      const object = node as Record<string, unknown>;
      if (object.schema && typeof object.schema === 'object') {
        if (object.example !== undefined) check(`${where}/example`, object.schema, object.example);
        for (const [name, example] of Object.entries(
          (object.examples ?? {}) as Record<string, { value?: unknown }>,
        ))
          if (example.value !== undefined) check(`${where}/examples/${name}`, object.schema, example.value);
        walkSchema(`${where}/schema`, object.schema);
      }
      for (const [key, value] of Object.entries(object)) if (key !== 'schema') walk(`${where}/${key}`, value);
    };
    walk('#/paths', doc.paths);
    walk('#/components/headers', doc.components.headers);
    for (const [name, schema] of Object.entries(doc.components.schemas ?? {}))
      walkSchema(`#/components/schemas/${name}`, schema);
    expect(failures).toEqual([]);
    // The answers' examples, the request bodies', the problems' and the headers' were all among them.
    expect(checked.length).toBeGreaterThan(100);
    expect(checked).toContain(
      '#/paths//v1/historical/odds/get/responses/200/content/application/json/example',
    );
    expect(checked).toContain('#/paths//v1/clv/post/requestBody/content/application/json/example');
    expect(checked).toContain('#/paths//v1/odds/get/responses/429/content/application/problem+json/example');
    expect(checked).toContain('#/components/headers/RateLimit/example');
  });

  it('names every operation once, with an operationId', () => {
    const ids = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/odds']!.get!.operationId).toBe('getOdds');
    expect(doc.paths['/v1/stream']!.head!.operationId).toBe('checkStream');
    // A route nobody named gets one from its method and path.
    expect(derivedOperationId('get', '/v1/scores')).toBe('getScores');
    expect(derivedOperationId('post', '/v1/events/{eventId}/grade')).toBe('postEventsByEventIdGrade');
  });

  it('has one schema per type: no `*Input` twin, and every named schema in use', () => {
    const names = Object.keys(doc.components.schemas ?? {});
    expect(names.filter((name) => name.endsWith('Input'))).toEqual([]);
    const text = JSON.stringify({ paths: doc.paths, components: doc.components });
    for (const name of names) expect(text, name).toContain(`"#/components/schemas/${name}"`);
    // The request body's bet is the request side (its price takes text or a number).
    expect(JSON.stringify(doc.components.schemas!.ClvBet)).toContain('"pattern"');
  });
});

describe('problem type URIs', () => {
  it('each `type` the document names, and each in the error table, answers 200 with its page', async () => {
    const types = new Set(
      JSON.stringify(doc).match(new RegExp(`${PROBLEM_TYPE_BASE.replaceAll('.', '\\.')}[a-z0-9-]+`, 'g')) ??
        [],
    );
    for (const problem of API_PROBLEMS) types.add(`${PROBLEM_TYPE_BASE}${problem.code}`);
    expect(types.size).toBeGreaterThan(20);
    for (const type of types) {
      const response = await app.inject({ method: 'GET', url: new URL(type).pathname });
      expect(response.statusCode, type).toBe(200);
      expect(response.headers['content-type'], type).toBe('text/html; charset=utf-8');
      expect(response.body, type).toContain(`<code>${type}</code>`);
    }
    const unknown = await app.inject({ method: 'GET', url: '/problems/no-such-problem' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('what the document says of headers and refusals, as the server does it', () => {
  it('sends each header a success declares (rate limits, Cache-Control; ETag on /v1/odds; HEAD /v1/stream)', async () => {
    const key = await createKey(app, 'pro');
    const operations = doc.paths as Record<
      string,
      Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>
    >;
    for (const [method, url, path] of [
      ['GET', '/v1/odds?league=nba', '/v1/odds'],
      ['GET', '/v1/me', '/v1/me'],
      ['GET', '/v1/leagues', '/v1/leagues'],
      ['HEAD', '/v1/stream?league=nba', '/v1/stream'],
    ] as const) {
      const declared = Object.keys(operations[path]![method.toLowerCase()]!.responses['200']!.headers ?? {});
      expect(declared, url).toEqual(
        expect.arrayContaining(['RateLimit', 'X-RateLimit-Remaining', 'Cache-Control']),
      );
      const response = await app.inject({ method, url, headers: { 'x-api-key': key } });
      expect(response.statusCode, url).toBe(200);
      for (const name of declared)
        expect(response.headers[name.toLowerCase()], `${method} ${url} ${name}`).toBeDefined();
    }
    expect(Object.keys(operations['/v1/odds']!.get!.responses['200']!.headers!)).toContain('ETag');
    // The documented conditional request: the ETag back in If-None-Match is a 304 without a body.
    expect(Object.keys(operations['/v1/odds']!.get!.responses)).toContain('304');
    const first = await app.inject({
      method: 'GET',
      url: '/v1/odds?league=nba',
      headers: { 'x-api-key': key },
    });
    const again = await app.inject({
      method: 'GET',
      url: '/v1/odds?league=nba',
      headers: { 'x-api-key': key, 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(Object.keys(operations['/v1/odds']!.get!.responses['429']!.headers!)).toEqual(['Retry-After']);
  });

  it('answers another method on a known path with 405, Allow and problem+json, and an unknown path with 404', async () => {
    const key = await createKey(app, 'pro');
    const odds = await app.inject({ method: 'DELETE', url: '/v1/odds', headers: { 'x-api-key': key } });
    expect(odds.statusCode).toBe(405);
    expect(odds.headers.allow).toBe('GET, HEAD');
    expect(odds.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(odds.json()).toMatchObject({
      type: `${PROBLEM_TYPE_BASE}method-not-allowed`,
      status: 405,
      allow: ['GET', 'HEAD'],
    });
    const lines = await app.inject({
      method: 'PUT',
      url: '/v1/events/x/lines',
      headers: { 'x-api-key': key },
    });
    expect(lines.statusCode).toBe(405);
    expect(lines.headers.allow).toBe('GET, HEAD');
    const clv = await app.inject({ method: 'GET', url: '/v1/clv', headers: { 'x-api-key': key } });
    expect(clv.statusCode).toBe(405);
    expect(clv.headers.allow).toBe('POST');
    const unknown = await app.inject({ method: 'DELETE', url: '/v1/nothing', headers: { 'x-api-key': key } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('answers a body that is not JSON with 415 before reading it, and charges nothing', async () => {
    const key = await createKey(app, 'elite');
    const remaining = async () =>
      Number(
        (await app.inject({ method: 'GET', url: '/v1/sports', headers: { 'x-api-key': key } })).headers[
          'x-ratelimit-remaining'
        ],
      );
    const before = await remaining();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/clv',
        headers: { 'x-api-key': key, 'content-type': type },
        payload: 'bets=1',
      });
      expect(response.statusCode, type).toBe(415);
      expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(response.headers['accept-post']).toBe('application/json');
      expect(response.json()).toMatchObject({
        type: `${PROBLEM_TYPE_BASE}unsupported-media-type`,
        status: 415,
      });
    }
    // Only the second GET /v1/sports counted.
    expect(await remaining()).toBe(before - 1);
    const json = await app.inject({
      method: 'POST',
      url: '/v1/clv',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: '{"bets":[]}',
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().type).toBe(`${PROBLEM_TYPE_BASE}validation`);
  });
});

describe('oneSchemaPerType', () => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  it('keeps what operations reach, renames a request-only twin, and keeps both twins when both are used', () => {
    const doc = oneSchemaPerType({
      paths: {
        '/a': { get: { responses: { 200: { content: { 'application/json': { schema: ref('Answer') } } } } } },
        '/b': { post: { requestBody: { content: { 'application/json': { schema: ref('BetInput') } } } } },
        '/c': {
          post: {
            requestBody: { content: { 'application/json': { schema: ref('BothInput') } } },
            responses: { 200: { content: { 'application/json': { schema: ref('Both') } } } },
          },
        },
      },
      components: {
        schemas: {
          Answer: { type: 'object', properties: { part: ref('Part') } },
          AnswerInput: { type: 'object' },
          Part: { type: 'string' },
          PartInput: { type: 'string' },
          Bet: { type: 'object', additionalProperties: false },
          BetInput: { type: 'object', properties: { part: ref('PartInput') } },
          Both: { type: 'object', additionalProperties: false },
          BothInput: { type: 'object' },
          Unused: { type: 'string' },
        },
      },
    });
    expect(Object.keys(doc.components.schemas).sort()).toEqual([
      'Answer',
      'Bet',
      'Both',
      'BothInput',
      'Part',
      'PartInput',
    ]);
    // The request-only `BetInput` is now `Bet`, and refers to the request side of its parts.
    expect(doc.paths['/b']!.post!.requestBody!.content['application/json'].schema).toEqual(ref('Bet'));
    expect(doc.components.schemas.Bet).toEqual({ type: 'object', properties: { part: ref('PartInput') } });
    expect(doc.paths['/c']!.post!.requestBody!.content['application/json'].schema).toEqual(ref('BothInput'));
  });
});
