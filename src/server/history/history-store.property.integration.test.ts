// The same properties as ./history-store.property.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL).
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./history-store.property.test.ts');
