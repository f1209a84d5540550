import path from 'node:path';
import { z } from 'zod';
import { SITE } from '#domain/site.ts';

// Environment contract of DESIGN.md "Runtime contract". Parsed once at start; a bad value stops the server with a
// message naming the variable.

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const protocolOf = (value: string): string | null => {
  try {
    return new URL(value).protocol;
  } catch {
    return null;
  }
};
const optionalUrl = (protocols: readonly string[]) =>
  z.preprocess(
    emptyToUndefined,
    z
      .url()
      .refine((value) => protocols.includes(protocolOf(value) ?? ''), {
        message: `must use ${protocols.join(' or ')}`,
      })
      .optional(),
  );

const booleanish = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
);

export const ConfigSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().min(1).default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().min(1).default('./data')),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.string().min(3).default(`${SITE.brand} <no-reply@sharpline.io>`),
  ),
  SITE_URL: z.preprocess(
    emptyToUndefined,
    z
      .url()
      .refine((value) => ['http:', 'https:'].includes(protocolOf(value) ?? ''), {
        message: 'must use http: or https:',
      })
      .transform((value) => new URL(value).origin)
      .default(SITE.defaultOrigin),
  ),
  ODDS_SOURCE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(simulator|the-odds-api|replay:.+)$/, 'must be simulator, the-odds-api or replay:<path>')
      .default('simulator'),
  ),
  ODDS_API_KEY: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  SIM_SEED: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .default(42),
  ),
  TRUST_PROXY: booleanish,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** Extra origins allowed to call the public JSON routes cross-origin (comma separated). */
  CORS_ORIGINS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      ),
  ),
  /** Embedded database location (issue 3): unset = DATA_DIR/pglite; `memory://` keeps it in memory (tests). */
  PGLITE_DIR: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  /** PostgreSQL schema for every table (issue 3); tests isolate themselves with a unique one. */
  DATABASE_SCHEMA: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
      .default('public'),
  ),
  /** Prefix of every Redis key (issue 3). */
  REDIS_PREFIX: z.preprocess(emptyToUndefined, z.string().max(64).default('sharpline:')),
  /** Trial requests allowed per client address per hour, and per email address per day (issue 3). */
  TRIAL_LIMIT_PER_IP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(5)),
  TRIAL_LIMIT_PER_EMAIL: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(3)),
  /** Outbox worker (issue 3): poll period, claim lease, first retry delay (doubles per attempt), attempts before giving up. */
  OUTBOX_POLL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).default(1000)),
  OUTBOX_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).default(120_000)),
  OUTBOX_BACKOFF_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(2000)),
  OUTBOX_MAX_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(25)),
  /** Bearer token of the loopback admin routes (`npm run trials`); unset = DATA_DIR/admin-token, created at start. */
  ADMIN_TOKEN: z.preprocess(emptyToUndefined, z.string().min(24).optional()),
  /** Secret for hashing client addresses and sealing queued keys; unset = DATA_DIR/server-secret. Share it across instances. */
  SERVER_SECRET: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
  /** Arb feed: near-arbs are published down to this edge (percent, ≤ 0; DESIGN.md default −1). */
  ARB_FLOOR_PCT: z.preprocess(emptyToUndefined, z.coerce.number().min(-10).max(0).default(-1)),
  /** Arb feed: a price older than this is stale and never used (seconds, pre-match / live). */
  ARB_MAX_AGE_PREMATCH_S: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(3600).default(60)),
  ARB_MAX_AGE_LIVE_S: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(600).default(10)),
  /** Where the built site lives (tests point this at a fixture). */
  BUILD_DIR: z.preprocess(emptyToUndefined, z.string().min(1).default('./build/client')),
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string; buildDir: string };

export class ConfigError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  if (parsed.data.ODDS_SOURCE === 'the-odds-api' && !parsed.data.ODDS_API_KEY) {
    throw new ConfigError(['ODDS_API_KEY: required when ODDS_SOURCE is the-odds-api']);
  }
  return {
    ...parsed.data,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    buildDir: path.resolve(parsed.data.BUILD_DIR),
  };
}
