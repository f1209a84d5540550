import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { getPlan, isPlanId, type Plan, type PlanId } from '#domain/plans.ts';
import type { Database } from '../db/database.ts';
import { apiKeys } from '../db/schema.ts';
import { emailIdentity } from '../trials/email-identity.ts';
import { TtlCache } from './ttl-cache.ts';

// API keys, paid and trial: `sl_<kind>_<32 base62 chars>` (190 bits of randomness). Only the SHA-256 hash and a short
// public prefix are stored; the plain key is shown once. The trial service issues trial keys with `generateKey`.

export type KeyKind = 'trial' | 'live';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
/** Characters of the random body kept in the public prefix (about 36 bits: enough for support, useless to guess). */
const PREFIX_BODY_CHARS = 6;
const KEY_PATTERN = /^sl_(trial|live)_([0-9A-Za-z]{32})$/;

export interface GeneratedKey {
  /** The secret. Goes into the email and nowhere else. */
  plain: string;
  prefix: string;
  hash: string;
}

/** Uniform base62 characters by rejection sampling (no modulo bias). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes at or above it would favour the first characters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateKey(kind: KeyKind): GeneratedKey {
  const plain = `sl_${kind}_${randomBase62(BODY_LENGTH)}`;
  return { plain, prefix: keyPrefix(plain), hash: hashKey(plain) };
}

export function keyPrefix(plain: string): string {
  const match = KEY_PATTERN.exec(plain);
  if (!match) throw new Error('Not an API key');
  return `sl_${match[1]}_${match[2]!.slice(0, PREFIX_BODY_CHARS)}`;
}

/** Hex SHA-256; keys carry enough entropy that a slow hash adds nothing. */
export function hashKey(plain: string): string {
  return createHash('sha256').update(plain, 'utf8').digest('hex');
}

export function looksLikeKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** Constant-time comparison of a presented key with a stored hash. */
export function verifyKey(plain: string, storedHash: string): boolean {
  const presented = Buffer.from(hashKey(plain), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** Finds key-shaped substrings, so that tests and log checks can prove a key never leaked. */
export const KEY_IN_TEXT = /sl_(?:trial|live)_[0-9A-Za-z]{32}/g;

// Stored keys as the odds API sees them: lookup by SHA-256 (the table of docs/decisions/020-024), a short in-process
// cache so that a hot key costs no query per request, creation and revocation for operators, and a listener hook so
// that open streams of a revoked key close at once on this instance (other instances re-check every few seconds).

export type BillingHoldReason = 'past_due' | 'unpaid' | 'paused';

export interface ApiKeyRecord {
  id: number;
  prefix: string;
  kind: 'trial' | 'paid';
  plan: Plan;
  ownerEmail: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Paid keys from a Stripe checkout (decision 142). */
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  /** The subscription's payment holds the key: it stops once the hold is older than the grace period. */
  billingHold: { reason: BillingHoldReason; since: Date } | null;
  /** The key whose SGP credits ledger this one uses: the first of its rotated line (itself when never rotated). */
  ledgerId: number;
  replacedBy: number | null;
  /**
   * An earlier key of its line still works, because this key came from "Lost your key?": the first request with this
   * key revokes it (decision 142).
   */
  supersedes: boolean;
}

export type KeyProblemReason = 'missing' | 'malformed' | 'unknown' | 'expired' | 'revoked' | 'suspended';

export type KeyCheck =
  { ok: true; key: ApiKeyRecord } | { ok: false; reason: KeyProblemReason; key?: ApiKeyRecord };

type Row = typeof apiKeys.$inferSelect;

function toRecord(row: Row, supersedes = false): ApiKeyRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    kind: row.kind,
    plan: getPlan(isPlanId(row.plan) ? row.plan : 'starter'),
    ownerEmail: row.ownerEmail,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    stripeCustomerId: row.stripeCustomerId,
    stripeSubscriptionId: row.stripeSubscriptionId,
    billingHold:
      row.billingHold && row.billingHoldSince
        ? { reason: row.billingHold, since: row.billingHoldSince }
        : null,
    ledgerId: row.ledgerKeyId ?? row.id,
    replacedBy: row.replacedBy,
    supersedes,
  };
}

/** BILLING_GRACE_HOURS' default: how long a key keeps working after its subscription's payment became late. */
export const DEFAULT_BILLING_GRACE_MS = 72 * 3_600_000;

/** When a held key stops working: after the grace period for late payment, at once for a paused subscription. */
export function suspendedFrom(hold: NonNullable<ApiKeyRecord['billingHold']>, graceMs: number): number {
  return hold.since.getTime() + (hold.reason === 'paused' ? 0 : graceMs);
}

