import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_IN_TEXT } from '../keys/key-format.ts';
import { monthOf } from '../sgp/sgp-credits.ts';
import { freePort, keyInEmail, trialTestConfig, waitFor } from '#tests/support/server/trials.ts';
import { checkoutSession, signedEvent, stripeEnv, stripeId } from '#tests/support/server/stripe.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { main } from './keys.ts';

const PORT = await freePort();
const config = trialTestConfig(stripeEnv());
const env = { DATA_DIR: config.DATA_DIR, PORT: String(PORT), HOST: '127.0.0.1' };
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ config });
  await app.listen({ port: PORT, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
});

/** The emails the file outbox wrote to `address` (DATA_DIR/outbox/*.eml). */
function emailsTo(address: string): string[] {
  const dir = path.join(config.dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .filter((eml) => eml.includes(`To: ${address}`));
}

describe('npm run keys', () => {
  it("list shows a paid key's Stripe customer and subscription; rotate emails a new key and revokes the old one", async () => {
    const subscription = stripeId('sub');
    const customer = stripeId('cus');
    const email = `rotate.${process.pid}@example.com`;
    const delivery = signedEvent(
      'checkout.session.completed',
      checkoutSession({ subscription, customer, email, plan: 'pro' }),
    );
    const response = await app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: delivery.headers,
      payload: delivery.payload,
    });
    expect(response.statusCode).toBe(200);
    const first = keyInEmail((await waitFor(() => emailsTo(email)[0], 'the key email'))!)!;
    const prefix = first.slice(0, 14);

    const listed = await main(['list'], env);
    const line = listed.out.split('\n').find((row) => row.includes(prefix))!;
    expect(line).toContain(customer);
    expect(line).toContain(subscription);

    const rotated = await main(['rotate', prefix], env);
    expect(rotated.code).toBe(0);
    expect(rotated.out).toContain(prefix);
    expect(rotated.out.match(KEY_IN_TEXT)).toBeNull();
    const rotatedEmail = await waitFor(
      () => emailsTo(email).find((eml) => /Subject: Your new Sharpline API key/.test(eml)),
      'the rotated key email',
    );
    expect(rotatedEmail).toContain(`starting with ${prefix}) has been revoked`);
    const second = keyInEmail(rotatedEmail)!;
    expect(second).not.toBe(first);
    const status = async (key: string) =>
      (await fetch(`http://127.0.0.1:${PORT}/v1/me`, { headers: { 'x-api-key': key } })).status;
    expect(await status(first)).toBe(401);
    expect(await status(second)).toBe(200);
    // The new key belongs to the same subscription: cancelling it revokes the new key.
    expect(
      (await main(['list'], env)).out.split('\n').find((row) => row.includes(second.slice(0, 14))),
    ).toContain(subscription);
    expect((await main(['rotate', prefix], env)).code).toBe(1);
  });

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

  it("credits shows this month's and the 3 earlier months' SGP credits; grant adds credits to one month", async () => {
    const created = await main(['create', '--plan', 'elite', '--email', 'sgp@example.com'], env);
    const key = created.out.match(KEY_IN_TEXT)![0]!;
    const prefix = key.slice(0, 14);
    const record = (await app.apiKeys.byPrefix(prefix))[0]!;
    await app.sgpCredits.spend(record);
    await app.sgpCredits.spend(record);
    const { month } = monthOf(Date.now());

    const granted = await main(['grant', prefix, '40'], env);
    expect(granted.code).toBe(0);
    expect(granted.out).toBe(
      `Granted 40 SGP credits to ${prefix} for ${month}: limit 10040 (10000 included + 40 granted), 2 used, 10038 remaining.`,
    );
    const next = monthOf(monthOf(Date.now()).resetsAt.getTime()).month;
    expect((await main(['grant', prefix, '7', '--month', next], env)).code).toBe(0);

    const credits = await main(['credits', prefix], env);
    expect(credits.code).toBe(0);
    const lines = credits.out.split('\n');
    expect(lines[0]).toBe(`${prefix} (elite, sgp@example.com): same-game-parlay credits by UTC month`);
    expect(lines[1]!.split(/\s+/)).toEqual(['month', 'included', 'granted', 'limit', 'used', 'remaining']);
    const rows = lines.slice(3).map((line) => line.split(/\s+/));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toEqual([next, '10000', '7', '10007', '0', '10007']);
    expect(rows[1]).toEqual([month, '10000', '40', '10040', '2', '10038']);
    expect(rows.slice(2).map((row) => row.slice(1))).toEqual(
      Array.from({ length: 3 }, () => ['10000', '0', '10000', '0', '10000']),
    );

    const me = await fetch(`http://127.0.0.1:${PORT}/v1/me`, { headers: { 'x-api-key': key } });
    expect(((await me.json()) as { sgp_credits: unknown }).sgp_credits).toMatchObject({
      limit: 10_040,
      used: 2,
      remaining: 10_038,
    });
  });

  it('grant refuses negative, zero and oversized credits and a bad month; the server refuses plans without SGP', async () => {
    const created = await main(['create', '--plan', 'pro', '--email', 'nosgp@example.com'], env);
    const prefix = created.out.match(KEY_IN_TEXT)![0]!.slice(0, 14);
    const negative = await main(['grant', prefix, '-5'], env);
    expect(negative.code).toBe(2);
    expect(negative.out).toContain('a grant cannot be negative');
    for (const credits of ['0', '1.5', 'ten', '10000001']) {
      expect((await main(['grant', prefix, credits], env)).code).toBe(2);
    }
    expect((await main(['grant', prefix, '5', '--month', '2026-13'], env)).code).toBe(2);
    expect((await main(['grant', prefix], env)).code).toBe(2);
    expect((await main(['credits'], env)).code).toBe(2);
    const refused = await main(['grant', prefix, '5'], env);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('409');
    expect(refused.out).toContain('Elite and Enterprise');
    const unknown = await main(['credits', 'sl_live_ZZZZZZ'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('404');
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
