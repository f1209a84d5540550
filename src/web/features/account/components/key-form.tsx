import { useId, useState, type FormEvent } from 'react';
import { ROUTES } from '#domain/site.ts';
import { ApiKeyInput } from '#web/ui/api-key-input.tsx';
import { Button } from '#web/ui/button.tsx';
import { inputClass } from '#web/ui/email-input.tsx';
import { AccountRequestError, type AccountApi } from '../api/account-api.ts';
import { failureText, type ErrorText } from '../lib/account-text.ts';
import { cleanKey } from '#web/lib/key-store.ts';
import { Notice } from './notice.tsx';
import { ACCOUNT_NOTICES } from '#domain/site-notices.ts';
import { useFormAnswer, useHydrated } from '#web/lib/use-hydrated.ts';
import { TargetNotice } from '#web/ui/target-notice.tsx';

/** Why a key sent without the page's script showed nothing (the server read none of it). */
const NEEDS_SCRIPT: ErrorText = {
  title: 'Your key was not read',
  body: 'This page shows your account with its script, which had not run: the key was not read, kept or logged. Paste it again once the page has loaded (with JavaScript on), or call GET /v1/me with the key in the X-Api-Key header.',
};

// "Paste your API key" (decision 156): the key is checked with GET /v1/me before the page keeps it (in this tab's
// sessionStorage), so a mistyped key is refused here, with the text still in the box to correct. The input is
// uncontrolled, so a key pasted before the page's script has run is still there when it arrives (decision 208).

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
  const hydrated = useHydrated();
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<ErrorText | null>(null);
  useFormAnswer(ACCOUNT_NOTICES, () => setError(NEEDS_SCRIPT));
  const shown = error ?? (checking ? null : (refusal ?? null));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const key = cleanKey(String(new FormData(form).get('api-key') ?? ''));
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
      form.reset();
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
      {/* Posted only by this page's script (decision 208). Until it has run, the button is disabled, which also stops
          Enter from sending the form; should a client send it anyway, it goes by POST to a route that reads nothing. */}
      <form
        method="post"
        action={ROUTES.account}
        className="mt-4"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <label htmlFor={`${id}-key`} className="text-sm font-medium text-slate-200">
          API key
        </label>
        <div className="sm:grid sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-x-3">
          <ApiKeyInput
            id={id}
            onInput={() => setError(null)}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? `${id}-error` : undefined}
            className={`${inputClass} font-mono`}
          />
          <Button
            type="submit"
            size="lg"
            disabled={checking || !hydrated}
            className="mt-3 w-full sm:col-start-2 sm:row-start-1 sm:mt-1 sm:h-auto sm:min-w-44"
          >
            {checking ? 'Checking…' : 'Show my account'}
          </Button>
        </div>
        {hydrated ? null : (
          <p className="mt-2 text-sm text-slate-400">
            This page reads your account with its script, which has not run yet (or JavaScript is off): until
            it runs, your key is sent nowhere.
          </p>
        )}
      </form>
      {hydrated ? null : (
        <TargetNotice id={ACCOUNT_NOTICES.needsScript.id} tone="error" className="mt-4">
          {NEEDS_SCRIPT.title}. {NEEDS_SCRIPT.body}
        </TargetNotice>
      )}
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
