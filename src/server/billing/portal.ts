import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BILLING_PATHS,
  MANAGE_SUBSCRIPTION_SECTION,
  maskEmail,
  PORTAL_LINK_TTL_MS,
  pricingNoticePath,
} from '#domain/checkout.ts';
import { EmailFieldSchema } from '#domain/schemas/trial-request.ts';
import { absoluteUrl, ROUTES, SITE } from '#domain/site.ts';
import type { Database } from '../db/database.ts';
import { billingPortalLinks } from '../db/schema.ts';
import { queueEmail } from '../email/queue.ts';
import { describeError, emailHash } from '../http/log-safe.ts';
import { HttpProblem } from '../http/problem.ts';
import { enforceFormLimits, formLimitsOf } from '../http/public-form.ts';
import { clientAddressKey } from '../http/client-address.ts';
import type { Secrets } from '../secrets.ts';
import { emailIdentity } from '../keys/email-identity.ts';
import { newestPaidCustomerOf } from '../keys/repository.ts';
import { manageSubscriptionMode } from './checkout.ts';
import { acceptUrlEncodedForms, field, formAnswerUrl } from '../http/site-forms.ts';
import type { StripeSessions } from './stripe-sessions.ts';

// "Manage subscription" without a login (issue 33, decision 151). With SUBSCRIPTION_PORTAL_URL the header's and
// footer's link (GET /manage-subscription) goes to Stripe's portal login. Otherwise, with Stripe, the pricing page's
// form (POST /api/billing-portal/link) emails the address's Stripe customer a one-time link: 15 minutes, once, its
// token stored as a SHA-256. The form answers at once and the same for every address (like "Lost your key?"); the
// lookup runs after the answer. Opening the link shows a button (a mail scanner fetching the link uses nothing), whose
// POST spends the token, opens a Billing Portal session and redirects there.

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Requests waiting for their lookup; beyond, a request is dropped (logged): the visitor can ask again. */
const MAX_PENDING = 1_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The one-time links: made after the form's answer, spent when opened. */
export class PortalLinks {
  private readonly pending: string[] = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
    private readonly siteUrl: string,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    /** Told after a link's email was queued (kick the outbox). */
    private readonly onQueued: () => void,
  ) {}

  /** Looks the address up after the answer, one request at a time, in order. */
  request(email: string): void {
    if (this.pending.length >= MAX_PENDING) {
      this.log.warn({ to: emailHash(emailIdentity(email)) }, 'portal link request dropped: too many waiting');
      return;
    }
    this.pending.push(email);
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves when every request so far has been looked up. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (let email = this.pending.shift(); email !== undefined; email = this.pending.shift()) {
      const to = emailHash(emailIdentity(email));
      try {
        const sent = await this.send(email);
        this.log.info({ to, sent }, 'portal link request');
      } catch (error) {
        this.log.error({ to, error: describeError(error) }, 'portal link request not processed');
      }
    }
  }

  /**
   * The Stripe customer of the address's newest paid key (a live one first), matched by mailbox identity, or for keys
   * older than the identity column by the exact address; its link and email in one transaction. False: no customer.
   */
  async send(email: string): Promise<boolean> {
    const identity = emailIdentity(email);
    const issued = await this.db.transaction(async (tx) => {
      const owner = await newestPaidCustomerOf(tx, identity, email);
      if (!owner?.customerId) return false;
      const token = randomBytes(32).toString('base64url');
      const createdAt = new Date(this.now());
      const expiresAt = new Date(createdAt.getTime() + PORTAL_LINK_TTL_MS);
      await tx.insert(billingPortalLinks).values({
        tokenHash: hashToken(token),
        customerId: owner.customerId,
        email: owner.email,
        createdAt,
        expiresAt,
      });
      // To the key's own address, as "Lost your key?" does: typing an address never sends anything elsewhere.
      await queueEmail(tx, this.secrets, this.siteUrl, {
        kind: 'billing-portal-link',
        to: owner.email,
        payload: { expiresAt: expiresAt.toISOString() },
        key: token,
      });
      return true;
    });
    if (issued) this.onQueued();
    return issued;
  }

  /** The link's address (masked) and expiry while it can be used; null otherwise (unknown, spent or expired). */
  async peek(token: string): Promise<{ email: string; expiresAt: Date } | null> {
    if (!TOKEN.test(token)) return null;
    const [link] = await this.db
      .select({ email: billingPortalLinks.email, expiresAt: billingPortalLinks.expiresAt })
      .from(billingPortalLinks)
      .where(
        and(
          eq(billingPortalLinks.tokenHash, hashToken(token)),
          isNull(billingPortalLinks.usedAt),
          gt(billingPortalLinks.expiresAt, new Date(this.now())),
        ),
      );
    return link ? { email: maskEmail(link.email), expiresAt: link.expiresAt } : null;
  }

  /** Spends the link: its customer, or null when it cannot be used. `release` gives it back (Stripe failed). */
  async spend(
    token: string,
  ): Promise<{ customerId: string; expiresAt: Date; release(): Promise<void> } | null> {
    if (!TOKEN.test(token)) return null;
    const tokenHash = hashToken(token);
    const usedAt = new Date(this.now());
    const [link] = await this.db
      .update(billingPortalLinks)
      .set({ usedAt })
      .where(
        and(
          eq(billingPortalLinks.tokenHash, tokenHash),
          isNull(billingPortalLinks.usedAt),
          gt(billingPortalLinks.expiresAt, usedAt),
        ),
      )
      .returning({ customerId: billingPortalLinks.customerId, expiresAt: billingPortalLinks.expiresAt });
    if (!link) return null;
    return {
      ...link,
      release: async () => {
        await this.db
          .update(billingPortalLinks)
          .set({ usedAt: null })
          .where(and(eq(billingPortalLinks.tokenHash, tokenHash), eq(billingPortalLinks.usedAt, usedAt)));
      },
    };
  }

  /** Forgets links a day after they expired. */
  async prune(): Promise<number> {
    const cutoff = new Date(this.now() - 24 * 3_600_000);
    const removed = await this.db
      .delete(billingPortalLinks)
      .where(lt(billingPortalLinks.expiresAt, cutoff))
      .returning({ tokenHash: billingPortalLinks.tokenHash });
    return removed.length;
  }
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

