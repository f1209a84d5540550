import { useEffect, useState } from 'react';
import { getPlan } from '#domain/plans.ts';
import { ROUTES, SITE } from '#domain/site.ts';
import { getCheckoutStatus, type WelcomeState } from '../api/get-checkout-status.ts';

// The welcome page's message, in words (decision 151): the payment was received and the key is on its way to the
// (masked) address; the payment is still processing; the checkout was not finished; or the page does not know it.

const linkClass = 'font-semibold text-emerald-300 underline-offset-4 hover:underline';

function planName(plan: Parameters<typeof getPlan>[0] | null): string {
  return plan ? `${SITE.brand} ${getPlan(plan).name} plan` : `${SITE.brand} plan`;
}

export function welcomeText(state: WelcomeState): { title: string; body: string } {
  switch (state.kind) {
    case 'checking':
      return { title: 'Checking your payment', body: 'Asking Stripe about your checkout…' };
    case 'paid':
      return {
        title: 'Payment received',
        body: `Thank you for subscribing to the ${planName(state.plan)}. Your API key is on its way to ${state.email ?? 'the email address you paid with'}; it usually arrives within a minute. If it is not in your inbox, look in the spam folder.`,
      };
    case 'processing':
      return {
        title: 'Payment processing',
        body: `Your checkout for the ${planName(state.plan)} is complete and the payment is still being processed (a bank payment can take a few days). We email your API key to ${state.email ?? 'the email address you paid with'} as soon as it goes through; there is nothing more to do.`,
      };
    case 'not-paid':
      return {
        title: 'Checkout not finished',
        body: 'This checkout was not completed, and nothing was charged. Choose a plan to try again.',
      };
    case 'unknown':
      return {
        title: 'We do not know this checkout',
        body: `This link does not name a checkout we know. If you paid, your API key arrives by email; if it has not arrived within a few minutes, write to ${SITE.supportEmail}.`,
      };
    case 'unavailable':
      return {
        title: 'We could not check your payment just now',
        body: 'If you paid, your API key arrives by email all the same. Reload this page in a minute to check again.',
      };
  }
}

export function WelcomeStatus({ read = getCheckoutStatus }: { read?: typeof getCheckoutStatus }) {
  const [state, setState] = useState<WelcomeState>({ kind: 'checking' });
  useEffect(() => {
    let live = true;
    void read(new URLSearchParams(window.location.search).get('session_id')).then((next) => {
      if (live) setState(next);
    });
    return () => {
      live = false;
    };
  }, [read]);
  const { title, body } = welcomeText(state);
  return (
    <div role="status" aria-live="polite" aria-busy={state.kind === 'checking'}>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
      <p className="mt-4 text-lg text-slate-300">{body}</p>
      <noscript>
        <p className="mt-4 text-slate-300">
          Your payment is handled by Stripe. If it went through, your API key arrives by email within a few
          minutes.
        </p>
      </noscript>
      <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-3">
        {state.kind === 'not-paid' ? (
          <li>
            <a className={linkClass} href={ROUTES.pricing}>
              See the plans
            </a>
          </li>
        ) : null}
        <li>
          <a className={linkClass} href={SITE.docsUrl}>
            Read the API documentation
          </a>
        </li>
        {state.kind === 'paid' || state.kind === 'processing' ? (
          <li>
            <a className={linkClass} href={ROUTES.account}>
              Once it arrives: your plan, usage and key
            </a>
          </li>
        ) : null}
        <li>
          <a className={linkClass} href={`${ROUTES.pricing}#lost-key`}>
            Key not arriving? Ask for a new one
          </a>
        </li>
      </ul>
    </div>
  );
}
