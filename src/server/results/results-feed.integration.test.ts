// The same tests as ./results-feed.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL): the finals one app
// wrote to the history read by a fresh app on the same schema (decision 283).
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./results-feed.test.ts');
