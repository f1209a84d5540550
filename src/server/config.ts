import path from 'node:path';
import { z } from 'zod';
import { FREE_PLAN, isPlanId, PLANS, type PlanId } from '#domain/plans.ts';
import { SITE } from '#domain/site.ts';
import { TrustProxySchema } from './http/trust-proxy.ts';

// Environment contract of docs/configuration.md. Parsed once at start; a bad value stops the server with a
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

/**
 * The base of a third-party API the server sends a secret to (a proxy, a mock, a test's stand-in): https, or http on
 * loopback only; no path (clients send their own paths from the root).
 */
const serviceUrl = (example: string) =>
  optionalUrl(['http:', 'https:']).refine(
    (value) => {
      if (value === undefined) return true;
      const url = new URL(value);
      const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
      return (url.protocol === 'https:' || loopback) && url.pathname === '/' && !url.search;
    },
    { message: `must be https (http only on loopback) with no path, e.g. ${example}` },
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
  /** The Odds API's base (default https://api.the-odds-api.com): a proxy, or a test's stand-in. The key travels to it. */
  ODDS_API_URL: serviceUrl('https://odds-proxy.internal'),
  /** The Odds API player props (decision 123): credits prop calls may spend over any 24 hours; 0 turns props off. */
  ODDS_API_PROPS_BUDGET: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).default(10_000)),
  /** Props are polled only while at least this many credits of the monthly quota remain (`x-requests-remaining`). */
  ODDS_API_PROPS_RESERVE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).default(10_000)),
  /** Props are polled for events starting within this many hours, and for live ones. */
  ODDS_API_PROPS_WINDOW_H: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(72).default(24)),
  /** At most this many prop calls (one event each) per polling cycle. */
  ODDS_API_PROPS_MAX_EVENTS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(100).default(8),
  ),
  /** The Odds API scores (decision 262): least seconds between two scores calls of a league (2 credits each); 0: off. */
  ODDS_API_SCORES_INTERVAL_S: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(3_600).default(60),
  ),
  SIM_SEED: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .default(42),
  ),
  /**
   * Whether the market simulator quotes player props beside the game lines (decision 122). On for the product; the
   * test configuration turns it off unless a test is about props (props multiply the markets six-fold and the
   * history's first flush with them).
   */
  SIM_PROPS: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('true')
      .transform((value) => value === 'true'),
  ),
  /**
   * The demo calendar's instant at the server's start (decision 230), an ISO 8601 instant with its offset or zone
   * (`2026-11-22T18:30:00Z`); absent: the clock's own time. Set, the simulator shows that moment's games (moving on
   * with the clock from there, each fixture's times shifted onto the clock), so a run shows the same board whenever it
   * starts: the browser tests and recordings pin it.
   */
  SIM_START: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .datetime({ offset: true, message: 'must be an ISO 8601 instant such as 2026-11-22T18:30:00Z' })
      .transform((value) => Date.parse(value))
      .optional(),
  ),
  /** Which X-Forwarded-For hops to believe: false, true (= 1 hop), a hop count, or proxy addresses/CIDRs (decision 011). */
  TRUST_PROXY: TrustProxySchema,
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
  /** Embedded database location (docs/decisions/020-024): unset = DATA_DIR/pglite; `memory://` keeps it in memory (tests). */
  PGLITE_DIR: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  /** PostgreSQL schema for every table (docs/decisions/020-024); tests isolate themselves with a unique one. */
  DATABASE_SCHEMA: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
      .default('public'),
  ),
  /**
   * What this process does (issue 19, decision 144): `all` (default) everything in one process; `ingest` the odds
   * source, engine and history writer, publishing to Redis Streams while it holds the leader lease; `api` the site
   * and the API, following the ingest leader's stream. `ingest` and `api` require REDIS_URL and DATABASE_URL.
   */
  ROLE: z.preprocess(emptyToUndefined, z.enum(['all', 'ingest', 'api']).default('all')),
  /**
   * ROLE=ingest: how long the leader lease lasts without a renewal (ms; renewed every fifth of it). A standby leads
   * within about this plus one renewal interval of the leader's death (decision 143).
   */
  LEADER_LEASE_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1_000).max(60_000).default(5_000),
  ),
  /** Prefix of every Redis key (docs/decisions/020-024). */
  REDIS_PREFIX: z.preprocess(emptyToUndefined, z.string().max(64).default('sharpline:')),
  /**
   * The site's public forms' limits (docs/decisions/020-024, 219): requests per client address per hour (a burst, then
   * one every hour/limit), requests per mailbox per day, and distinct mailboxes per client address per day. An office
   * or a carrier's shared address (CGNAT) holds many people, each with a mailbox of their own; a script cycling
   * addresses needs a new mailbox for every request.
   */
  TRIAL_LIMIT_PER_IP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(30)),
  TRIAL_LIMIT_PER_EMAIL: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(3)),
  TRIAL_MAILBOXES_PER_IP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(30)),
  /** Outbox worker (docs/decisions/020-024): poll period, claim lease, first retry delay (doubles per attempt), attempts before giving up. */
  OUTBOX_POLL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).default(1000)),
  OUTBOX_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).default(120_000)),
  OUTBOX_BACKOFF_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(2000)),
  OUTBOX_MAX_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(25)),
  /** Bearer token of the loopback admin routes (`npm run trials`); unset = DATA_DIR/admin-token, created at start. */
  ADMIN_TOKEN: z.preprocess(emptyToUndefined, z.string().min(24).optional()),
  /** Secret for hashing client addresses and sealing queued keys; unset = SECRETS_DIR/server-secret. Share it across instances. */
  SERVER_SECRET: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
  /** Where the server secret file lives when SERVER_SECRET is unset; unset = `<DATA_DIR>-secrets`, never inside DATA_DIR (decision 025). */
  SECRETS_DIR: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  /** A queued key not sent within this time is discarded and its email marked failed (decision 025). */
  OUTBOX_SEALED_TTL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).default(3_600_000)),
  /** Names this instance's outbox claims so that a restart releases them (decision 029); unset = `<hostname>:<PORT>`. */
  INSTANCE_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\x21-\x7e]{1,100}$/, 'must be 1-100 printable ASCII characters')
      .optional(),
  ),
  /** Arb feed: near-arbs are published down to this edge (percent, ≤ 0; docs/product.md §10 default −1). */
  ARB_FLOOR_PCT: z.preprocess(emptyToUndefined, z.coerce.number().min(-10).max(0).default(-1)),
  /** Arb feed: a price older than this is stale and never used (seconds, pre-match / live). */
  ARB_MAX_AGE_PREMATCH_S: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(3600).default(60)),
  ARB_MAX_AGE_LIVE_S: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(600).default(10)),
  /**
   * The public finder pages' feeds (GET /tools/ev.json, GET /tools/middles.json): how old their prices are, in
   * seconds. Default 120, the free tier's row of the plan table (decisions 163, 169, 211); /v1/ev and /v1/middles are
   * never older than this on any plan.
   */
  EV_PUBLIC_DELAY_S: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(600).default(FREE_PLAN.finders.valuesDelaySeconds),
  ),
  /** Arb feed: an arb above this edge (percent) is published with `suspect: true` (decision 046). */
  ARB_MAX_EDGE_PCT: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1000).default(10)),
  /** Ingestion: decimal odds outside [ODDS_MIN_DECIMAL, ODDS_MAX_DECIMAL] are dropped and counted (decision 046). */
  ODDS_MIN_DECIMAL: z.preprocess(emptyToUndefined, z.coerce.number().min(1.0001).max(2).default(1.001)),
  ODDS_MAX_DECIMAL: z.preprocess(emptyToUndefined, z.coerce.number().min(2).max(1_000_000).default(1001)),
  /** Odds history (decision 106): days of price changes kept; older day partitions are dropped. */
  HISTORY_RETENTION_DAYS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(3650).default(30),
  ),
  /**
   * Odds history: what its ticks may take on disk (GiB; fractions allowed). Past it, whole days are dropped oldest
   * first before their retention, never today's (decision 106); on the embedded database the oldest quarter-days are
   * emptied, never the current one (decision 279). Unset: 2 on the embedded database (a laptop's `npm start`), 20 on
   * PostgreSQL (decision 247; `loadConfig` resolves it).
   */
  HISTORY_MAX_GB: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1_000_000).optional()),
  /**
   * The default reference of fair probabilities (/v1/events/{id}/lines, /v1/clv, /v1/sgp), when a request names none
   * (decision 164): `sharp` (the median of the sharp books, SHARP_BOOKS in src/domain/sportsbooks.ts), `consensus` (the
   * median of every book) or a book's id (its own prices). Where it cannot give them, the consensus does and the
   * answer says why (a book no source carries, such as pinnacle, always falls back).
   */
  CLV_REFERENCE_BOOK: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9_]{1,64}$/, 'must be sharp, consensus or a sportsbook id such as circa')
      .default('sharp'),
  ),
  /** Odds history: price changes the write queue holds while the database is slow or away, before it drops batches. */
  HISTORY_QUEUE_MAX_CHANGES: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1000).max(50_000_000).default(1_000_000),
  ),
  /**
   * Odds history: whether this instance records the engine's changes (reads are served either way). Off for a
   * read-only instance, and for the bench's baseline.
   */
  HISTORY_RECORD: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('true')
      .transform((value) => value === 'true'),
  ),
  /**
   * Odds history: how price changes are stored (decision 240). `rows`: one price_ticks row per change (~89-260 bytes
   * a change). `blocks`: a series' changes over up to a minute (four, journaled, on an
   * embedded database on disk: decision 300) as one price_blocks row of delta-encoded columns (far fewer bytes and
   * inserts). Reads answer alike either way and read both tables: a switch keeps what was
   * written before it readable. Unset: `blocks` on the embedded database, `rows` on PostgreSQL (decision 277).
   */
  HISTORY_FORMAT: z.preprocess(
    emptyToUndefined,
    z.enum(['rows', 'blocks'], { message: 'must be rows or blocks' }).optional(),
  ),
  /** Odds history: how often gathered changes are handed to the writer (ms). */
  HISTORY_FLUSH_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(60_000).default(250)),
  /** Paid API: streams a key may open per minute; each open may cost a snapshot (decision 087). */
  STREAM_OPENS_PER_MINUTE: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(10_000).default(30),
  ),
  /**
   * Stream writes per turn of the event loop: a release to more streams continues on the next turns. Lower keeps the
   * loop freer for other requests at the cost of the streams' delivery (decision 139, docs/benchmarks.md).
   */
  STREAM_WRITES_PER_TURN: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  ),
  /** Where the built site lives (tests point this at a fixture). */
  BUILD_DIR: z.preprocess(emptyToUndefined, z.string().min(1).default('./build/client')),
  /** HTTP hygiene (decision 012): socket inactivity, idle keep-alive, whole request, request headers, open sockets. */
  CONNECTION_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(0)
      .refine(
        (ms) => ms === 0 || ms >= 15_000,
        'must be 0 (off) or at least 15000 (streams are quiet up to 10 s)',
      )
      .default(60_000),
  ),
  KEEP_ALIVE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(10_000)),
  REQUEST_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(30_000)),
  HEADERS_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(10_000)),
  MAX_CONNECTIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(10_000)),
  /**
   * SIGTERM/SIGINT: how long closing (streams, the history's last batch, the outbox, the database) may take before the
   * process exits with 1 anyway (issue 31: 10 s was not enough on a busy machine). Keep it below the orchestrator's
   * grace period before SIGKILL (Kubernetes 30 s, `docker stop` 10 s unless `-t`).
   */
  SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).default(25_000)),
  /**
   * V8 may let the heap grow to this many percent above what is live after a full GC (0: V8's own heuristics, which
   * on a large machine let an idle server hold several times its live data; docs/decisions/008).
   */
  HEAP_GROWTH_PCT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(400).default(10)),
  /**
   * The same while the public feed's compressed bytes are in demand (asked for within the last minute; decision 294).
   * 50 collects the whole heap far less often under the feed's load than 10, and, unlike 0 (V8's own heuristics, up
   * to several times the live data on a large machine), stays bounded when the feed is always read. Set it equal to
   * HEAP_GROWTH_PCT to keep one allowance at all times.
   */
  HEAP_GROWTH_FEED_PCT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(400).default(50)),
  /**
   * Whether V8 optimizes the heap for size while the public feed is not in demand (decision 301): its memory reducer
   * compacts the old space and gives back its free pages, and the young generation stays small, where by default the
   * old space keeps a reserve above its live part that grows all day. Off while the feed is in demand (decision 294's
   * allowance applies then, unchanged). Off by default: 60–100 MB less resident at idle, but about twice the CPU per
   * price change in side-by-side runs; for a machine short of memory rather than of CPU.
   */
  HEAP_FOR_SIZE: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
  ),
  /**
   * Whether V8 may allocate objects straight into the old space from the places in the code whose objects it saw
   * survive (allocation-site pretenuring; decision 313). Off by default: the simulator's, engine's and history's
   * per-update objects were pretenured (the start's first board keeps them all alive), so every price change's
   * objects became old-space garbage and the whole heap was marked every ~9 s; off, they die young. `true` is V8's own
   * behaviour.
   */
  HEAP_PRETENURING: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
  ),
  /** Billing (decision 142): Stripe's secret API key; unset, the webhook route answers 404 and nothing bills. */
  STRIPE_SECRET_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^(sk|rk)_(test|live)_[0-9A-Za-z]{8,}$/,
        'must be a Stripe secret or restricted key (sk_… or rk_…)',
      )
      .optional(),
  ),
  /** The webhook endpoint's signing secret (whsec_…); required with STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^whsec_[0-9A-Za-z+/=]{8,}$/, 'must be a webhook signing secret (whsec_…)')
      .optional(),
  ),
  /** Which plan each Stripe price sells, `price_id:plan,…`, when the Payment Link does not say (metadata.plan). */
  STRIPE_PRICE_PLANS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .transform((value, context) => {
        const plans: Record<string, PlanId> = {};
        for (const pair of value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)) {
          const [price, plan, extra] = pair.split(':').map((part) => part.trim());
          if (
            !price ||
            !plan ||
            extra !== undefined ||
            !/^price_[0-9A-Za-z_]+$/.test(price) ||
            !isPlanId(plan)
          ) {
            context.addIssue({
              code: 'custom',
              message: `"${pair}" is not price_id:plan with a plan among ${PLANS.map((p) => p.id).join(', ')}`,
            });
            return z.NEVER;
          }
          plans[price] = plan;
        }
        return plans;
      }),
  ),
  /**
   * Stripe's API base (default https://api.stripe.com): a stripe-mock, a proxy, or a test's stand-in. The secret key
   * travels to it: https, or http on loopback only; no path (the library sends /v1/… from the root).
   */
  STRIPE_API_URL: serviceUrl('https://stripe-proxy.internal:8443'),
  /**
   * Checkout (decision 151): an operator's Stripe Payment Link per plan (https). Set, the plan's "Choose" button goes
   * there; unset, POST /api/checkout creates a Checkout Session with the plan's price from STRIPE_PRICE_PLANS.
   */
  CHECKOUT_URL_STARTER: optionalUrl(['https:']),
  CHECKOUT_URL_PRO: optionalUrl(['https:']),
  CHECKOUT_URL_ELITE: optionalUrl(['https:']),
  CHECKOUT_URL_ENTERPRISE: optionalUrl(['https:']),
  /**
   * Stripe's customer-portal login link (https). Set, "Manage subscription" goes there; unset with STRIPE_SECRET_KEY,
   * the pricing page emails a one-time link that opens a Billing Portal session (decision 151).
   */
  SUBSCRIPTION_PORTAL_URL: optionalUrl(['https:']),
  /** Hours a key keeps working after its subscription's payment became late (past_due, unpaid). */
  BILLING_GRACE_HOURS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .min(0)
      .max(24 * 90)
      .default(72),
  ),
  /** Failed authentications per client address per minute before 429 (decision 013). */
  ADMIN_AUTH_FAILURES_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(10)),
  API_AUTH_FAILURES_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(20)),
});