const formatTime = (date: Date) => date.toUTCString().replace(/:\d\d GMT$/, ' UTC');

interface PortalPage {
  title: string;
  paragraphs: string[];
  /** A button posting the token back (the page's one action). */
  token?: string;
  /** A link back to the pricing page's form. */
  askAgain?: boolean;
}

/**
 * The small page a one-time link opens: the site's colours, no script, not indexed, not cached, no referrer. Its form
 * may redirect to any https origin (Stripe's portal, or the account's own domain for it).
 */
function sendPortalPage(reply: FastifyReply, status: number, page: PortalPage) {
  const body = page.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n');
  const form = page.token
    ? `<form method="post" action="${ROUTES.manageSubscription}"><input type="hidden" name="token" value="${escapeHtml(page.token)}"><button type="submit">Open the billing portal</button></form>`
    : '';
  const again = page.askAgain
    ? `<p><a href="${ROUTES.pricing}#${MANAGE_SUBSCRIPTION_SECTION}">Ask for a new link</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(page.title)} | ${escapeHtml(SITE.brand)}</title>
<style>
body{margin:0;background:#020617;color:#e2e8f0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{border-bottom:1px solid #1e293b;padding:16px}header a{color:#fff;font-weight:700;font-size:18px;text-decoration:none}
main{max-width:36rem;margin:0 auto;padding:48px 16px}h1{color:#fff;font-size:28px;line-height:1.2;margin:0 0 16px}
a{color:#6ee7b7}button{margin-top:8px;height:48px;padding:0 24px;border:0;border-radius:6px;background:#34d399;color:#020617;font:600 16px system-ui,sans-serif;cursor:pointer}
button:hover{background:#6ee7b7}button:focus-visible,a:focus-visible{outline:2px solid #6ee7b7;outline-offset:2px}
</style></head>
<body><header><a href="/">${escapeHtml(SITE.brand)}</a></header>
<main><h1>${escapeHtml(page.title)}</h1>
${body}
${form}${again}
</main></body></html>
`;
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https:; base-uri 'none'; frame-ancestors 'none'",
    })
    .send(html);
}

const SPENT: PortalPage = {
  title: 'This link no longer works',
  paragraphs: [
    'A link to the billing portal works once, for 15 minutes after we send it. This one has been used or has expired.',
  ],
  askAgain: true,
};

export interface PortalRoutesOptions {
  /** Null without STRIPE_SECRET_KEY: only the redirect of GET /manage-subscription exists. */
  sessions: StripeSessions | null;
  links: PortalLinks | null;
}

