import { useEffect, useId, useState, type FormEvent } from 'react';
import { formatDelay, FREE_PLAN } from '#domain/plans.ts';
import { ROUTES } from '#domain/site.ts';
import { cleanKey, keyStore } from '#web/lib/key-store.ts';
import { useHydrated } from '#web/lib/use-hydrated.ts';
import { ApiKeyInput } from '#web/ui/api-key-input.tsx';
import { Button } from '#web/ui/button.tsx';
import type { KeyedFeedError, KeyedView } from '../api/get-arbs.ts';

// The arbitrage page's key box (issue 56, decision 213). Without a key the page shows the free tier (src/domain/plans.ts):
// arbs up to its cap in real time and near-arbs, and it counts the arbs above the cap with the way to see them. A key
// pasted here is kept in this tab only (sessionStorage, as /account keeps it) and sent only in X-Api-Key to this
// site's /v1: the page then shows what the key's plan gets. A key the server does not accept (401) is forgotten.

const FREE_CAP = FREE_PLAN.finders.arbEdgeCapPct;

/** What the page says the key's plan shows. */
export function planViewText(plan: KeyedView): string {
  if (plan.delaySeconds === 0 || plan.delayedAboveEdgePct === null) return 'every arb in real time';
  return `arbs up to ${plan.delayedAboveEdgePct}% edge in real time, those above it ${formatDelay(plan.delaySeconds)} late`;
}

export function ToolKeyBox({
  apiKey,
  plan,
  error,
  aboveCap,
}: {
  apiKey: string | null;
  /** What /v1/arbs said of the key's plan, once it answered. */
  plan: KeyedView | undefined;
  error: KeyedFeedError | undefined;
  /** The public feed's arbs above the free cap under this tab and the visitor's books. */
  aboveCap: { count: number; edgePct: number } | undefined;
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
      {apiKey ? (
        <p>
          With your key: {plan ? planViewText(plan) : 'reading your plan’s arbs…'}{' '}
          {error && error.status !== 401 ? (
            <span role="alert" className="text-amber-200">
              {error.message}{' '}
            </span>
          ) : null}
          <button type="button" className={link} onClick={() => keyStore.clear()}>
            Forget key
          </button>
        </p>
      ) : (
        <>
          <p>
            <span data-testid="above-cap">
              {/* Each text in its own span: React replaces the free text rather than rewriting its text nodes in place,
                  which the browser counts as those nodes moving (a layout shift; decision 175). */}
              {aboveCap && aboveCap.count > 0 ? (
                <span key="above-cap">
                  <strong className="font-semibold text-white">
                    {aboveCap.count} more above {aboveCap.edgePct}%
                  </strong>{' '}
                  edge with a plan.{' '}
                </span>
              ) : (
                <span key="free">Free: arbs up to {FREE_CAP}% edge in real time. </span>
              )}
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
        </>
      )}
    </div>
  );
}
