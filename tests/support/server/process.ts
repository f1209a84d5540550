import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';
import { waitFor } from './trials.ts';

// Real server processes (`node --import tsx src/server/server.ts`) for crash tests: started with an environment,
// killed with any signal, all killed when the file's tests end.

export interface ServerProcesses {
  start(env: Record<string, string>): ChildProcess;
  /** Resolves when `base`/readyz answers 200. */
  ready(base: string): Promise<void>;
  exited(child: ChildProcess): Promise<void>;
}

export function serverProcesses(): ServerProcesses {
  const children = new Set<ChildProcess>();
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });
  return {
    start(env) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.add(child);
      child.once('exit', () => children.delete(child));
      return child;
    },
    async ready(base) {
      await waitFor(
        async () => {
          try {
            return (await fetch(`${base}/readyz`)).ok;
          } catch {
            return false;
          }
        },
        'the server to be ready',
        60_000,
      );
    },
    exited: (child) =>
      new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null
          ? resolve()
          : child.once('exit', () => resolve()),
      ),
  };
}
