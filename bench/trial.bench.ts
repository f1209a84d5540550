// Trial requests benchmark (docs/decisions/020-024): acknowledged POST /api/trial-requests per second with durable commits (each
// answer comes after the transaction that stores the request, issues the key and queues the email has committed),
// on PGlite (embedded, the default) and on PostgreSQL (BENCH_DATABASE_URL, default CI's local server), p50/p99
// latency, autocannon on loopback. Every request carries a new email address, so every one is a full "issue" path;
// the per-address limit is raised for the bench. The outbox worker runs meanwhile, writing .eml files.
// Writes bench/results/trial.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { BENCH_DATABASE_URL, dropSchema, postgresReachable } from './lib/history-db.ts';
import { fixtureBuild, startServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_TRIAL_PORT ?? 4240);
const DURATION = Number(process.env.BENCH_TRIAL_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_TRIAL_CONNECTIONS ?? 16);
const DATABASE_URL = BENCH_DATABASE_URL;

interface Result {
  backend: string;
  connections: number;
  seconds: number;
  acknowledged: number;
  acknowledgedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** GET /healthz on the same server and machine state, for scale. */
  healthzPerSecond: number;
}

async function run(backend: string, env: Record<string, string>): Promise<Result> {
  const server = await startServer(PORT, {
    BUILD_DIR: fixtureBuild(),
    TRIAL_LIMIT_PER_IP: '1000000000',
    TRIAL_LIMIT_PER_EMAIL: '1000000000',
    ...env,
  });
  try {
    for (;;) {
      const ready = await fetch(`${server.origin}/readyz`);
      if (ready.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const baseline = await autocannon({
      url: `${server.origin}/healthz`,
      connections: CONNECTIONS,
      duration: 3,
    });
    let counter = 0;
    const body = () =>
      JSON.stringify({
        name: 'Bench User',
        email: `bench.${Date.now().toString(36)}.${(counter += 1)}@example.com`,
        company: 'Bench Co',
        useCase: 'Benchmark',
        expectedVolume: '1M/month',
        message: 'autocannon',
        timestamp: new Date().toISOString(),
        userAgent: 'autocannon',
        referrer: 'Direct',
        website: '',
      });
    const result = await autocannon({
      url: `${server.origin}/api/trial-requests`,
      connections: CONNECTIONS,
      duration: DURATION,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => ({ ...request, body: body() }),
        },
      ],
    });
    const acknowledged = result['2xx'];
    return {
      backend,
      connections: CONNECTIONS,
      seconds: DURATION,
      acknowledged,
      acknowledgedPerSecond: Math.round(acknowledged / DURATION),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      healthzPerSecond: Math.round(baseline.requests.average),
    };
  } finally {
    await server.stop();
  }
}

const results: Result[] = [await run('PGlite (embedded)', {})];
if (await postgresReachable()) {
  const schema = `bench_${Date.now().toString(36)}`;
  try {
    results.push(await run('PostgreSQL 15 (pg pool, loopback)', { DATABASE_URL, DATABASE_SCHEMA: schema }));
  } finally {
    await dropSchema(DATABASE_URL, schema);
  }
} else {
  console.log(`PostgreSQL at ${DATABASE_URL} is not reachable: skipped`);
}

console.log(
  '| backend | connections | acknowledged req/s | p50 ms | p99 ms | non-2xx | errors | GET /healthz req/s |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const result of results) {
  console.log(
    `| ${result.backend} | ${result.connections} | ${result.acknowledgedPerSecond} | ${result.p50Ms} | ${result.p99Ms} | ${result.non2xx} | ${result.errors} | ${result.healthzPerSecond} |`,
  );
}
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/trial.json', import.meta.url),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), results }, null, 2)}\n`,
);
