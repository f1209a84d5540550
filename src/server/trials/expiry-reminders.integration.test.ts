// The same tests as ./expiry-reminders.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), each app in
// its own schema and key prefix (useExternalStorage in tests/support/server/trials.ts): two passes at once really
// run in parallel there, and migration 0009 runs on PostgreSQL.
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./expiry-reminders.test.ts');
