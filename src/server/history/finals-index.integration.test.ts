// The same tests as ./finals-index.test.ts, against PostgreSQL (DATABASE_URL): the planner there reads the finals by the
// index of migration 0014 too.
import { useExternalStorage } from '#tests/support/server/trials.ts';

useExternalStorage();
await import('./finals-index.test.ts');