/** HISTORY_MAX_GB when unset: what a laptop accepts for the embedded database, PostgreSQL's as before (decision 247). */
export const HISTORY_MAX_GB_EMBEDDED = 2;
export const HISTORY_MAX_GB_POSTGRES = 20;

/**
 * HISTORY_FORMAT when unset (decision 277): blocks on the embedded database (one process, ROLE=all: a block gathers up
 * to four minutes of a series' changes, journaled, decision 300), rows on PostgreSQL (a cluster's ingest leader writes a block a batch, decision 240).
 */
export const HISTORY_FORMAT_EMBEDDED = 'blocks';
export const HISTORY_FORMAT_POSTGRES = 'rows';

export type Config = Omit<z.infer<typeof ConfigSchema>, 'HISTORY_MAX_GB' | 'HISTORY_FORMAT'> & {
  HISTORY_MAX_GB: number;
  HISTORY_FORMAT: 'rows' | 'blocks';
  dataDir: string;
  buildDir: string;
  secretsDir: string;
};

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
  if (parsed.data.HEADERS_TIMEOUT_MS > parsed.data.REQUEST_TIMEOUT_MS) {
    throw new ConfigError(['HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS']);
  }
  if (parsed.data.ODDS_SOURCE === 'the-odds-api' && !parsed.data.ODDS_API_KEY) {
    throw new ConfigError(['ODDS_API_KEY: required when ODDS_SOURCE is the-odds-api']);
  }
  if (parsed.data.ROLE !== 'all') {
    const missing = (['REDIS_URL', 'DATABASE_URL'] as const).filter((name) => !parsed.data[name]);
    if (missing.length > 0) {
      throw new ConfigError(
        missing.map(
          (name) =>
            `${name}: required when ROLE is ${parsed.data.ROLE} (instances share the leader's changes through Redis and history through PostgreSQL)`,
        ),
      );
    }
  }
  if (parsed.data.STRIPE_SECRET_KEY && !parsed.data.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(['STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set']);
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  const secretsDir = path.resolve(parsed.data.SECRETS_DIR ?? `${dataDir}-secrets`);
  const inside = path.relative(dataDir, secretsDir);
  if (!inside || (!inside.startsWith('..') && !path.isAbsolute(inside))) {
    throw new ConfigError([
      'SECRETS_DIR: must be outside DATA_DIR (a copy of DATA_DIR must not hold the secret)',
    ]);
  }
  return {
    ...parsed.data,
    HISTORY_MAX_GB:
      parsed.data.HISTORY_MAX_GB ??
      (parsed.data.DATABASE_URL ? HISTORY_MAX_GB_POSTGRES : HISTORY_MAX_GB_EMBEDDED),
    HISTORY_FORMAT:
      parsed.data.HISTORY_FORMAT ??
      (parsed.data.DATABASE_URL ? HISTORY_FORMAT_POSTGRES : HISTORY_FORMAT_EMBEDDED),
    dataDir,
    buildDir: path.resolve(parsed.data.BUILD_DIR),
    secretsDir,
  };
}