export async function portalRoutes(app: FastifyInstance, { sessions, links }: PortalRoutesOptions) {
  const { config } = app;
  const mode = manageSubscriptionMode(config);
  const site = (path: string) => absoluteUrl(config.SITE_URL, path);
  acceptUrlEncodedForms(app, 4 * 1024);
  /**
   * Stripe's portal login when configured, else the pricing page saying purchases are not open here. Redirects to this
   * site's own pages are relative, so they stay on the origin the visitor used (SITE_URL defaults to the product's
   * public address: a local server must not send its visitor there).
   */
  const elsewhere = () => config.SUBSCRIPTION_PORTAL_URL ?? pricingNoticePath('purchasesClosed');

  // The header's and footer's "Manage Subscription": where this server manages subscriptions.
  app.get(ROUTES.manageSubscription, async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    if (typeof token === 'string' && links) {
      const link = await links.peek(token);
      if (!link) return sendPortalPage(reply, 410, SPENT);
      return sendPortalPage(reply, 200, {
        title: 'Manage your subscription',
        paragraphs: [
          `This opens Stripe's billing portal for the subscription of ${link.email}: change your plan, update your card, see your invoices or cancel.`,
          `The link works once, until ${formatTime(link.expiresAt)}.`,
        ],
        token,
      });
    }
    return reply.redirect(
      mode === 'email' ? `${ROUTES.pricing}#${MANAGE_SUBSCRIPTION_SECTION}` : elsewhere(),
      303,
    );
  });

  // The form's address, looked up once the answer has been sent (the answer cannot wait for, or tell, what it finds).
  const lookups = new WeakMap<FastifyRequest, string>();
  app.post(
    BILLING_PATHS.portalLink,
    {
      bodyLimit: 4 * 1024,
      onResponse: async (request) => {
        const email = lookups.get(request);
        if (email) links?.request(email);
      },
    },
    async (request, reply) => {
      // Without Stripe there is no link to send: where this server manages subscriptions, if anywhere.
      if (!links) return reply.redirect(elsewhere(), 303);
      const notice = (name: 'portalLinkSent' | 'portalLinkBusy' | 'portalLinkInvalid') =>
        reply.redirect(formAnswerUrl(request, config.SITE_URL, pricingNoticePath(name)), 303);
      const typed = EmailFieldSchema.safeParse(field(request.body, 'email', 1000) ?? '');
      if (!typed.success) return notice('portalLinkInvalid');
      const email = typed.data;
      const mailKey = emailHash(emailIdentity(email));
      try {
        await enforceFormLimits(
          app,
          {
            name: 'portal-link',
            ...formLimitsOf(config),
            ipDetail: 'Too many requests from this network.',
            emailDetail: 'Too many requests for this address.',
            mailboxesDetail: 'Too many requests for different addresses from this network today.',
          },
          clientAddressKey(request.ip),
          mailKey,
        );
      } catch (error) {
        if (error instanceof HttpProblem && error.status === 429) return notice('portalLinkBusy');
        throw error;
      }
      const honeypot = field(request.body, 'website', 500);
      if (honeypot && honeypot.trim() !== '') {
        request.log.info('portal link request discarded by the honeypot');
      } else {
        lookups.set(request, email);
        request.log.info({ to: mailKey }, 'portal link request answered');
      }
      return notice('portalLinkSent');
    },
  );

  if (!sessions || !links) return;

  app.post(ROUTES.manageSubscription, { bodyLimit: 4 * 1024 }, async (request, reply) => {
    const spent = await links.spend(field(request.body, 'token', 100) ?? '');
    if (!spent) return sendPortalPage(reply, 410, SPENT);
    let url: string;
    try {
      url = await sessions.createPortal(spent.customerId, site(ROUTES.pricing));
    } catch (error) {
      request.log.warn({ error: describeError(error) }, 'billing portal session not created');
      await spent.release();
      return sendPortalPage(reply, 503, {
        title: 'The billing portal is unavailable right now',
        paragraphs: [
          `Stripe did not open the billing portal. Nothing was changed, and your link still works until ${formatTime(spent.expiresAt)}: try again in a minute.`,
        ],
        token: field(request.body, 'token', 100),
      });
    }
    return reply.redirect(url, 303);
  });

  const prune = () => {
    links.prune().catch((error: unknown) => {
      app.log.warn({ error: describeError(error) }, 'portal links not pruned');
    });
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    prune();
    timer = setInterval(prune, 24 * 3_600_000);
    timer.unref();
  });
  // Before the database closes (hooks run in reverse registration order): the lookups in hand finish.
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await links.idle();
  });
}
