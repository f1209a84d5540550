import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface ReadinessResult {
  ok: boolean;
  details?: Record<string, unknown>;
}
export type ReadinessCheck = () => Promise<ReadinessResult> | ReadinessResult;

export interface Readiness {
  /** Plugins register what must hold before the server takes traffic (database reachable, engine published). */
  register(name: string, check: ReadinessCheck): void;
  run(): Promise<{ ok: boolean; checks: Record<string, ReadinessResult> }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

export const readinessPlugin = fp(
  async (app: FastifyInstance) => {
    const checks = new Map<string, ReadinessCheck>();
    app.decorate('readiness', {
      register(name, check) {
        checks.set(name, check);
      },
      async run() {
        const results: Record<string, ReadinessResult> = {};
        for (const [name, check] of checks) {
          try {
            results[name] = await check();
          } catch (error) {
            app.log.warn({ err: error, check: name }, 'readiness check failed');
            results[name] = { ok: false };
          }
        }
        return { ok: Object.values(results).every((result) => result.ok), checks: results };
      },
    } satisfies Readiness);
  },
  { name: 'readiness' },
);
