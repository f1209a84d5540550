import { Fragment, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { ROUTES } from '#domain/site.ts';
import { cleanKey, keyStore } from '#web/lib/key-store.ts';
import type { KeyedFeedError } from '#web/lib/keyed-fetch.ts';
import { useHydrated } from '#web/lib/use-hydrated.ts';
import { ApiKeyInput } from '#web/ui/api-key-input.tsx';
import { Button } from '#web/ui/button.tsx';

// The finder pages' key box (issue 56, decisions 213 and 224): the arbitrage, positive-EV and middles pages. Without a
// key the page shows the free tier (src/domain/plans.ts) and says what that is, with a link to the plans. A key pasted
// here is kept in this tab only (sessionStorage, as /account keeps it: src/web/lib/key-store.ts) and sent only in
// X-Api-Key to this site's /v1 (src/web/lib/keyed-fetch.ts): the page then shows what the key's plan gets. A key the
// server does not accept (401) is forgotten, and the box says why. The form exists only once the script has run (its
// toggle is drawn, disabled, before), so it never posts and never puts a key in a URL (decision 208).

export function ToolKeyBox({
  apiKey,
  plan,
  reading,
  error,
  free,
}: {
  apiKey: string | null;
  /** What the key's plan shows on this page ("every arb in real time"), once its answer came. */
  plan: string | undefined;
  /** What is read with the key meanwhile ("your plan’s arbs"). */
  reading: string;
  error: KeyedFeedError | undefined;
  /**
   * The free view's words before "See the plans". Give each text its own element with its own `key`: React then
   * replaces one text by another rather than rewriting its text nodes in place, which the browser counts as those
   * nodes moving (a layout shift; decision 175).
   */
  free: ReactNode;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  // A key the server does not know (or revoked, expired, suspended) is forgotten; the page goes back to the free view
  // and says why until another key is pasted.
  const [refused, setRefused] = useState<KeyedFeedError | undefined>(undefined);
  if (error?.status === 401 && error !== refused) {
    setRefused(error);
    setRefusal(`Your key was not accepted: ${error.message} The page shows the free view.`);
  }
  useEffect(() => {
    if (error?.status === 401) keyStore.clear();
  }, [error]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const key = cleanKey(String(new FormData(form).get('api-key') ?? ''));
    if (!key) return;
    form.reset();
    setRefusal(null);
    setOpen(false);
    keyStore.set(key);
  }

  const link = 'font-semibold text-emerald-300 underline underline-offset-4 hover:text-emerald-200';
  return (
    <div
      data-testid="key-box"
      // Two lines of text on a phone in every state (before the script, before the data, with a key), so nothing
      // below moves when they change (decision 175).
      className="mt-3 rounded-lg border border-slate-800 bg-slate-900/60 px-3 py-2 text-sm text-slate-300 max-sm:min-h-[3.625rem]"
    >
      {/* Each state its own keyed element: a key read after hydration replaces the prerendered free view's paragraph
          rather than rewriting its text in place (decision 175). */}
      {apiKey ? (
        <p key="with-key">
          {/* First and floated right: where it stands does not depend on the text beside it, which changes when the
              plan's answer comes (decision 175). */}
          <button
            type="button"
            className={`${link} float-right ml-2 h-5 leading-5`}
            onClick={() => keyStore.clear()}
          >
            Forget key
          </button>
          With your key:{' '}
          {plan ? <span key="plan">{plan}</span> : <span key="reading">reading {reading}…</span>}
          {error && error.status !== 401 ? (
            <span role="alert" className="text-amber-200">
              {' '}
              {error.message}
            </span>
          ) : null}
        </p>
      ) : (
        <Fragment key="free">
          <p>
            <span data-testid="free-view">
              {free}
              <a className={link} href={`${ROUTES.pricing}#plan-free`}>
                See the plans
              </a>
            </span>
            {/* Drawn before the script too (the text keeps its length), usable once it has run. */} or{' '}
            <button
              type="button"
              className={`${link} disabled:no-underline disabled:opacity-70`}
              disabled={!hydrated}
              aria-expanded={open}
              aria-controls={`${id}-form`}
              onClick={() => setOpen((value) => !value)}
            >
              paste your API key
            </button>
          </p>
          {refusal ? (
            <p role="alert" className="mt-1 text-amber-200">
              {refusal}
            </p>
          ) : null}
          {open ? (
            <form id={`${id}-form`} className="mt-2 flex flex-wrap items-end gap-2" onSubmit={submit}>
              <label htmlFor={`${id}-key`} className="w-full text-slate-200">
                API key (kept in this tab only, sent only to this site’s API)
              </label>
              <ApiKeyInput
                id={id}
                className="h-9 min-w-0 flex-1 rounded-md border border-slate-600 bg-slate-950 px-2 font-mono text-slate-100"
              />
              <Button type="submit" size="sm">
                Use key
              </Button>
            </form>
          ) : null}
        </Fragment>
      )}
    </div>
  );
}
