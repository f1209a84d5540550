import { createHash } from 'node:crypto';
import { and, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { TRIAL } from '#domain/plans.ts';
import type { TrialRequest } from '#domain/schemas/trial-request.ts';
import type { Database } from '../db/database.ts';
import { trialRequests, type EmailKind, type EmailPayload } from '../db/schema.ts';
import { generateKey } from '../keys/key-format.ts';
import { insertTrialKey, keysByIds, keysOfMailbox, latestTrialKeyOf } from '../keys/repository.ts';
import { lockMailbox } from '../keys/mailbox-lock.ts';
import { issueSuccessor, type Retire } from '../keys/successor.ts';
import { queueEmail, type QueueArgs, type Tx } from '../email/queue.ts';
import {
  emailsOfMailbox,
  emailStatusOfTrialRequests,
  keyEmailDelivered,
  retryQueuedEmails,
} from '../email/repository.ts';
import type { Secrets } from '../secrets.ts';
import { emailIdentity } from '../keys/email-identity.ts';

// Trial requests: one transaction stores the request, issues the trial key (or not) and queues the email.
// Rules (docs/product.md §12; docs/decisions/021, 026, 028, 217): a key lives 7 days with the Pro plan's limits; one
// trial per mailbox identity (emailIdentity). A new request while the trial is active emails a successor key (keys are
// stored only as hashes, so the key sent earlier cannot be sent again): the key already delivered keeps working until
// the new one is first used, so someone typing another's address cannot cut them off (decision 026); a key whose email
// was lost (failed, or its sealed copy expired) is revoked at once, since nobody can hold it. After the trial ended,
// the request is refused by an email saying why. The answer is the same in every case (decision 217).

export type TrialOutcome = 'issued' | 'resent' | 'rotated' | 'refused' | 'duplicate';

/** A repeat of the same payload for the same address within this window is the same submission. */
export const DUPLICATE_WINDOW_SECONDS = 10;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function payloadHash(request: TrialRequest): string {
  const fields = [
    request.name,
    // The spelling counts here: another spelling of the same mailbox is another submission, stored as such.
    normaliseEmail(request.email),
    request.company,
    request.useCase,
    request.expectedVolume,
    request.message,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** The columns of a trial request the operators' listings show. */
const REQUEST_SUMMARY = {
  id: trialRequests.id,
  receivedAt: trialRequests.receivedAt,
  email: trialRequests.email,
  name: trialRequests.name,
  company: trialRequests.company,
  status: trialRequests.status,
};

export class TrialService {
  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
    private readonly siteUrl: string,
  ) {}

  private queueEmail(tx: Tx, args: QueueArgs) {
    return queueEmail(tx, this.secrets, this.siteUrl, args);
  }

  /** Serialises work on one mailbox identity across connections and instances (released at commit). */
  private async lockIdentity(tx: Tx, identity: string) {
    await lockMailbox(tx, identity);
  }

  /** Issues a trial key for `email` that expires at `expiresAt`; the plain key leaves only through the email. */
  private async insertTrialKey(tx: Tx, email: string, expiresAt: Date | SQL) {
    const key = generateKey('trial');
    const row = await insertTrialKey(tx, {
      prefix: key.prefix,
      hash: key.hash,
      plan: TRIAL.planId,
      ownerEmail: email,
      ownerIdentity: emailIdentity(email),
      expiresAt,
    });
    return { key, id: row.id, expiresAt: row.expiresAt };
  }

  /**
   * The successor of the trial key `id` (same expiry, never extended; same usage line): the old key is revoked `now`,
   * or works until the new one is first used.
   */
  private async successor(tx: Tx, id: number, retire: Retire) {
    const [old] = await keysByIds(tx, [id]);
    return issueSuccessor(tx, old!, retire);
  }

  async submit(
    request: TrialRequest,
    clientAddress: string,
  ): Promise<{ outcome: TrialOutcome; requestId?: number; emailId?: number }> {
    // The email goes to the address as typed; the rules count its mailbox identity.
    const email = request.email.trim();
    const identity = emailIdentity(email);
    const hash = payloadHash(request);
    return this.db.transaction(async (tx) => {
      await this.lockIdentity(tx, identity);
      const duplicate = await tx
        .select({ id: trialRequests.id })
        .from(trialRequests)
        .where(
          and(
            eq(trialRequests.emailIdentity, identity),
            eq(trialRequests.payloadHash, hash),
            gt(trialRequests.receivedAt, sql`now() - make_interval(secs => ${DUPLICATE_WINDOW_SECONDS})`),
          ),
        )
        .limit(1);
      if (duplicate.length > 0) return { outcome: 'duplicate' as const, requestId: duplicate[0]!.id };

      const latest = await latestTrialKeyOf(tx, identity);
      // Whether anyone can hold it: an email carrying it was sent, or one still holds its sealed copy.
      const delivered = latest ? await keyEmailDelivered(tx, latest.id) : false;
      let outcome: Exclude<TrialOutcome, 'duplicate'>;
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
        // The key sent earlier cannot be sent again (only its hash is stored): a successor is. A delivered key keeps
        // working until the new one is first used (anyone can type anyone's address); one nobody can hold goes now.
        outcome = delivered ? 'resent' : 'rotated';
        const { key, row } = await this.successor(tx, latest.id, delivered ? 'on-first-use' : 'now');
        keyId = row.id;
        plainKey = key.plain;
        payload = {
          keyPrefix: key.prefix,
          previousPrefix: latest.prefix,
          expiresAt: latest.expiresAt.toISOString(),
          plan: TRIAL.planId,
          ...(delivered ? { previousUntilFirstUse: true } : {}),
        };
      } else {
        outcome = 'refused';
        // When it ended: its expiry, or when it was revoked (by an operator, say) if sooner.
        const ended = [latest.expiresAt, latest.revokedAt]
          .filter((at) => at !== null)
          .sort((a, b) => a.getTime() - b.getTime())[0];
        payload = { expiresAt: ended?.toISOString() };
      }

      const [stored] = await tx
        .insert(trialRequests)
        .values({
          name: request.name,
          email,
          emailIdentity: identity,
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
          // Both kinds of successor are stored as `rotated` (the column's values predate `resent`).
          status: outcome === 'resent' ? 'rotated' : outcome,
          apiKeyId: keyId,
        })
        .returning({ id: trialRequests.id });
      const requestId = stored!.id;
      // A key goes only to the address its trial was issued to (another spelling may be another mailbox elsewhere).
      const to = outcome === 'resent' || outcome === 'rotated' ? latest!.ownerEmail : email;
      const kinds: Record<typeof outcome, EmailKind> = {
        issued: 'trial-issued',
        resent: 'trial-key-again',
        rotated: 'trial-rotated',
        refused: 'trial-refused',
      };
      const emailId = await this.queueEmail(tx, {
        kind: kinds[outcome],
        to,
        payload,
        key: plainKey,
        apiKeyId: keyId ?? undefined,
        trialRequestId: requestId,
      });
      return { outcome, requestId, emailId };
    });
  }

  /** The latest trial requests with their key and email status, newest first (`npm run trials -- list`). */
  async recent(limit: number) {
    const requests = await this.db
      .select({ ...REQUEST_SUMMARY, apiKeyId: trialRequests.apiKeyId })
      .from(trialRequests)
      .orderBy(desc(trialRequests.id))
      .limit(limit);
    const ids = (rows: { apiKeyId: number | null }[]) =>
      rows.flatMap((row) => (row.apiKeyId === null ? [] : [row.apiKeyId]));
    const [keys, emailStatus] = await Promise.all([
      keysByIds(this.db, ids(requests)),
      emailStatusOfTrialRequests(
        this.db,
        requests.map((request) => request.id),
      ),
    ]);
    const keyOf = new Map(keys.map((key) => [key.id, key]));
    return requests.map(({ apiKeyId, ...request }) => {
      const key = apiKeyId === null ? undefined : keyOf.get(apiKeyId);
      return {
        ...request,
        keyPrefix: key?.prefix ?? null,
        keyExpiresAt: key?.expiresAt ?? null,
        emailStatus: emailStatus.get(request.id) ?? null,
      };
    });
  }

  /**
   * Everything stored about one mailbox identity (docs/decisions/028), newest first: `show a+x@gmail.com` shows every
   * spelling that counts as it. Keys created by operators match by their exact (normalised) address too.
   */
  async mailbox(rawEmail: string) {
    const email = emailIdentity(rawEmail);
    const [requests, keys, emails] = await Promise.all([
      this.db
        .select({
          ...REQUEST_SUMMARY,
          referrer: trialRequests.referrer,
          clientIpHash: trialRequests.clientIpHash,
        })
        .from(trialRequests)
        .where(eq(trialRequests.emailIdentity, email))
        .orderBy(desc(trialRequests.id)),
      keysOfMailbox(this.db, email, normaliseEmail(rawEmail)),
      emailsOfMailbox(this.db, email),
    ]);
    return { email, requests, keys, emails };
  }

  /**
   * Operators' "I never got my key", and the one way to rotate a key (docs/decisions/026): an email still queued with
   * everything it needs is retried now; otherwise an active trial gets a new key (the old one revoked, same expiry)
   * by email. Keys are stored only as hashes, so an old key cannot be sent again.
   */
  async resend(
    rawEmail: string,
  ): Promise<{ action: 'retried' | 'rotated' | 'none'; emailId?: number; detail: string }> {
    const identity = emailIdentity(rawEmail);
    return this.db.transaction(async (tx) => {
      await this.lockIdentity(tx, identity);
      const retried = await retryQueuedEmails(tx, identity);
      if (retried.length > 0) {
        return {
          action: 'retried' as const,
          emailId: retried[0]!,
          detail: `${retried.length} queued email(s) will be sent now`,
        };
      }
      const latest = await latestTrialKeyOf(tx, identity);
      if (!latest?.active || !latest.expiresAt) {
        return {
          action: 'none' as const,
          detail: latest ? 'the trial has ended; nothing to resend' : 'no trial for this address',
        };
      }
      const { key, row } = await this.successor(tx, latest.id, 'now');
      const id = row.id;
      const emailId = await this.queueEmail(tx, {
        kind: 'trial-resent',
        to: latest.ownerEmail,
        payload: {
          keyPrefix: key.prefix,
          previousPrefix: latest.prefix,
          expiresAt: latest.expiresAt.toISOString(),
          plan: TRIAL.planId,
        },
        key: key.plain,
        apiKeyId: id,
      });
      return {
        action: 'rotated' as const,
        emailId,
        detail: `new key ${key.prefix}… queued; ${latest.prefix}… revoked`,
      };
    });
  }
}
