import { useCallback, useId, useState } from 'react';
import { useSiteConfig } from '#web/lib/site-config.ts';
import { Button } from '#web/ui/button.tsx';
import { accountApi, type AccountApi, type AccountRequestError } from '../api/account-api.ts';
import type { RotationResponse } from '#domain/schemas/api/account.ts';
import { useAccountData, type Read } from '../hooks/use-account-data.ts';
import { failureText, type ErrorText } from '../lib/account-text.ts';
import { keyStore, useStoredKey } from '#web/lib/key-store.ts';
import { AccountLinks, AccountOverview, KeyFacts } from './account-overview.tsx';
import { KeyForm } from './key-form.tsx';
import { NewKeyNotice } from './new-key-notice.tsx';
import { OpenPortal } from './open-portal.tsx';
import { Notice } from './notice.tsx';
import { RotateKey } from './rotate-key.tsx';
import { UsageChart } from './usage-chart.tsx';

// The account page's states (decision 156): no key (the form), loading, the account, or why it cannot be shown. A key
// refused with 401 is forgotten and the form says why; other failures keep the key and offer to try again.

const sectionClass = 'rounded-2xl border border-slate-800 bg-slate-900/60 p-6';

function Failure({
  read,
  what,
  onRetry,
}: {
  read: Read<unknown> & { status: 'error' };
  what: 'account' | 'usage';
  onRetry: () => void;
}) {
  const text = failureText(read.error, what);
  const unavailable = read.error.kind === 'not-available';
  return (
    <Notice tone={unavailable ? 'warn' : 'bad'} title={text.title} body={text.body}>
      {unavailable ? null : (
        <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Notice>
  );
}

export function AccountScreen({
  api = accountApi,
  navigate = (url: string) => window.location.assign(url),
}: {
  api?: AccountApi;
  /** Where the billing portal's URL is opened (tests record it). */
  navigate?: (url: string) => void;
}) {
  const id = useId();
  const key = useStoredKey();
  const siteConfig = useSiteConfig();
  const [formNotice, setFormNotice] = useState<(ErrorText & { tone: 'good' | 'bad' }) | null>(null);
  const [rotation, setRotation] = useState<RotationResponse | null>(null);

  const onUnauthorized = useCallback((error: AccountRequestError) => {
    setRotation(null);
    setFormNotice({ tone: 'bad', ...failureText(error, 'account') });
    keyStore.clear();
  }, []);
  const { account, usage, refreshing, refresh } = useAccountData(key, api, onUnauthorized);

  if (!key) {
    return (
      <>
        {formNotice?.tone === 'good' ? (
          <div role="status" className="mt-8">
            <Notice tone="good" title={formNotice.title} body={formNotice.body} />
          </div>
        ) : null}
        <KeyForm
          api={api}
          refusal={formNotice?.tone === 'bad' ? formNotice : null}
          onAccepted={(accepted) => {
            setFormNotice(null);
            keyStore.set(accepted);
          }}
        />
      </>
    );
  }

  const forget = () => {
    setRotation(null);
    setFormNotice({
      tone: 'good',
      title: 'Key forgotten',
      body: 'This tab no longer holds your key. Paste it again to see your account.',
    });
    keyStore.clear();
  };

  return (
    <div className="mt-8 space-y-6" aria-busy={account.status === 'loading' || refreshing}>
      {rotation ? <NewKeyNotice rotation={rotation} onDone={() => setRotation(null)} /> : null}
      {account.status === 'loading' ? (
        <p role="status" className="text-slate-300">
          Loading your account…
        </p>
      ) : account.status === 'error' ? (
        <div role="alert">
          <Failure read={account} what="account" onRetry={refresh} />
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p role="status" className="text-sm text-slate-400">
              {refreshing
                ? 'Refreshing…'
                : 'Figures as of your last load. Refreshing is free: this page uses none of your requests.'}
            </p>
            <Button variant="secondary" size="sm" onClick={refresh} disabled={refreshing}>
              Refresh
            </Button>
          </div>
          <AccountOverview account={account.data} />
          <section aria-labelledby={`${id}-usage`} className={sectionClass}>
            <h2 id={`${id}-usage`} className="text-lg font-semibold text-white">
              Requests per day
            </h2>
            <div className="mt-4">
              {usage.status === 'ok' ? (
                <UsageChart usage={usage.data} />
              ) : usage.status === 'error' ? (
                <Failure read={usage} what="usage" onRetry={refresh} />
              ) : (
                <p className="text-slate-300">Loading usage…</p>
              )}
            </div>
          </section>
          <section aria-labelledby={`${id}-next`} className={sectionClass}>
            <h2 id={`${id}-next`} className="text-lg font-semibold text-white">
              Plans, billing and docs
            </h2>
            <div className="mt-4">
              <AccountLinks
                account={account.data}
                siteConfig={siteConfig}
                portal={
                  <OpenPortal apiKey={key} api={api} navigate={navigate} onUnauthorized={onUnauthorized} />
                }
              />
            </div>
          </section>
        </>
      )}
      <section aria-labelledby={`${id}-key`} className={sectionClass}>
        <h2 id={`${id}-key`} className="text-lg font-semibold text-white">
          Your key
        </h2>
        {account.status === 'ok' ? (
          <div className="mt-4">
            <KeyFacts account={account.data} />
          </div>
        ) : null}
        <p className="mt-4 max-w-3xl text-sm text-slate-300">
          Rotating gives you a new key and stops this one at once, everywhere. Forgetting only removes the key
          from this browser tab; the key keeps working.
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          {account.status === 'ok' ? (
            <RotateKey
              apiKey={key}
              prefix={account.data.key.prefix}
              api={api}
              onUnauthorized={onUnauthorized}
              onRotated={(next) => {
                setRotation(next);
                keyStore.set(next.key);
              }}
            />
          ) : null}
          <Button variant="ghost" className="border border-slate-700" onClick={forget}>
            Forget this key
          </Button>
        </div>
      </section>
    </div>
  );
}
