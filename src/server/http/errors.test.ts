import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { manualSource } from '#tests/support/server/app.ts';
import { SECURITY_HEADERS } from './security-headers.ts';
import { freePort, trialTestConfig } from '#tests/support/server/trials.ts';

// Decision 014: answers written by Node's parser and Fastify's router look like every other error answer.

const PORT = await freePort();
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildApp({ source: manualSource(), config: trialTestConfig(), log: false });
  await app.listen({ port: PORT, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      if (!status) reject(new Error(`no answer: ${JSON.stringify(text)}`));
      else resolve({ status, headers, body });
    });
  });
}

function expectProblem(answer: RawAnswer, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(answer.headers[name]).toBe(value);
  const problem = JSON.parse(answer.body) as { status: number; type: string; title: string };
  expect(problem.status).toBe(status);
  expect(problem.type).toMatch(/^https:\/\/sharpline\.io\/problems\//);
}

describe('requests Node or Fastify refuse before routing', () => {
  it('answers a malformed request line with a 400 problem+json carrying the security headers', async () => {
    expectProblem(await raw('GET /healthz HTTP/9.9 nonsense\r\n\r\n'), 400);
  });

  it('answers a malformed header with a 400 problem+json carrying the security headers', async () => {
    expectProblem(await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'), 400);
  });

  it('answers headers over the size limit with a 431 problem+json carrying the security headers', async () => {
    expectProblem(await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431);
  });

  it('answers a URL with broken percent-encoding with a 400 problem+json carrying the security headers', async () => {
    expectProblem(await raw('GET /v1/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 400);
  });

  it('uses the very headers helmet puts on a normal answer', async () => {
    const response = await app.inject({ url: '/healthz' });
    const helmetHeaders = Object.fromEntries(
      Object.keys(SECURITY_HEADERS).map((name) => [name, response.headers[name]]),
    );
    expect(helmetHeaders).toEqual(SECURITY_HEADERS);
    const extra = Object.keys(response.headers).filter(
      (name) =>
        !(name in SECURITY_HEADERS) &&
        !['cache-control', 'content-type', 'content-length', 'date', 'connection'].includes(name),
    );
    expect(extra).toEqual([]);
  });
});
