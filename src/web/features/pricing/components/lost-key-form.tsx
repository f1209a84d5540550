import { useId, useState, type FormEvent } from 'react';
import { LOST_KEY_NOTICES, type LostKeyNotice } from '#domain/site-notices.ts';
import { publicConfig } from '#web/config.ts';
import { useFormAnswer, useHydrated } from '#web/lib/use-hydrated.ts';
import { FormAnswerNotices } from '#web/ui/target-notice.tsx';
import { SITE } from '#domain/site.ts';
import { Button } from '#web/ui/button.tsx';
import { DismissButton } from '#web/ui/dismiss-button.tsx';
import { NewKeyRequestError, requestNewKey } from '../api/request-new-key.ts';
import { EmailInput } from '#web/ui/email-input.tsx';
import { HoneypotField } from '#web/ui/honeypot-field.tsx';
import { formatWait, retryText } from '#web/lib/refusal.ts';

// Issue 18, "Lost your key?": idle → sending (button disabled) → a success status or an error alert (dismissible).
// The success text is the same whether or not the address has a subscription or a trial, so the form reveals nothing
// about it. Trial keys are served too (issue 56, decision 217).
// The address is cleared on success only; an error never loses what was typed. Before the page's script has run and
// without JavaScript the form posts itself as a plain HTML form (decision 208); the input is uncontrolled, so what was
// typed before the script arrived stays.

export const LOST_KEY_INTRO =
  "Enter the email address of your subscription or free trial. We'll email a new API key to it; your current key keeps working until you use the new one.";
export const LOST_KEY_NETWORK_TEXT =
  'Could not reach the server. Check your connection and try again; your address is still in the form.';

/** The answer to every address (`null`: posted without the script, the address is not in the page's URL). */
export function lostKeySuccessText(email: string | null): string {
  return `If ${email ?? 'that address'} has a ${SITE.brand} subscription or an active trial, a new key is on its way. Your previous key keeps working until you use the new one.`;
}

export { formatWait };

/** What the visitor is told about a refusal: the server's field error or detail (with the wait of a 429), else a generic line. */
export function lostKeyFailureText(error: unknown): string {
  if (error instanceof NewKeyRequestError) {
    if (error.status === undefined) return LOST_KEY_NETWORK_TEXT;
    const fieldError = error.fieldErrors.email?.[0];
    if (fieldError) return fieldError;
    const text = error.detail ?? `Something went wrong (error ${error.status}). Please try again.`;
    if (error.status === 429) return retryText(text, error.retryAfterSeconds);
    return text;
  }
  return 'Something went wrong. Please try again.';
}

type State =
  | { status: 'idle' }
  | { status: 'sending' }
  | { status: 'sent'; email: string | null }
  | { status: 'failed'; message: string }
  | { status: 'invalid'; message: string };

/** What the pricing page says after the form was posted without its script (the server's 303 names the notice). */
export const LOST_KEY_NOTICE_TEXT: Record<LostKeyNotice, { tone: 'error' | 'info'; text: string }> = {
  sent: { tone: 'info', text: lostKeySuccessText(null) },
  invalid: { tone: 'error', text: 'Enter a valid email address: nothing was sent.' },
  busy: {
    tone: 'error',
    text: 'Too many key requests from your network or for this address. Nothing was sent; please try again later.',
  },
  failed: { tone: 'error', text: 'The request could not be processed. Please try again.' },
};

const STATE_OF_NOTICE: Record<LostKeyNotice, (text: string) => State> = {
  sent: () => ({ status: 'sent', email: null }),
  invalid: (message) => ({ status: 'failed', message }),
  busy: (message) => ({ status: 'failed', message }),
  failed: (message) => ({ status: 'failed', message }),
};

export function LostKeyForm({ request = requestNewKey }: { request?: typeof requestNewKey }) {
  const [state, setState] = useState<State>({ status: 'idle' });
  const id = useId();
  const hydrated = useHydrated();
  useFormAnswer(
    LOST_KEY_NOTICES,
    (notice) => setState(STATE_OF_NOTICE[notice](LOST_KEY_NOTICE_TEXT[notice].text)),
    'lost-key',
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.status === 'sending') return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const address = String(data.get('email') ?? '').trim();
    const honeypot = String(data.get('website') ?? '');
    setState({ status: 'sending' });
    try {
      await request({ email: address, ...(honeypot ? { website: honeypot } : {}) });
      form.reset();
      setState({ status: 'sent', email: address });
    } catch (error) {
      const message = lostKeyFailureText(error);
      const invalid = error instanceof NewKeyRequestError && Boolean(error.fieldErrors.email?.length);
      setState({ status: invalid ? 'invalid' : 'failed', message });
    }
  }

  const sending = state.status === 'sending';
  const invalid = state.status === 'invalid';
  return (
    <form
      method="post"
      action={publicConfig.lostKeyEndpoint}
      onSubmit={onSubmit}
      aria-labelledby={`${id}-title`}
      className="mt-6 rounded-2xl border border-slate-800 bg-slate-900/60 p-6 lg:flex lg:items-start lg:justify-between lg:gap-10"
    >
      <div className="max-w-xl">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
          Lost your key?
        </h2>
        <p className="mt-1 text-slate-300">{LOST_KEY_INTRO}</p>
      </div>

      <div className="mt-4 lg:mt-0 lg:w-[30rem] lg:shrink-0">
        <label htmlFor={`${id}-email`} className="text-sm font-medium text-slate-200">
          Subscription email
        </label>
        {/* Phones: input, error, button stacked. Wider: the button beside the input (same height), the error below. */}
        <div className="sm:grid sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-x-3">
          <EmailInput
            id={id}
            onInput={() => {
              if (invalid) setState({ status: 'idle' });
            }}
            invalid={invalid}
          />
          {invalid ? (
            <p id={`${id}-email-error`} role="alert" className="mt-1 text-sm text-rose-300 sm:row-start-2">
              {state.message}
            </p>
          ) : null}
          <Button
            type="submit"
            size="lg"
            className="mt-3 w-full sm:col-start-2 sm:row-start-1 sm:mt-1 sm:h-auto sm:min-w-52"
            disabled={sending}
          >
            {sending ? 'Sending...' : 'Email me a new key'}
          </Button>
        </div>
        <HoneypotField id={id} />

        {/* Before the script has run, the server's answer to a plain form post shows by the URL's fragment. */}
        <FormAnswerNotices
          hydrated={hydrated}
          notices={LOST_KEY_NOTICES}
          texts={LOST_KEY_NOTICE_TEXT}
          className="mt-3"
        />
        {/* Always in the page, so that screen readers announce the text when it appears. */}
        <div role="status" aria-live="polite">
          {state.status === 'sent' ? (
            <div className="mt-3 flex items-start justify-between gap-3 rounded-md border border-emerald-400/60 bg-emerald-950 px-3 py-2 text-sm text-emerald-100">
              <span className="min-w-0 break-words">{lostKeySuccessText(state.email)}</span>
              <DismissButton onClick={() => setState({ status: 'idle' })} />
            </div>
          ) : null}
        </div>
        {state.status === 'failed' ? (
          <div
            role="alert"
            className="mt-3 flex items-start justify-between gap-3 rounded-md border border-rose-400/60 bg-rose-950 px-3 py-2 text-sm text-rose-100"
          >
            <span className="min-w-0 break-words">{state.message}</span>
            <DismissButton onClick={() => setState({ status: 'idle' })} />
          </div>
        ) : null}
      </div>
    </form>
  );
}
