// The same tests as ./portal.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), each app in its own
// schema and key prefix (useExternalStorage in tests/support/server/trials.ts): the one-time links' table and the
// form's rate limits on the production database and counter store.
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./portal.test.ts');
