import type { ReactNode } from 'react';
import { BILLING_PATHS } from '#domain/checkout.ts';
import { formatDelay, PLANS, type PlanId } from '#domain/plans.ts';
import type { SiteConfigResponse } from '#domain/schemas/billing.ts';
import { ROUTES, SITE } from '#domain/site.ts';
import { cn } from '#web/lib/cn.ts';
import { buttonVariants } from '#web/ui/button.tsx';
import type { MeResponse } from '#domain/schemas/api/account.ts';
import { formatCount, formatDate, formatDateTime, keyStatus, type StatusTone } from '../lib/account-text.ts';

// The key's plan, status, limits and credits (GET /v1/me), and where to go next: the docs, a better plan, the
// subscription portal (decision 156).

const TONES: Record<StatusTone, string> = {
  good: 'border-emerald-400/70 text-emerald-200',
  warn: 'border-amber-400/70 text-amber-200',
  bad: 'border-rose-400/70 text-rose-200',
};

const linkClass = 'font-semibold text-emerald-300 underline-offset-4 hover:underline';

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-w-0 rounded-2xl border border-slate-800 bg-slate-900 p-5">
      <dt className="text-sm font-medium text-slate-400">{title}</dt>
      <dd className="mt-2 text-slate-200">{children}</dd>
    </div>
  );
}

function Gauge({ used, limit, label }: { used: number; limit: number; label: string }) {
  const share = limit > 0 ? Math.min(1, used / limit) : 0;
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={limit}
      aria-valuenow={Math.min(used, limit)}
      className="mt-3 h-2 overflow-hidden rounded-full bg-slate-800"
    >
      <div className="h-full rounded-full bg-emerald-400" style={{ width: `${share * 100}%` }} />
    </div>
  );
}

function nextPlan(id: PlanId) {
  const index = PLANS.findIndex((plan) => plan.id === id);
  return index >= 0 ? PLANS[index + 1] : undefined;
}

/** The cheapest plan with same-game-parlay credits. */
const SGP_PLAN = PLANS.find((plan) => plan.sgpCreditsPerMonth);

export function AccountOverview({ account }: { account: MeResponse }) {
  const status = keyStatus(account);
  const { plan, limits, usage, sgp_credits: credits } = account;
  const streams = account.streams;
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Card title="Plan">
        <span className="flex flex-wrap items-center gap-2">
          <span className="text-2xl font-bold text-white">{plan.name}</span>
          <span
            data-testid="key-status"
            className={cn('rounded-full border px-2.5 py-0.5 text-xs font-semibold', TONES[status.tone])}
          >
            {status.label}
          </span>
        </span>
        <span className="mt-1 block text-sm">{status.dates}</span>
        <span className="mt-1 block text-sm text-slate-400">
          {/* As the pricing page's cards say it ("2 minutes", not "120 seconds"). */}
          {plan.real_time ? 'Real-time odds' : `Odds delayed up to ${formatDelay(plan.delay_seconds)}`}
        </span>
      </Card>
      <Card title="Requests per minute">
        <span className="text-2xl font-bold text-white">{formatCount(limits.requests_per_minute)}</span>
        <span className="mt-1 block text-sm">
          {formatCount(usage.used)} used in the current minute, {formatCount(usage.remaining)} left
        </span>
        <Gauge used={usage.used} limit={limits.requests_per_minute} label="Requests used this minute" />
      </Card>
      <Card title="Streams open">
        {streams ? (
          <>
            <span className="text-2xl font-bold text-white">
              {formatCount(streams.open)}{' '}
              <span className="text-base font-medium text-slate-400">of {formatCount(streams.limit)}</span>
            </span>
            <span className="mt-1 block text-sm">Server-sent event connections open with this key now</span>
            <Gauge used={streams.open} limit={streams.limit} label="Streams open" />
          </>
        ) : (
          <>
            <span className="text-2xl font-bold text-white">
              up to {formatCount(limits.stream_connections)}
            </span>
            <span className="mt-1 block text-sm">at once; this server does not say how many are open</span>
          </>
        )}
      </Card>
      <Card title="SGP credits this month">
        {credits.limit > 0 ? (
          <>
            <span className="text-2xl font-bold text-white">
              {formatCount(credits.remaining)}{' '}
              <span className="text-base font-medium text-slate-400">left</span>
            </span>
            <span className="mt-1 block text-sm">
              {formatCount(credits.used)} of {formatCount(credits.limit)} used; resets on{' '}
              {formatDate(credits.resets_at, 'UTC')} (UTC)
            </span>
            <Gauge used={credits.used} limit={credits.limit} label="SGP credits used" />
          </>
        ) : (
          <>
            <span className="text-2xl font-bold text-white">None</span>
            <span className="mt-1 block text-sm">
              Same-game-parlay pricing is not in the {plan.name} plan
              {SGP_PLAN ? (
                <>
                  {' '}
                  (
                  <a className={linkClass} href={`${ROUTES.pricing}#plan-${SGP_PLAN.id}`}>
                    from {SGP_PLAN.name}
                  </a>
                  )
                </>
              ) : null}
              .
            </span>
          </>
        )}
      </Card>
    </dl>
  );
}

