import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// server.ts as a real process: config errors stop it with the variable's name; SIGTERM and SIGINT stop it cleanly.

function runServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...process.env,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sharpline-server-')),
      BUILD_DIR: path.resolve('build/client'),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', onData);
    void exited.then((code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  listening.catch(() => undefined); // observed by the tests that expect the server to listen

  return { child, exited, listening, output: () => output };
}

describe('server.ts', () => {
  it('refuses to start on an invalid variable and names it', async () => {
    const server = runServer({ PORT: 'not-a-port' });
    expect(await server.exited).toBe(78);
    expect(server.output()).toContain('PORT');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'serves, then shuts down cleanly on %s',
    async (signal) => {
      const server = runServer({});
      const origin = await server.listening;
      const response = await fetch(`${origin}/healthz`);
      expect(response.status).toBe(200);
      server.child.kill(signal);
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('shutting down');
    },
    90_000,
  );
});
