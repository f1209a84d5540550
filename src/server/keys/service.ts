import { getPlan, isPlanId, type Plan, type PlanId } from '#domain/plans.ts';
import type { Database } from '../db/database.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import { emailIdentity } from './email-identity.ts';
import { generateKey, hashKey, looksLikeKey } from './key-format.ts';
import {
  insertKey,
  keyByHash,
  keysByIds,
  keysByPrefix,
  newestKeys,
  revokeByPrefix,
  revokePredecessors,
  type KeyRow,
} from './repository.ts';

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

function toRecord(row: KeyRow, supersedes = false): ApiKeyRecord {
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
      rows = await revokePredecessors(this.db, key.ledgerId, key.id);
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
        const found = await keyByHash(this.db, hash);
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
    const row = await insertKey(this.db, {
      prefix: key.prefix,
      hash: key.hash,
      kind: 'paid',
      plan: args.planId,
      ownerEmail: args.email,
      ownerIdentity: emailIdentity(args.email),
      expiresAt: args.expiresAt ?? null,
    });
    this.unknown.delete(key.hash);
    return { plain: key.plain, record: toRecord(row) };
  }

  async list(limit = 200): Promise<ApiKeyRecord[]> {
    const rows = await newestKeys(this.db, limit);
    return rows.map((row) => toRecord(row));
  }

  /** Every key, active or not, whose public prefix is `prefix` (one, short of a 36-bit collision). */
  async byPrefix(prefix: string): Promise<ApiKeyRecord[]> {
    const rows = await keysByPrefix(this.db, prefix);
    return rows.map((row) => toRecord(row));
  }

  /** Revokes every active key whose public prefix is `prefix`; returns them. */
  async revoke(prefix: string): Promise<ApiKeyRecord[]> {
    const rows = await revokeByPrefix(this.db, prefix);
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
    const rows = await keysByIds(this.db, [...new Set(keys.map((key) => key.id))]);
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
