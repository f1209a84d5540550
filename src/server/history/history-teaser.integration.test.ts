// The same tests as ./history-teaser.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL).
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./history-teaser.test.ts');
