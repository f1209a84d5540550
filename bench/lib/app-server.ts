import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';

// The server as src/server/server.ts runs it, with the AppOptions a bench compares that no environment variable sets:
// BENCH_USAGE=off builds it without usage counting (bench/usage-counting.bench.ts's baseline). Stops on SIGTERM.

const config = loadConfig();
const app = await buildApp({ config, usage: { enabled: process.env.BENCH_USAGE !== 'off' } });
process.on('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
await app.listen({ port: config.PORT, host: config.HOST });