/** Whether a stored key may be used at `now`. */
export function checkRecord(key: ApiKeyRecord, now: number, graceMs = DEFAULT_BILLING_GRACE_MS): KeyCheck {
  if (key.revokedAt) return { ok: false, reason: 'revoked', key };
  if (key.expiresAt && key.expiresAt.getTime() <= now) return { ok: false, reason: 'expired', key };
  if (key.billingHold && suspendedFrom(key.billingHold, graceMs) <= now)
    return { ok: false, reason: 'suspended', key };
  return { ok: true, key };
}

export type RevokeOrigin = 'local' | 'remote';

/**
 * What happened to some keys, told to listeners (streams, the Redis bus): revoked; their plan changed (streams reopen
 * on the new plan); or their billing hold changed (the next request reads it).
 */
export type KeyChangeKind = 'revoked' | 'plan-changed' | 'billing';

export interface KeyChange {
  ids: number[];
  origin: RevokeOrigin;
  kind: KeyChangeKind;
}

export interface ApiKeyServiceOptions {
  /** How long a lookup is trusted before the database is asked again (revocation by another instance). */
  cacheMs?: number;
  /** How long an unknown key stays unknown without asking the database again (default 5 s; decision 013). */
  negativeCacheMs?: number;
  /** Entries of each cache (known keys, unknown keys); the least recently used goes first. */
  cacheEntries?: number;
  /** BILLING_GRACE_HOURS in milliseconds (default 72 hours). */
  billingGraceMs?: number;
  now?: () => number;
}

