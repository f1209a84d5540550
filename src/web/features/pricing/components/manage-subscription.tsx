import { useId } from 'react';
import { BILLING_PATHS, MANAGE_SUBSCRIPTION_SECTION, type PricingNotice } from '#domain/checkout.ts';
import { ROUTES, WHEN_SUBSCRIPTIONS_MANAGED } from '#domain/site.ts';
import type { SiteConfigResponse } from '#domain/schemas/billing.ts';
import { Button, buttonVariants } from '#web/ui/button.tsx';
import { EmailInput } from '#web/ui/email-input.tsx';
import { HoneypotField } from '#web/ui/honeypot-field.tsx';
import { cn } from '#web/lib/cn.ts';
import { PricingNoticeBox } from './pricing-notice.tsx';

// "Manage your subscription" without a login (decision 151). `email` (the default, and what the server does with
// Stripe set): a plain form posting the address; the server answers the same for every address and emails a
// subscriber a one-time link to Stripe's billing portal. `portal`: a link to the server's /manage-subscription, which
// goes to Stripe's portal login. `none`: nothing to manage here, the section is not shown.

export const PORTAL_LINK_INTRO =
  "Enter the email address of your subscription. We'll email you a link to Stripe's billing portal, where you can change your plan, update your card, see your invoices or cancel. The link works once, for 15 minutes.";

const PORTAL_NOTICES: PricingNotice[] = ['portalLinkSent', 'portalLinkInvalid', 'portalLinkBusy'];

export function ManageSubscription({
  mode,
  notice,
}: {
  /** From GET /api/site-config; undefined until it arrives. */
  mode: SiteConfigResponse['manageSubscription'] | undefined;
  /** The notice the page's URL asks for. */
  notice: PricingNotice | null;
}) {
  const id = useId();
  if (mode === 'none') return null;
  return (
    <section
      id={MANAGE_SUBSCRIPTION_SECTION}
      // Taken out of the page by a server that manages no subscriptions (decision 298).
      {...{ [WHEN_SUBSCRIPTIONS_MANAGED]: '' }}
      aria-labelledby={`${id}-title`}
      className="mt-6 scroll-mt-24 rounded-2xl border border-slate-800 bg-slate-900/60 p-6 lg:flex lg:items-start lg:justify-between lg:gap-10"
    >
      <div className="max-w-xl">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
          Manage your subscription
        </h2>
        <p className="mt-1 text-slate-300">
          {mode === 'portal'
            ? "Change your plan, update your card, see your invoices or cancel in Stripe's billing portal. Sign in there with the email address of your subscription."
            : PORTAL_LINK_INTRO}
        </p>
      </div>
      <div className="mt-4 lg:mt-0 lg:w-[30rem] lg:shrink-0">
        {mode === 'portal' ? (
          <a
            href={ROUTES.manageSubscription}
            className={cn(buttonVariants({ size: 'lg' }), 'w-full sm:w-auto')}
          >
            Open the billing portal
          </a>
        ) : (
          <form method="post" action={BILLING_PATHS.portalLink}>
            <label htmlFor={`${id}-email`} className="text-sm font-medium text-slate-200">
              Billing email
            </label>
            <div className="sm:grid sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-x-3">
              <EmailInput id={id} invalid={false} />
              <Button
                type="submit"
                size="lg"
                className="mt-3 w-full sm:col-start-2 sm:row-start-1 sm:mt-1 sm:h-auto sm:min-w-52"
              >
                Email me a portal link
              </Button>
            </div>
            <HoneypotField id={id} />
          </form>
        )}
        {PORTAL_NOTICES.map((name) => (
          <PricingNoticeBox key={name} notice={name} shown={notice === name} className="mt-3" />
        ))}
      </div>
    </section>
  );
}
