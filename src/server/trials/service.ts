import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { TRIAL } from '#domain/plans.ts';
import type { TrialRequest } from '#domain/schemas/trial-request.ts';
import type { Database } from '../db/database.ts';
import { apiKeys, emailOutbox, trialRequests, type EmailKind, type EmailPayload } from '../db/schema.ts';
import { generateKey } from '../keys/keys.ts';
import type { Secrets } from '../lib/secrets.ts';

// Trial requests: one transaction stores the request, issues or rotates the trial key and queues the email.
// Rules (DESIGN.md, issue 3): a key lives 7 days with the Pro plan's limits; a new request while the trial is active
// rotates the key (old one revoked, same expiry); after the trial ended, the request is refused by email.

export type TrialOutcome = 'issued' | 'rotated' | 'refused' | 'duplicate';

/** A repeat of the same payload for the same address within this window is the same submission. */
export const DUPLICATE_WINDOW_SECONDS = 10;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function payloadHash(request: TrialRequest): string {
  const fields = [
    request.name,
    normaliseEmail(request.email),
    request.company,
    request.useCase,
    request.expectedVolume,
    request.message,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

export function newMessageId(siteUrl: string): string {
  return `<${randomUUID()}@${new URL(siteUrl).hostname || 'sharpline.io'}>`;
}

interface QueueArgs {
  kind: EmailKind;
  to: string;
  payload: EmailPayload;
  key?: string;
  trialRequestId?: number;
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

export class TrialService {
  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
    private readonly siteUrl: string,
  ) {}

  private async queueEmail(tx: Tx, args: QueueArgs) {
    const messageId = newMessageId(this.siteUrl);
    const [row] = await tx
      .insert(emailOutbox)
      .values({
        kind: args.kind,
        toAddress: args.to,
        payload: args.payload,
        sealedSecret: args.key ? this.secrets.seal(args.key, messageId) : null,
        messageId,
        trialRequestId: args.trialRequestId ?? null,
      })
      .returning({ id: emailOutbox.id });
    return row!.id;
  }

  /** Serialises work on one address across connections and instances (released at commit). */
  private async lockAddress(tx: Tx, email: string) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`trial:${email}`}, 0))`);
  }

  private async latestTrialKey(tx: Tx, email: string) {
    const [latest] = await tx
      .select({
        id: apiKeys.id,
        prefix: apiKeys.prefix,
        expiresAt: apiKeys.expiresAt,
        active: sql<boolean>`(${apiKeys.revokedAt} IS NULL AND ${apiKeys.expiresAt} > now())`,
      })
      .from(apiKeys)
      .where(and(eq(apiKeys.ownerEmail, email), eq(apiKeys.kind, 'trial')))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(1);
    return latest;
  }

  /** Issues a trial key for `email` that expires at `expiresAt`; the plain key leaves only through the email. */
  private async insertTrialKey(tx: Tx, email: string, expiresAt: Date | SQL) {
    const key = generateKey('trial');
    const [row] = await tx
      .insert(apiKeys)
      .values({
        prefix: key.prefix,
        hash: key.hash,
        kind: 'trial',
        plan: TRIAL.planId,
        ownerEmail: email,
        expiresAt,
      })
      .returning({ id: apiKeys.id, expiresAt: apiKeys.expiresAt });
    return { key, id: row!.id, expiresAt: row!.expiresAt! };
  }

  /** Revokes `previousId` and issues a key with the same expiry (never extended). */
  private async rotate(tx: Tx, email: string, previousId: number, expiresAt: Date) {
    await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(eq(apiKeys.id, previousId));
    return this.insertTrialKey(tx, email, expiresAt);
  }

  async submit(
    request: TrialRequest,
    clientAddress: string,
  ): Promise<{ outcome: TrialOutcome; requestId?: number; emailId?: number }> {
    const email = normaliseEmail(request.email);
    const hash = payloadHash(request);
    return this.db.transaction(async (tx) => {
      await this.lockAddress(tx, email);
      const duplicate = await tx
        .select({ id: trialRequests.id })
        .from(trialRequests)
        .where(
          and(
            eq(trialRequests.email, email),
            eq(trialRequests.payloadHash, hash),
            gt(trialRequests.receivedAt, sql`now() - make_interval(secs => ${DUPLICATE_WINDOW_SECONDS})`),
          ),
        )
        .limit(1);
      if (duplicate.length > 0) return { outcome: 'duplicate' as const, requestId: duplicate[0]!.id };

      const latest = await this.latestTrialKey(tx, email);
      let outcome: 'issued' | 'rotated' | 'refused';
      let keyId: number | null = null;
      let plainKey: string | undefined;
      let payload: EmailPayload;
      if (!latest) {
        outcome = 'issued';
        const issued = await this.insertTrialKey(
          tx,
          email,
          sql`now() + make_interval(days => ${TRIAL.days})`,
        );
        keyId = issued.id;
        plainKey = issued.key.plain;
        payload = {
          keyPrefix: issued.key.prefix,
          expiresAt: issued.expiresAt.toISOString(),
          plan: TRIAL.planId,
        };
      } else if (latest.active && latest.expiresAt) {
        outcome = 'rotated';
        const { key, id } = await this.rotate(tx, email, latest.id, latest.expiresAt);
        keyId = id;
        plainKey = key.plain;
        payload = {
          keyPrefix: key.prefix,
          previousPrefix: latest.prefix,
          expiresAt: latest.expiresAt.toISOString(),
          plan: TRIAL.planId,
        };
      } else {
        outcome = 'refused';
        payload = { expiresAt: latest.expiresAt?.toISOString() };
      }

      const [stored] = await tx
        .insert(trialRequests)
        .values({
          name: request.name,
          email,
          company: request.company,
          useCase: request.useCase,
          expectedVolume: request.expectedVolume,
          message: request.message,
          clientTimestamp: request.timestamp,
          userAgent: request.userAgent,
          referrer: request.referrer,
          promotekitReferral: request.promotekit_referral ?? null,
          clientIpHash: this.secrets.hashAddress(clientAddress),
          payloadHash: hash,
          status: outcome,
          apiKeyId: keyId,
        })
        .returning({ id: trialRequests.id });
      const requestId = stored!.id;
      const kind: EmailKind =
        outcome === 'issued' ? 'trial-issued' : outcome === 'rotated' ? 'trial-rotated' : 'trial-refused';
      const emailId = await this.queueEmail(tx, {
        kind,
        to: email,
        payload,
        key: plainKey,
        trialRequestId: requestId,
      });
      return { outcome, requestId, emailId };
    });
  }

  /**
   * Operators' "I never got my key": an email still queued is retried now; otherwise an active trial gets a new key
   * (rotation, same expiry) by email. Keys are stored only as hashes, so an old key cannot be sent again.
   */
  async resend(
    rawEmail: string,
  ): Promise<{ action: 'retried' | 'rotated' | 'none'; emailId?: number; detail: string }> {
    const email = normaliseEmail(rawEmail);
    return this.db.transaction(async (tx) => {
      await this.lockAddress(tx, email);
      const retried = await tx
        .update(emailOutbox)
        .set({ status: 'pending', nextAttemptAt: sql`now()`, attempts: 0 })
        .where(and(eq(emailOutbox.toAddress, email), sql`${emailOutbox.status} IN ('pending', 'failed')`))
        .returning({ id: emailOutbox.id });
      if (retried.length > 0) {
        return {
          action: 'retried' as const,
          emailId: retried[0]!.id,
          detail: `${retried.length} queued email(s) will be sent now`,
        };
      }
      const latest = await this.latestTrialKey(tx, email);
      if (!latest?.active || !latest.expiresAt) {
        return {
          action: 'none' as const,
          detail: latest ? 'the trial has ended; nothing to resend' : 'no trial for this address',
        };
      }
      const { key } = await this.rotate(tx, email, latest.id, latest.expiresAt);
      const emailId = await this.queueEmail(tx, {
        kind: 'trial-resent',
        to: email,
        payload: {
          keyPrefix: key.prefix,
          previousPrefix: latest.prefix,
          expiresAt: latest.expiresAt.toISOString(),
          plan: TRIAL.planId,
        },
        key: key.plain,
      });
      return {
        action: 'rotated' as const,
        emailId,
        detail: `new key ${key.prefix}… queued; ${latest.prefix}… revoked`,
      };
    });
  }
}
