// The same test as ./crash.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), in a schema and key
// prefix of its own (useExternalStorage in tests/support/server/trials.ts).
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./crash.test.ts');