export function KeyFacts({ account }: { account: MeResponse }) {
  return (
    <dl className="grid gap-x-8 gap-y-3 text-sm sm:grid-cols-3">
      <div className="min-w-0">
        <dt className="text-slate-400">Key prefix</dt>
        <dd className="mt-0.5 break-all font-mono text-base text-white" data-testid="key-prefix">
          {account.key.prefix}…
        </dd>
      </div>
      <div>
        <dt className="text-slate-400">Kind</dt>
        <dd className="mt-0.5 text-white">{account.key.kind === 'trial' ? 'Free trial key' : 'Paid key'}</dd>
      </div>
      <div>
        <dt className="text-slate-400">Issued</dt>
        <dd className="mt-0.5 text-white">{formatDateTime(account.key.created_at)}</dd>
      </div>
    </dl>
  );
}

/**
 * Where to go next: the docs, a better plan (checkout for a trial, the billing portal for a subscriber), the portal.
 * A subscriber opens Stripe's billing portal in one step with the key (decision 220); a key without a subscription
 * (a trial, or one the operators made) is told what to do instead.
 */
export function AccountLinks({
  account,
  siteConfig,
  portal,
}: {
  account: MeResponse;
  /** GET /api/site-config; null until it arrives (or when it cannot be read). */
  siteConfig: SiteConfigResponse | null;
  /** The "Change plan or cancel" button, shown for a key with a subscription. */
  portal: ReactNode;
}) {
  const trial = account.key.kind === 'trial';
  // A subscriber changes plan in Stripe's portal (a second checkout would start a second subscription, decision 151).
  const subscriber = !trial && account.subscription !== null;
  const madeByOperators = !trial && account.subscription === null;
  const next = nextPlan(account.plan.id);
  const trialPlan = account.plan.id;
  const trialPurchase = siteConfig?.checkout[trialPlan];
  return (
    <div className="flex flex-col gap-4">
      {subscriber ? portal : null}
      <div className="flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-center">
        {trial && trialPurchase !== 'closed' ? (
          // The pricing page's plan button: the server picks the Payment Link or a Checkout Session (decision 151).
          <form method="post" action={BILLING_PATHS.checkout}>
            <input type="hidden" name="plan" value={trialPlan} />
            <button type="submit" className={cn(buttonVariants({ size: 'lg' }), 'w-full sm:w-auto')}>
              Subscribe to {account.plan.name}
            </button>
          </form>
        ) : null}
        <ul className="flex flex-wrap gap-x-6 gap-y-3">
          <li>
            <a className={linkClass} href={next ? `${ROUTES.pricing}#plan-${next.id}` : ROUTES.pricing}>
              {trial || subscriber ? 'Compare the plans' : next ? `Upgrade to ${next.name}` : 'See the plans'}
            </a>
          </li>
          <li>
            <a className={linkClass} href={SITE.docsUrl}>
              API documentation
            </a>
          </li>
        </ul>
      </div>
      {trial ? (
        <p className="text-sm text-slate-400">
          A free trial has no subscription to change or cancel: it simply ends. Subscribe to keep using the
          API.
        </p>
      ) : null}
      {madeByOperators ? (
        <p className="text-sm text-slate-400">
          This key was made by our team, not bought through checkout, so it has no billing portal. To change
          its plan, write to {SITE.supportEmail}.
        </p>
      ) : null}
      {trial && trialPurchase === 'closed' ? (
        <p className="text-sm text-slate-400">Purchases are not open on this server yet.</p>
      ) : null}
    </div>
  );
}
