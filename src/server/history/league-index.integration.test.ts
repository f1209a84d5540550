// The same index against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), the history in blocks there too (decision 311).
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./league-index.test.ts');
