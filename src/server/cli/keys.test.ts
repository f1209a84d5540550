import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_IN_TEXT } from '../odds-api/keys.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { main } from './keys.ts';

const PORT = 4420;
const config = trialTestConfig();
const env = { DATA_DIR: config.DATA_DIR, PORT: String(PORT), HOST: '127.0.0.1' };
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ config });
  await app.listen({ port: PORT, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
});

describe('npm run keys', () => {
  it('create prints a working key once; list shows only its prefix; revoke makes it answer 401', async () => {
    const created = await main(['create', '--plan', 'elite', '--email', 'Buyer@Example.com'], env);
    expect(created.code).toBe(0);
    const keys = created.out.match(KEY_IN_TEXT);
    expect(keys).toHaveLength(1);
    const key = keys![0]!;
    expect(key).toMatch(/^sl_live_/);
    const prefix = key.slice(0, 14);
    expect(created.out).toContain(prefix);

    const me = await fetch(`http://127.0.0.1:${PORT}/v1/me`, { headers: { 'x-api-key': key } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { plan: { id: string } }).plan.id).toBe('elite');

    const listed = await main(['list'], env);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(prefix);
    expect(listed.out).toContain('buyer@example.com');
    expect(listed.out.match(KEY_IN_TEXT)).toBeNull();

    const revoked = await main(['revoke', prefix], env);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toContain(prefix);
    const after = await fetch(`http://127.0.0.1:${PORT}/v1/me`, { headers: { 'x-api-key': key } });
    expect(after.status).toBe(401);
    expect((await main(['revoke', prefix], env)).code).toBe(1);
  });

  it('create with --expires issues a key that expires then', async () => {
    const created = await main(
      ['create', '--plan', 'starter', '--email', 'x@example.com', '--expires', '2030-01-31'],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.out).toContain('expires 2030-01-31T00:00:00.000Z');
  });

  it('refuses unknown plans, missing arguments and a wrong admin token', async () => {
    expect((await main(['create', '--plan', 'gold', '--email', 'x@example.com'], env)).code).toBe(2);
    expect((await main(['create', '--plan', 'pro'], env)).code).toBe(2);
    expect((await main(['revoke'], env)).code).toBe(2);
    expect((await main([], env)).code).toBe(2);
    const wrong = await main(['list'], { ...env, ADMIN_TOKEN: 'x'.repeat(40) });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toContain('401');
  });
});
