// The same tests as ./trial-requests.test.ts, against PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), each app in its own
// schema and key prefix (see ../trials/testing.ts).
process.env.TRIAL_TEST_EXTERNAL = '1';
await import('./trial-requests.test.ts');
