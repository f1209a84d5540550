import { SITE } from '#domain/site.ts';
import type { AccountErrorKind } from '../api/account-api.ts';
import type { MeResponse } from '#domain/schemas/api/account.ts';

// What the account page says, in words (decision 156): the key's status and dates, and every failure.

const COUNT = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return COUNT.format(value);
}

/** "December 27, 2026", in the visitor's time zone (or the one given). */
export function formatDate(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', ...(timeZone ? { timeZone } : {}) }).format(
    new Date(iso),
  );
}

/** "December 3, 2026 at 10:04 AM", in the visitor's time zone (or the one given). */
export function formatDateTime(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-US', {
    dateStyle: 'long',
    timeStyle: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** A day of the usage answer (`YYYY-MM-DD`, a UTC day): "Nov 27", or "November 27, 2026" when `long`. */
export function formatDay(date: string, long = false): string {
  return new Intl.DateTimeFormat('en-US', {
    ...(long ? { dateStyle: 'long' } : { month: 'short', day: 'numeric' }),
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}

/** "42 seconds", "1 minute", "3 minutes", "2 hours". */
export function formatWait(seconds: number): string {
  const plural = (value: number, unit: string) => `${value} ${unit}${value === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 3600) return plural(Math.ceil(seconds / 60), 'minute');
  return plural(Math.ceil(seconds / 3600), 'hour');
}

export type StatusTone = 'good' | 'warn' | 'bad';

export interface KeyStatus {
  /** "Active", "Trial", "Payment past due"… */
  label: string;
  tone: StatusTone;
  /** The renewal or expiry: "Renews on December 27, 2026", "Expires on …", "Ends on …". */
  dates: string;
}

const SUBSCRIPTION_STATUS: Record<string, { label: string; tone: StatusTone }> = {
  active: { label: 'Active', tone: 'good' },
  trialing: { label: 'Active (trial period)', tone: 'good' },
  past_due: { label: 'Payment past due', tone: 'warn' },
  unpaid: { label: 'Unpaid', tone: 'bad' },
  paused: { label: 'Paused', tone: 'warn' },
  incomplete: { label: 'Payment incomplete', tone: 'warn' },
  incomplete_expired: { label: 'Payment not completed', tone: 'bad' },
  canceled: { label: 'Cancelled', tone: 'bad' },
};

/** The key's status and its renewal or expiry date, from /v1/me. */
export function keyStatus(account: MeResponse, timeZone?: string): KeyStatus {
  const expires = account.key.expires_at;
  if (account.key.kind === 'trial') {
    return {
      label: 'Free trial',
      tone: 'good',
      dates: expires
        ? `Expires on ${formatDateTime(expires, timeZone)}`
        : 'Expires seven days after it was issued',
    };
  }
  const subscription = account.subscription;
  if (subscription) {
    const known = SUBSCRIPTION_STATUS[subscription.status];
    const label = known?.label ?? subscription.status.replace(/_/g, ' ');
    const tone = known?.tone ?? 'warn';
    if (subscription.cancel_at_period_end) {
      return {
        label: subscription.status === 'active' ? 'Active, cancelled at period end' : label,
        tone: 'warn',
        dates: subscription.renews_at
          ? `Ends on ${formatDate(subscription.renews_at, timeZone)}; it will not renew`
          : 'Ends at the end of the current period; it will not renew',
      };
    }
    return {
      label,
      tone,
      dates: subscription.renews_at
        ? `Renews on ${formatDate(subscription.renews_at, timeZone)}`
        : expires
          ? `Expires on ${formatDate(expires, timeZone)}`
          : 'No renewal date',
    };
  }
  return {
    label: 'Active',
    tone: 'good',
    dates: expires
      ? `Expires on ${formatDate(expires, timeZone)}`
      : account.subscription === null
        ? 'Not tied to a subscription: it does not renew or expire'
        : 'Renewal dates are in the subscription portal',
  };
}

export interface ErrorText {
  title: string;
  body: string;
}

export interface FailureLike {
  kind: AccountErrorKind;
  status?: number | undefined;
  code?: string | undefined;
  detail?: string | undefined;
  retryAfterSeconds?: number | undefined;
}

/** Why a key was refused (401), by the problem's code. */
function unauthorizedText(failure: FailureLike): ErrorText {
  switch (failure.code) {
    case 'api-key-malformed':
      return {
        title: 'That is not a Sharpline API key',
        body: 'Keys start with sl_live_ (paid) or sl_trial_ (trial) followed by 32 letters and digits. Paste the whole key from its email.',
      };
    case 'api-key-revoked':
      return {
        title: 'This key has been revoked',
        body: 'It was replaced by a newer key (rotated, or sent again by email) or its subscription ended, and it no longer works. Paste your current key.',
      };
    case 'api-key-expired':
      return {
        title: 'This key has expired',
        body: 'Trial keys work for seven days. Choose a plan to keep using the API.',
      };
    case 'api-key-suspended':
      return {
        title: 'This key is suspended',
        body:
          failure.detail ??
          'The subscription’s payment did not go through. Update the payment method in the subscription portal and the key works again.',
      };
    default:
      return {
        title: 'We do not know this key',
        body: 'No key like it exists here, or it was revoked. Check that you pasted the whole key; support can look it up by its first characters.',
      };
  }
}

/** What a failed call says. `what` names the call for the lines that differ ("your account", "the usage chart"…). */
export function failureText(
  failure: FailureLike,
  what: 'account' | 'usage' | 'rotation' | 'portal',
): ErrorText {
  switch (failure.kind) {
    case 'unauthorized':
      return unauthorizedText(failure);
    case 'forbidden':
      return {
        title: 'This key may not do that',
        body: failure.detail ?? 'The server refused this key for this request (403).',
      };
    case 'conflict':
      if (what === 'portal') {
        return {
          title: 'This key has no subscription to manage',
          body: failure.detail ?? 'Only a key bought through our checkout has a billing portal.',
        };
      }
      return {
        title: 'This key was already replaced',
        body:
          failure.detail ??
          'A newer key replaced it (rotated, or sent by “Lost your key?”), so it was not rotated again. Use the newer key.',
      };
    case 'rate-limited': {
      const wait =
        failure.retryAfterSeconds !== undefined
          ? `Try again in ${formatWait(failure.retryAfterSeconds)}.`
          : 'Try again in a minute.';
      if (failure.code === 'auth-throttled') {
        return {
          title: 'Too many unknown keys',
          body: `This address tried too many keys we do not know. ${wait}`,
        };
      }
      if (what === 'portal' && failure.code === 'portal-limit') {
        return {
          title: 'The billing portal was opened often recently',
          body: `It can be opened a few times an hour with a key. ${wait}`,
        };
      }
      if (what === 'rotation' && failure.code !== 'rate-limited') {
        return {
          title: 'This key was rotated recently',
          body: `A key can be rotated only a few times an hour, and your key was not changed. ${wait}`,
        };
      }
      // Only the account's own budget refuses this page: its calls are free of the plan's requests (decision 218).
      return {
        title: 'Too many requests',
        body: `This page asked the server too often for this key this minute (its calls do not use your plan's requests). ${wait}`,
      };
    }
    case 'not-available':
      return what === 'usage'
        ? {
            title: 'Daily usage is not available on this server',
            body: 'This server does not count requests per day yet. Your plan, limits and credits above are current.',
          }
        : what === 'rotation'
          ? {
              title: 'Key rotation is not available on this server',
              body: `Your key was not changed. Write to ${SITE.supportEmail} if you need a new key.`,
            }
          : what === 'portal'
            ? {
                title: 'The billing portal cannot be opened from here',
                body: 'This server does not manage subscriptions through Stripe. Use “Manage Subscription” in the footer, or write to support.',
              }
            : {
                title: 'Accounts are not available on this server',
                body: 'This server does not answer /v1/me.',
              };
    case 'network':
      return {
        title: 'Could not reach the server',
        body:
          what === 'rotation'
            ? 'No answer arrived, so we do not know whether the key was rotated. Check your connection and reload this page. If your key is then refused, it was rotated: ask for a new key with “Lost your key?” on the pricing page.'
            : 'Check your connection and try again.',
      };
    case 'server':
      if (what === 'portal' && failure.status === 503) {
        return {
          title: 'The billing portal is unavailable right now',
          body: 'Stripe did not open it, and nothing was changed. Try again in a minute.',
        };
      }
      return {
        title: 'The server could not answer',
        body: `Something went wrong on our side${failure.status ? ` (${failure.status})` : ''}. Try again in a minute.`,
      };
  }
}
