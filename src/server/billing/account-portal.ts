import type { FastifyBaseLogger } from 'fastify';
import { ROUTES, absoluteUrl } from '#domain/site.ts';
import type { Database } from '../db/database.ts';
import { queueEmail } from '../email/queue.ts';
import { describeError } from '../http/log-safe.ts';
import type { ApiKeyRecord } from '../keys/service.ts';
import type { Secrets } from '../secrets.ts';
import type { StripeSessions } from './stripe-sessions.ts';

// "Change plan or cancel" from the account page in one step (issue 56, decision 220): the key proves who the customer
// is, so POST /v1/me/portal opens a Stripe Billing Portal session of the key's own Stripe customer at once, returning
// to /account, and emails the key's owner a notice that it was opened (anyone holding the key can do this, as they
// can rotate it). No address is typed and no one-time link is mailed, unlike the pricing page's form (decision 151).

export type PortalOpening =
  | { ok: true; url: string; openedAt: Date }
  /** `no-customer`: a trial key, or a key the operators made; `unavailable`: no Stripe here; `stripe`: Stripe failed. */
  | { ok: false; reason: 'no-customer' | 'unavailable' | 'stripe' };

export class AccountPortal {
  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
    private readonly siteUrl: string,
    /** Null without STRIPE_SECRET_KEY. */
    private readonly sessions: StripeSessions | null,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    /** Told after the notice was queued (kick the outbox). */
    private readonly onQueued: () => void,
  ) {}

  async open(key: ApiKeyRecord): Promise<PortalOpening> {
    if (!key.stripeCustomerId) return { ok: false, reason: 'no-customer' };
    if (!this.sessions) return { ok: false, reason: 'unavailable' };
    let url: string;
    try {
      url = await this.sessions.createPortal(key.stripeCustomerId, absoluteUrl(this.siteUrl, ROUTES.account));
    } catch (error) {
      this.log.warn({ key: key.prefix, error: describeError(error) }, 'billing portal session not created');
      return { ok: false, reason: 'stripe' };
    }
    const openedAt = new Date(this.now());
    // Queued after the session exists: the notice tells of what happened. To the key's own address.
    await this.db.transaction((tx) =>
      queueEmail(tx, this.secrets, this.siteUrl, {
        kind: 'billing-portal-opened',
        to: key.ownerEmail,
        payload: { keyPrefix: key.prefix, plan: key.plan.id, openedAt: openedAt.toISOString() },
        apiKeyId: key.id,
      }),
    );
    this.onQueued();
    return { ok: true, url, openedAt };
  }
}
