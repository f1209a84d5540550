import { useId, useState, type FormEvent } from 'react';
import { ROUTES } from '#domain/site.ts';
import { Button } from '#web/ui/button.tsx';
import { inputClass } from '#web/ui/email-input.tsx';
import { AccountRequestError, type AccountApi } from '../api/account-api.ts';
import { failureText, type ErrorText } from '../lib/account-text.ts';
import { cleanKey } from '../lib/key-store.ts';
import { Notice } from './notice.tsx';

// "Paste your API key" (decision 156): the key is checked with GET /v1/me before the page keeps it (in this tab's
// sessionStorage), so a mistyped key is refused here, with the text still in the box to correct.

export function KeyForm({
  api,
  onAccepted,
  refusal,
}: {
  api: Pick<AccountApi, 'fetchAccount'>;
  /** The key answered 200: the page keeps it and shows its account. */
  onAccepted: (key: string) => void;
  /** Why the key the page held stopped working (it was forgotten), shown until the next try. */
  refusal?: ErrorText | null;
}) {
  const id = useId();
  const [value, setValue] = useState('');
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<ErrorText | null>(null);
  const shown = error ?? (checking ? null : (refusal ?? null));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const key = cleanKey(value);
    if (!key) {
      setError({
        title: 'Paste your API key',
        body: 'It is in the email that brought it: sl_live_… or sl_trial_….',
      });
      return;
    }
    setChecking(true);
    setError(null);
    try {
      await api.fetchAccount(key);
      setValue('');
      onAccepted(key);
    } catch (caught) {
      setError(
        caught instanceof AccountRequestError
          ? failureText(caught, 'account')
          : failureText({ kind: 'server' }, 'account'),
      );
    } finally {
      setChecking(false);
    }
  }

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mt-8 rounded-2xl border border-slate-800 bg-slate-900/60 p-6"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Paste your API key
      </h2>
      <p className="mt-1 max-w-2xl text-slate-300">
        There is no login: your key is your proof. It stays in this browser tab only (gone when you close it)
        and is sent only to this site&apos;s API, in the X-Api-Key header.
      </p>
      <form className="mt-4" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor={`${id}-key`} className="text-sm font-medium text-slate-200">
          API key
        </label>
        <div className="sm:grid sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-x-3">
          <input
            id={`${id}-key`}
            name="api-key"
            type="password"
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            maxLength={200}
            placeholder="sl_live_…"
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              setError(null);
            }}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? `${id}-error` : undefined}
            className={`${inputClass} font-mono`}
          />
          <Button
            type="submit"
            size="lg"
            disabled={checking}
            className="mt-3 w-full sm:col-start-2 sm:row-start-1 sm:mt-1 sm:h-auto sm:min-w-44"
          >
            {checking ? 'Checking…' : 'Show my account'}
          </Button>
        </div>
      </form>
      <div id={`${id}-error`} role="alert" className="empty:hidden">
        {shown ? <Notice tone="bad" title={shown.title} body={shown.body} className="mt-4" /> : null}
      </div>
      <p className="mt-4 text-sm text-slate-400">
        No key yet?{' '}
        <a
          className="font-semibold text-emerald-300 underline-offset-4 hover:underline"
          href={ROUTES.trialForm}
        >
          Start a free trial
        </a>{' '}
        or{' '}
        <a
          className="font-semibold text-emerald-300 underline-offset-4 hover:underline"
          href={ROUTES.pricing}
        >
          choose a plan
        </a>
        . Lost it?{' '}
        <a
          className="font-semibold text-emerald-300 underline-offset-4 hover:underline"
          href={`${ROUTES.pricing}#lost-key`}
        >
          Ask for a new one
        </a>
        .
      </p>
    </section>
  );
}
