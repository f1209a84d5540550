import { connect } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawStream } from '#tests/support/server/odds-api.ts';
import { buildApp } from '../app.ts';
import { freePort, trialTestConfig } from '#tests/support/server/trials.ts';
import { redactKeys, redactUrl } from './redact.ts';

// Decision 010: no log line holds a key, whatever the spelling of the parameter that carried it.

const PORT = await freePort();
const origin = `http://127.0.0.1:${PORT}`;
const logLines: string[] = [];
let app: FastifyInstance;
let key: string;

beforeAll(async () => {
  const config = trialTestConfig({ LOG_LEVEL: 'info' });
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  app = await buildApp({ config, log: { write: (line) => capture.write(line) } });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  ({ plain: key } = await app.apiKeys.create({ planId: 'enterprise', email: 'ops@example.com' }));
});

afterAll(async () => {
  await app.close();
});

function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('request logs', () => {
  it('never hold a key sent under an encoded, upper-case or ;-separated parameter name, on the stream or REST routes', async () => {
    for (const query of [`api%5Fkey=${key}`, `api_k%65y=${key}`]) {
      const stream = await openRawStream(`${origin}/v1/stream?initial=false&${query}`);
      expect(stream.status).toBe(200);
      stream.abort();
      await stream.ended;
    }
    for (const path of [
      `/v1/odds?x-api-key=${key}`,
      `/v1/odds?api%5Fkey=${key}`,
      `/v1/odds?API_KEY=${key}`,
      `/v1/odds;api_key=${key}`,
      `/v1/odds?league=nba;token=${key}`,
      `/v1/odds?Access%2DToken=${key}`,
    ]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBeGreaterThanOrEqual(400);
    }
    // A URL Fastify cannot decode, and a request Node cannot parse, with the key in them.
    expect((await fetch(`${origin}/v1/%zz/${key}`)).status).toBe(400);
    await rawRequest(
      `GET /v1/odds?api_key=${key} HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nBad Header\r\n\r\n`,
    );
    await app.inject({ url: `/v1/odds?password=${key}`, headers: { 'x-api-key': key } });

    expect(logLines.length).toBeGreaterThan(10);
    const body = key.slice(-32);
    for (const line of logLines) expect(line).not.toContain(body);
    expect(logLines.join('\n')).toContain('api%5Fkey=[REDACTED]');
  });
});

describe('redactUrl', () => {
  it.each([
    ['/v1/stream?api%5Fkey=abc&league=nba', '/v1/stream?api%5Fkey=[REDACTED]&league=nba'],
    ['/v1/stream?api_k%65y=abc', '/v1/stream?api_k%65y=[REDACTED]'],
    ['/v1/odds?api%255Fkey=abc', '/v1/odds?api%255Fkey=[REDACTED]'],
    ['/v1/odds;X-API-KEY=abc', '/v1/odds;X-API-KEY=[REDACTED]'],
    ['/v1/odds?a=1;Secret=abc&b=2', '/v1/odds?a=1;Secret=[REDACTED]&b=2'],
    ['/v1/odds?client_secret=abc&password=def', '/v1/odds?client_secret=[REDACTED]&password=[REDACTED]'],
    ['/v1/odds?league=nba', '/v1/odds?league=nba'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('hides a key-shaped value under any name or in the path, also percent-encoded', () => {
    const key = `sl_live_${'A1b2C3d4'.repeat(4)}`;
    expect(redactUrl(`/v1/${key}?q=${key}`)).toBe('/v1/[REDACTED]?q=[REDACTED]');
    expect(redactKeys(`"msg":"sl%5Flive%5F${'A1b2C3d4'.repeat(4)}"`)).toBe('"msg":"[REDACTED]"');
  });
});