export class ApiKeyService {
  // Known and unknown keys are cached apart, so that a flood of unknown keys never evicts the keys in use.
  private readonly known: TtlCache<string, ApiKeyRecord>;
  private readonly unknown: TtlCache<string, true>;
  /** Lookups in flight: concurrent requests with one key share one query. */
  private readonly pending = new Map<string, Promise<ApiKeyRecord | null>>();
  /** Bumped by every revocation: a lookup that started before one is not cached. */
  private generation = 0;
  private readonly listeners = new Set<(change: KeyChange) => void>();
  private readonly cacheMs: number;
  readonly billingGraceMs: number;
  private readonly negativeCacheMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Database,
    options: ApiKeyServiceOptions = {},
  ) {
    this.cacheMs = options.cacheMs ?? 2_000;
    this.negativeCacheMs = options.negativeCacheMs ?? 5_000;
    this.now = options.now ?? Date.now;
    this.billingGraceMs = options.billingGraceMs ?? DEFAULT_BILLING_GRACE_MS;
    this.known = new TtlCache(options.cacheEntries ?? 50_000);
    this.unknown = new TtlCache(options.cacheEntries ?? 50_000);
  }

  /** Checks a presented key. Never throws for bad input; database errors propagate (→ 500). */
  async authenticate(presented: string | undefined): Promise<KeyCheck> {
    if (presented === undefined || presented === '') return { ok: false, reason: 'missing' };
    if (!looksLikeKey(presented)) return { ok: false, reason: 'malformed' };
    const hash = hashKey(presented);
    const now = this.now();
    let record: ApiKeyRecord | null | undefined = this.known.get(hash, now);
    if (record === undefined && this.unknown.get(hash, now)) record = null;
    if (record === undefined) record = await this.lookup(hash);
    if (!record) return { ok: false, reason: 'unknown' };
    const check = checkRecord(record, now, this.billingGraceMs);
    if (check.ok && record.supersedes) await this.retirePredecessors(record);
    return check;
  }

  /**
   * The first request with a key from "Lost your key?" revokes the earlier keys of its line (decision 142). A failure
   * fails nothing: the key is valid, and the next request tries again.
   */
  private async retirePredecessors(key: ApiKeyRecord): Promise<void> {
    let rows: { id: number }[];
    try {
      rows = await this.db
        .update(apiKeys)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            sql`coalesce(${apiKeys.ledgerKeyId}, ${apiKeys.id}) = ${key.ledgerId}`,
            sql`${apiKeys.id} < ${key.id}`,
            isNotNull(apiKeys.replacedBy),
            isNull(apiKeys.revokedAt),
          ),
        )
        .returning({ id: apiKeys.id });
    } catch {
      return;
    }
    key.supersedes = false;
    this.changed(
      rows.map((row) => row.id),
      'local',
      'revoked',
    );
  }

  private lookup(hash: string): Promise<ApiKeyRecord | null> {
    const inFlight = this.pending.get(hash);
    if (inFlight) return inFlight;
    const generation = this.generation;
    const query = (async () => {
      try {
        const [found] = await this.db
          .select({
            row: apiKeys,
            // Plain SQL names: the outer table is unaliased, the subquery's is `p`.
            supersedes: sql<boolean>`EXISTS (SELECT 1 FROM api_keys p WHERE p.replaced_by = api_keys.id
              AND p.revoked_at IS NULL)`,
          })
          .from(apiKeys)
          .where(eq(apiKeys.hash, hash))
          .limit(1);
        const record = found ? toRecord(found.row, found.supersedes) : null;
        if (generation === this.generation) {
          const now = this.now();
          if (record) this.known.set(hash, record, now + this.cacheMs);
          else this.unknown.set(hash, true, now + this.negativeCacheMs);
        }
        return record;
      } finally {
        this.pending.delete(hash);
      }
    })();
    this.pending.set(hash, query);
    return query;
  }

  async create(args: { planId: PlanId; email: string; expiresAt?: Date | null }) {
    const key = generateKey('live');
    const [row] = await this.db
      .insert(apiKeys)
      .values({
        prefix: key.prefix,
        hash: key.hash,
        kind: 'paid',
        plan: args.planId,
        ownerEmail: args.email,
        ownerIdentity: emailIdentity(args.email),
        expiresAt: args.expiresAt ?? null,
      })
      .returning();
    this.unknown.delete(key.hash);
    return { plain: key.plain, record: toRecord(row!) };
  }

  async list(limit = 200): Promise<ApiKeyRecord[]> {
    const rows = await this.db.select().from(apiKeys).orderBy(desc(apiKeys.id)).limit(limit);
    return rows.map((row) => toRecord(row));
  }

  /** Every key, active or not, whose public prefix is `prefix` (one, short of a 36-bit collision). */
  async byPrefix(prefix: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.select().from(apiKeys).where(eq(apiKeys.prefix, prefix)).orderBy(apiKeys.id);
    return rows.map((row) => toRecord(row));
  }

  /** Revokes every active key whose public prefix is `prefix`; returns them. */
  async revoke(prefix: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt)))
      .returning();
    const records = rows.map((row) => toRecord(row));
    if (records.length > 0)
      this.changed(
        records.map((record) => record.id),
        'local',
        'revoked',
      );
    return records;
  }

  /**
   * Keys changed here ('local', after the commit) or on another instance ('remote', told through Redis): forgets
   * every cached lookup, so the next request with such a key reads the database, and tells the listeners (streams
   * close, the Redis bus publishes local changes).
   */
  changed(ids: number[], origin: RevokeOrigin, kind: KeyChangeKind): void {
    if (ids.length === 0) return;
    this.generation += 1;
    this.pending.clear();
    this.known.clear();
    for (const listener of this.listeners) listener({ ids, origin, kind });
  }

  /**
   * The open streams' periodic re-check: of the given keys (with the plan their streams run on), those no longer
   * usable (revoked, expired, or suspended by billing) and those whose plan changed, read from the database and judged
   * at this service's clock, as `authenticate` judges them. The fallback for a lost Redis message (decision 142).
   */
  async recheckStreams(
    keys: readonly { id: number; planId: string }[],
  ): Promise<{ id: number; reason: 'revoked' | 'expired' | 'suspended' | 'plan-changed' }[]> {
    if (keys.length === 0) return [];
    const rows = await this.db
      .select()
      .from(apiKeys)
      .where(inArray(apiKeys.id, [...new Set(keys.map((key) => key.id))]));
    const planOf = new Map(keys.map((key) => [key.id, key.planId]));
    const now = this.now();
    const gone: { id: number; reason: 'revoked' | 'expired' | 'suspended' | 'plan-changed' }[] = [];
    for (const row of rows) {
      const check = checkRecord(toRecord(row), now, this.billingGraceMs);
      if (!check.ok) gone.push({ id: row.id, reason: check.reason as 'revoked' | 'expired' | 'suspended' });
      else if (row.plan !== planOf.get(row.id)) gone.push({ id: row.id, reason: 'plan-changed' });
    }
    return gone;
  }

  onChange(listener: (change: KeyChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    apiKeys: ApiKeyService;
  }
}

export const apiKeysPlugin = fp(
  async (app: FastifyInstance, options: ApiKeyServiceOptions) => {
    app.decorate('apiKeys', new ApiKeyService(app.db, options));
  },
  { name: 'api-keys', dependencies: ['db'] },
);
