import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestAppOptions } from './app.ts';
import { trialTestConfig } from './trials.ts';

// For integration tests: two instances of the app sharing CI's PostgreSQL (keys, in a schema of their own) and Redis
// (quota windows, revocations; under a prefix of their own), as behind a load balancer. Instance A is used through
// `inject`; instance B listens on 127.0.0.1:`portB` for tests that need a real socket (streams).

export interface TwoInstances {
  a: FastifyInstance;
  b: FastifyInstance;
  portB: number;
}

export function twoInstances(
  name: string,
  portB: number,
  optionsB: Omit<TestAppOptions, 'config'> = {},
  /** More environment for both instances' config (e.g. billing). */
  extraEnv: Record<string, string> = {},
): TwoInstances {
  const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const tag = `${name}_${process.pid}_${Date.now().toString(36)}`;
  const env = { ...extraEnv, DATABASE_URL, REDIS_URL, DATABASE_SCHEMA: tag, REDIS_PREFIX: `${tag}:` };
  const instances = { portB } as TwoInstances;

  beforeAll(async () => {
    instances.a = await buildTestApp({ config: trialTestConfig(env) });
    await instances.a.ready();
    instances.b = await buildTestApp({ ...optionsB, config: trialTestConfig(env) });
    await instances.b.listen({ port: portB, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await instances.a?.db.execute(sql.raw(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`));
    await instances.a?.close();
    await instances.b?.close();
  });

  return instances;
}
