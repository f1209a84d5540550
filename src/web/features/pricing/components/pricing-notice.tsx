import type { ReactNode } from 'react';
import { PRICING_NOTICES, type PricingNotice } from '#domain/checkout.ts';
import { ROUTES, SITE } from '#domain/site.ts';
import { TargetNotice } from '#web/ui/target-notice.tsx';

// What the server's 303 answers to the pricing page's forms say (decision 151). Each notice is in the prerendered
// page, hidden unless the URL's fragment names it (CSS :target: shown without JavaScript too) or, after hydration,
// the query flag does (`shown`).

const trialLink = (
  <a href={ROUTES.trialForm} className="font-semibold underline underline-offset-4">
    start a free trial
  </a>
);

export const NOTICE_TEXT: Record<PricingNotice, { tone: 'error' | 'info'; text: ReactNode }> = {
  checkoutUnavailable: {
    tone: 'error',
    text: <>Checkout is unavailable right now; nothing was charged. Try again in a minute or {trialLink}.</>,
  },
  purchasesClosed: {
    tone: 'info',
    text: (
      <>
        Purchases are not open on this server yet. You can {trialLink}: one week with the Pro plan&apos;s
        limits.
      </>
    ),
  },
  checkoutBusy: {
    tone: 'error',
    text: 'Too many checkout attempts from your network. Nothing was charged; try again in a few minutes.',
  },
  portalLinkSent: {
    tone: 'info',
    text: `If that address has a ${SITE.brand} subscription, a link to manage it is on its way. The link works once, for 15 minutes.`,
  },
  portalLinkBusy: {
    tone: 'error',
    text: 'Too many requests for a link from your network or for this address. Try again later.',
  },
  portalLinkInvalid: { tone: 'error', text: 'Enter a valid email address.' },
};

export function PricingNoticeBox({
  notice,
  shown,
  className,
}: {
  notice: PricingNotice;
  /** The page's URL asks for it (read after hydration). */
  shown: boolean;
  className?: string;
}) {
  const { tone, text } = NOTICE_TEXT[notice];
  return (
    <TargetNotice id={PRICING_NOTICES[notice].id} tone={tone} shown={shown} className={className}>
      {text}
    </TargetNotice>
  );
}
