import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { manualSource } from '#tests/support/server/app.ts';
import { emailOutbox, trialRequests } from '../db/schema.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';

// Property tests over arbitrary bodies: every answer is a 200 or a 4xx problem (never a 5xx), and a rejected body
// writes nothing. Limits are raised so that validation and storage, not the rate limiter, decide.

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildApp({
    source: manualSource(),
    config: trialTestConfig({ TRIAL_LIMIT_PER_IP: '1000000', TRIAL_LIMIT_PER_EMAIL: '1000000' }),
    log: false,
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

async function counts() {
  const [row] = await app.db
    .select({
      n: sql<string>`(SELECT count(*) FROM ${trialRequests})::text || '/' || (SELECT count(*) FROM ${emailOutbox})::text`,
    })
    .from(sql`(SELECT 1) AS one`);
  return row!.n;
}

async function check(payload: string) {
  const before = await counts();
  const response = await app.inject({
    method: 'POST',
    url: '/api/trial-requests',
    headers: { 'content-type': 'application/json' },
    payload,
  });
  expect(
    response.statusCode === 200 || (response.statusCode >= 400 && response.statusCode < 500),
    `${response.statusCode} for ${payload}`,
  ).toBe(true);
  if (response.statusCode === 200) {
    expect(response.json()).toEqual({ success: true });
  } else {
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(await counts()).toBe(before);
  }
  return response.statusCode;
}

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\r\n',
    '\u0000',
    'a\u2028b',
    '\ud800',
    'x'.repeat(3000),
    '<script>',
    "'; DROP TABLE x;--",
  ),
);
const anyValue = fc.oneof(anyText, fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined));
const emailish = fc.oneof(
  { arbitrary: fc.stringMatching(/^[a-z0-9._-]{1,12}@[a-z]{1,8}\.(com|org|io)$/), weight: 20 },
  fc.emailAddress(),
  anyText,
  fc.emailAddress().map((email) => `${email}\r\nBcc: x@y.z`),
);
/** Mostly plausible text (so the storage path runs), sometimes anything. */
const field = (minLength = 0) =>
  fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: 60 }), weight: 20 },
    { arbitrary: anyValue, weight: 1 },
  );

describe('POST /api/trial-requests with arbitrary bodies', () => {
  it('answers any JSON value or byte string with a 200 or a 4xx problem and stores nothing when it rejects', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null'),
          fc.string({ unit: 'binary', maxLength: 200 }),
        ),
        async (payload) => {
          await check(payload);
        },
      ),
      { numRuns: 1000 },
    );
  }, 180_000);

  it('answers trial-shaped objects with arbitrary field values with a 200 or a 4xx problem and stores nothing when it rejects', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            name: field(1),
            email: emailish,
            company: field(0),
            useCase: field(0),
            expectedVolume: field(0),
            message: field(0),
            timestamp: fc.oneof(
              { arbitrary: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), weight: 10 },
              { arbitrary: anyValue, weight: 1 },
            ),
            userAgent: field(0),
            referrer: field(0),
            promotekit_referral: field(0),
            website: fc.oneof({ arbitrary: fc.constant(''), weight: 10 }, { arbitrary: anyValue, weight: 1 }),
            extra: anyValue,
          },
          { requiredKeys: ['email', 'timestamp'] },
        ),
        async (body) => {
          if ((await check(JSON.stringify(body))) === 200) accepted += 1;
        },
      ),
      { numRuns: 1000 },
    );
    // The generator must reach the storage path, not only validation failures.
    expect(accepted).toBeGreaterThan(20);
  }, 180_000);
});
