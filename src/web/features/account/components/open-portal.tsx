import { useState } from 'react';
import { Button } from '#web/ui/button.tsx';
import { AccountRequestError, type AccountApi } from '../api/account-api.ts';
import { failureText, type ErrorText } from '../lib/account-text.ts';
import { Notice } from './notice.tsx';

// "Change plan or cancel" in one step (issue 56, decision 220): POST /v1/me/portal with the key in X-Api-Key, then the
// page goes to the Stripe billing portal the answer names (it returns to /account). The key is never in a URL; the
// customer is emailed that the portal was opened. A refused key (401) leaves the page; any other failure is said here.

export function OpenPortal({
  apiKey,
  api,
  navigate,
  onUnauthorized,
}: {
  apiKey: string;
  api: Pick<AccountApi, 'openPortal'>;
  /** Goes to the portal (the page's `window.location.assign`; tests record it). */
  navigate: (url: string) => void;
  onUnauthorized: (error: AccountRequestError) => void;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ErrorText | null>(null);

  async function open() {
    setPending(true);
    setError(null);
    try {
      const portal = await api.openPortal(apiKey);
      navigate(portal.url);
      // Stays "Opening…" while the browser leaves for Stripe.
      return;
    } catch (caught) {
      if (caught instanceof AccountRequestError && caught.kind === 'unauthorized') {
        onUnauthorized(caught);
      } else {
        setError(
          caught instanceof AccountRequestError
            ? failureText(caught, 'portal')
            : failureText({ kind: 'server' }, 'portal'),
        );
      }
    }
    setPending(false);
  }

  return (
    <div className="flex flex-col gap-2">
      <Button size="lg" className="w-full sm:w-auto" onClick={() => void open()} disabled={pending}>
        {pending ? 'Opening the billing portal…' : 'Change plan or cancel'}
      </Button>
      <p className="text-sm text-slate-400">
        Opens Stripe&apos;s billing portal for this key&apos;s subscription: plan, card, invoices,
        cancellation. We email you that it was opened.
      </p>
      {error ? (
        <div role="alert">
          <Notice tone="bad" title={error.title} body={error.body} />
        </div>
      ) : null}
    </div>
  );
}
