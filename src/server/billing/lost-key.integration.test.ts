// The same tests as ./lost-key.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), each app in its own
// schema and key prefix (useExternalStorage in tests/support/server/trials.ts): the request queue's claim
// (FOR UPDATE SKIP LOCKED) and retries on the production database.
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./lost-key.test.ts');
