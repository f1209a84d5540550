import { pricingWithEmailPath } from '#domain/checkout.ts';
import { getPlan, isPlanId, TRIAL, type Plan } from '#domain/plans.ts';
import { ROUTES, SITE } from '#domain/site.ts';
import type { EmailKind, EmailPayload } from '../db/schema.ts';

// Trial and paid-key emails, plain text and HTML. Nothing the visitor typed (name, company, message) is echoed: the recipient
// address is the only submitted value that reaches the email, and only as the envelope/To address.

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface RenderContext {
  siteUrl: string;
  /** The plain key, for the kinds that carry one (the one-time link's token, for `billing-portal-link`). */
  key?: string | undefined;
  /** The recipient: links to the plans carry it, so that checkout starts with it filled in. */
  to?: string | undefined;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

function formatDate(iso: string | undefined): string {
  if (!iso) return 'seven days after issue';
  return new Date(iso).toUTCString().replace(/:\d\d GMT$/, ' UTC');
}

interface Block {
  kind: 'p' | 'key' | 'link';
  text: string;
  href?: string;
}

function compose(subject: string, blocks: Block[]): RenderedEmail {
  const text = blocks
    .map((block) =>
      block.kind === 'link'
        ? `${block.text}: ${block.href}`
        : block.kind === 'key'
          ? `    ${block.text}`
          : block.text,
    )
    .join('\n\n');
  const htmlBlocks = blocks
    .map((block) => {
      if (block.kind === 'key') {
        return `<p style="font-family:ui-monospace,Menlo,Consolas,monospace;font-size:16px;background:#0f172a;color:#34d399;padding:12px 16px;border-radius:6px">${escapeHtml(block.text)}</p>`;
      }
      if (block.kind === 'link') {
        return `<p><a href="${escapeHtml(block.href ?? '')}" style="color:#059669">${escapeHtml(block.text)}</a></p>`;
      }
      return `<p>${escapeHtml(block.text)}</p>`;
    })
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#0f172a;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(SITE.brand)}</h1>
${htmlBlocks}
</body></html>
`;
  return { subject, text: `${text}\n\n— ${SITE.brand}, ${SITE.tagline}\n`, html };
}

/** What a plan allows, in one sentence of an email. */
function planLimits(plan: Plan): string {
  const data = plan.realTime ? 'real-time odds' : `odds delayed up to ${plan.latencySeconds} seconds`;
  return `${plan.name} plan: ${plan.requestsPerMinute.toLocaleString('en-US')} requests per minute, ${data}.`;
}

export function renderEmail(kind: EmailKind, payload: EmailPayload, context: RenderContext): RenderedEmail {
  const plan = getPlan(TRIAL.planId);
  const limits = `${plan.name} plan limits: ${plan.requestsPerMinute} requests per minute, odds delayed up to ${plan.latencySeconds} seconds.`;
  const docs: Block = {
    kind: 'link',
    text: 'API documentation',
    href: new URL(SITE.docsUrl, context.siteUrl).href,
  };
  // The recipient's address rides in the fragment: the pricing page fills it into each plan's checkout, and it never
  // reaches a request log (decision 151).
  const plans = (text: string): Block => ({
    kind: 'link',
    text,
    href: new URL(context.to ? pricingWithEmailPath(context.to) : ROUTES.pricing, context.siteUrl).href,
  });
  const pricing = plans('API plans');
  const secrecy: Block = {
    kind: 'p',
    text: 'Keep this key secret. We store only a fingerprint of it, so we cannot show it to you again.',
  };
  const ends = formatDate(payload.expiresAt);
  const paidPlan = getPlan(payload.plan && isPlanId(payload.plan) ? payload.plan : 'starter');
  // The server sends this to Stripe's portal login, or to the pricing page's one-time link form (decision 151).
  const portal: Block = {
    kind: 'link',
    text: 'Manage your subscription',
    href: new URL(ROUTES.manageSubscription, context.siteUrl).href,
  };
  // The key's own page (decision 156): usage per day, limits, and rotation, opened with the key itself.
  const account: Block = {
    kind: 'link',
    text: 'Your usage, limits and key rotation (paste this key on your account page)',
    href: new URL(ROUTES.account, context.siteUrl).href,
  };
  const afterTrial: Block = {
    kind: 'p',
    text: 'Subscribe with this address and your paid key arrives by email; the trial key keeps working until its end.',
  };
  switch (kind) {
    case 'paid-key-issued':
      return compose(`Your ${SITE.brand} API key (${paidPlan.name} plan)`, [
        {
          kind: 'p',
          text: `Thank you for subscribing to the ${SITE.brand} ${paidPlan.name} plan. Here is your API key:`,
        },
        { kind: 'key', text: context.key ?? '' },
        { kind: 'p', text: `${planLimits(paidPlan)} Send the key in the X-Api-Key header.` },
        secrecy,
        docs,
        account,
        portal,
      ]);
    case 'paid-key-rotated':
      return compose(`Your new ${SITE.brand} API key`, [
        {
          kind: 'p',
          text: `As requested, here is a new API key for your ${SITE.brand} ${paidPlan.name} plan:`,
        },
        { kind: 'key', text: context.key ?? '' },
        {
          kind: 'p',
          text: payload.previousUntilFirstUse
            ? `Your previous key (the one starting with ${payload.previousPrefix ?? 'sl_live_'}) keeps working until your first request with this new key; from then on only the new key works.`
            : `Your previous key (the one starting with ${payload.previousPrefix ?? 'sl_live_'}) has been revoked.`,
        },
        { kind: 'p', text: planLimits(paidPlan) },
        secrecy,
        ...(payload.previousUntilFirstUse
          ? [
              {
                kind: 'p' as const,
                text: `If you did not ask for a new key, you can ignore this email: someone typed your address into our “Lost your key?” form, only this mailbox received the new key, and your current key keeps working.`,
              },
            ]
          : []),
        docs,
        account,
        portal,
      ]);
    case 'trial-issued':
      return compose(`Your ${SITE.brand} trial API key`, [
        {
          kind: 'p',
          text: `Thank you for trying ${SITE.brand}. Here is your API key for a one-week free trial:`,
        },
        { kind: 'key', text: context.key ?? '' },
        { kind: 'p', text: `It works until ${ends}. ${limits}` },
        secrecy,
        docs,
        account,
        plans('Choose a plan when your trial ends'),
      ]);
    case 'trial-rotated':
    case 'trial-resent':
      return compose(`Your new ${SITE.brand} trial API key`, [
        {
          kind: 'p',
          text:
            kind === 'trial-rotated'
              ? 'You asked for a trial key again, and the key we issued earlier could not be delivered, so we revoked it and issued a new one'
              : 'As requested through our support team, we issued a new key and revoked the previous one',
        },
        ...(payload.previousPrefix
          ? [{ kind: 'p' as const, text: `(the one starting with ${payload.previousPrefix}).` }]
          : []),
        { kind: 'key', text: context.key ?? '' },
        { kind: 'p', text: `Your trial still ends at ${ends}; a new key does not extend it. ${limits}` },
        secrecy,
        docs,
      ]);
    case 'trial-key-again':
      // Anyone can type this address into the trial form or "Lost your key?": only this mailbox gets the new key, and
      // the key it holds keeps working until the new one is used (issue 56, decision 217).
      return compose(`Your ${SITE.brand} trial API key`, [
        {
          kind: 'p',
          text: `Someone, probably you, asked for the ${SITE.brand} trial key of this address again. Your trial is still active, so here is a new key for it:`,
        },
        { kind: 'key', text: context.key ?? '' },
        {
          kind: 'p',
          text: `Your previous key (the one starting with ${payload.previousPrefix ?? 'sl_trial_'}) keeps working until your first request with this new key; from then on only the new key works.`,
        },
        { kind: 'p', text: `Your trial still ends at ${ends}; a new key does not extend it. ${limits}` },
        secrecy,
        {
          kind: 'p',
          text: 'If you did not ask for it, you can ignore this email: only this mailbox received the new key, and your current key keeps working.',
        },
        docs,
        account,
        plans('Choose a plan when your trial ends'),
      ]);
    case 'trial-reminder':
      // Queued by earlier versions (a repeated request now gets 'trial-key-again'); kept for rows still in the outbox.
      return compose(`Your ${SITE.brand} trial key was already sent`, [
        {
          kind: 'p',
          text: `Someone, probably you, asked for a ${SITE.brand} trial for this address. This address already has an active trial key, so we did not issue a new one, and your key keeps working.`,
        },
        {
          kind: 'p',
          text: `Your key starts with ${payload.keyPrefix ?? 'sl_trial_'} and works until ${ends}. We sent it in an earlier email; we store only a fingerprint of it, so we cannot show it again.`,
        },
        {
          kind: 'p',
          text: `If you cannot find that email, write to ${SITE.supportEmail} and we will send you a new key. If you did not ask for a trial, you can ignore this email.`,
        },
        docs,
      ]);
    case 'trial-expiring':
      return compose(`Your ${SITE.brand} trial ends on ${ends}`, [
        {
          kind: 'p',
          text: `Your ${SITE.brand} trial key (the one starting with ${payload.keyPrefix ?? 'sl_trial_'}) stops working at ${ends}.`,
        },
        { kind: 'p', text: 'To keep using the API, pick the plan that fits you:' },
        plans('Choose a plan'),
        afterTrial,
        docs,
      ]);
    case 'billing-portal-link':
      return compose(`Manage your ${SITE.brand} subscription`, [
        {
          kind: 'p',
          text: `Someone, probably you, asked to manage the ${SITE.brand} subscription of this address. This link opens Stripe's billing portal, where you can change your plan, update your card, see your invoices or cancel:`,
        },
        {
          kind: 'link',
          text: 'Open the billing portal',
          href: `${new URL(ROUTES.manageSubscription, context.siteUrl).href}?token=${encodeURIComponent(context.key ?? '')}`,
        },
        {
          kind: 'p',
          text: `The link works once, until ${ends}. If it has expired, ask for a new one on the plans page. If you did not ask for it, you can ignore this email: only this mailbox received it.`,
        },
      ]);
    case 'key-rotated-notice':
      // Sent after POST /v1/me/rotate (decision 155): the new key was shown once to whoever rotated; never in here.
      return compose(`Your ${SITE.brand} API key was rotated`, [
        {
          kind: 'p',
          text: `Your ${SITE.brand} API key (the one starting with ${payload.previousPrefix ?? 'sl_'}) was rotated through the API at ${formatDate(payload.rotatedAt)}. It stopped working at once; its replacement starts with ${payload.keyPrefix ?? 'sl_'}, keeps your plan, expiry, subscription and usage history, and was shown once to whoever rotated it.`,
        },
        {
          kind: 'p',
          text: `If you did not rotate it, someone else holds a working key of yours: write to ${SITE.supportEmail} with the prefix ${payload.keyPrefix ?? ''}, or use “Lost your key?” on the plans page to get a new key by email.`,
        },
        docs,
        ...(payload.plan ? [portal] : []),
      ]);
    case 'billing-portal-opened':
      // A security notice (decision 220): the portal was opened with the key from the account page. No link to the
      // portal (a session is for whoever opened it), nothing to click that acts.
      return compose(`Your ${SITE.brand} billing portal was opened`, [
        {
          kind: 'p',
          text: `Stripe's billing portal for your ${SITE.brand} ${paidPlan.name} subscription was opened at ${formatDate(payload.openedAt)} with your API key (the one starting with ${payload.keyPrefix ?? 'sl_live_'}) on the account page. There, whoever opened it can change your plan, update your card, see your invoices or cancel.`,
        },
        {
          kind: 'p',
          text: `If that was you, there is nothing to do. If it was not, someone holds your key: rotate it on your account page, or use “Lost your key?” on the plans page to get a new one by email, then check your subscription in the portal. Write to ${SITE.supportEmail} if anything changed that you did not change.`,
        },
        { kind: 'link', text: 'Your account page', href: new URL(ROUTES.account, context.siteUrl).href },
      ]);
    case 'trial-refused':
      return compose(`About your ${SITE.brand} trial request`, [
        { kind: 'p', text: `Thank you for your interest in ${SITE.brand}.` },
        {
          kind: 'p',
          text: `This address has already had its free trial, which ended at ${ends}. Each address gets one trial, so we did not issue a new key.`,
        },
        { kind: 'p', text: 'To keep using the API, pick the plan that fits you:' },
        pricing,
        {
          kind: 'p',
          text: `If you already subscribed and lost your key, “Lost your key?” on the plans page emails you a new one. If you did not ask for a trial, you can ignore this email.`,
        },
      ]);
  }
}
