// The same tests as ./scores.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), each app in its own
// schema and key prefix (useExternalStorage in tests/support/server/trials.ts).
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./scores.test.ts');
