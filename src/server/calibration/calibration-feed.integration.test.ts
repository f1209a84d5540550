// The same tests as ./calibration-feed.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL).
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./calibration-feed.test.ts');
