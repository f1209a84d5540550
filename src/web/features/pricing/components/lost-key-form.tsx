import { useId, useState, type FormEvent } from 'react';
import { SITE } from '#domain/site.ts';
import { Button } from '#web/ui/button.tsx';
import { DismissButton } from '#web/ui/dismiss-button.tsx';
import { NewKeyRequestError, requestNewKey } from '../api/request-new-key.ts';
import { HoneypotField } from '#web/ui/honeypot-field.tsx';

// Issue 18, "Lost your key?": idle → sending (button disabled) → a success status or an error alert (dismissible).
// The success text is the same whether or not the address has a subscription, so the form reveals nothing about it.
// The address is cleared on success only; an error never loses what was typed.

export const LOST_KEY_INTRO =
  "Enter the email address of your subscription. We'll email a new API key to it; your current key keeps working until you use the new one.";
export const LOST_KEY_NETWORK_TEXT =
  'Could not reach the server. Check your connection and try again; your address is still in the form.';

export function lostKeySuccessText(email: string): string {
  return `If ${email} has a ${SITE.brand} subscription, a new key is on its way. Your previous key keeps working until you use the new one.`;
}

/** A wait rounded up, in seconds or minutes while fewer than 60, else in hours: `45 seconds`, `59 minutes`, `2 hours`. */
export function formatWait(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const [count, unit] =
    seconds < 60
      ? [Math.max(1, Math.ceil(seconds)), 'second']
      : minutes < 60
        ? [minutes, 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** What the visitor is told about a refusal: the server's field error or detail (with the wait of a 429), else a generic line. */
export function lostKeyFailureText(error: unknown): string {
  if (error instanceof NewKeyRequestError) {
    if (error.status === undefined) return LOST_KEY_NETWORK_TEXT;
    const fieldError = error.fieldErrors.email?.[0];
    if (fieldError) return fieldError;
    const text = error.detail ?? `Something went wrong (error ${error.status}). Please try again.`;
    if (error.status === 429 && error.retryAfterSeconds !== undefined) {
      return `${text} You can send again in ${formatWait(error.retryAfterSeconds)}.`;
    }
    return text;
  }
  return 'Something went wrong. Please try again.';
}

type State =
  | { status: 'idle' }
  | { status: 'sending' }
  | { status: 'sent'; email: string }
  | { status: 'failed'; message: string }
  | { status: 'invalid'; message: string };

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-600 bg-slate-950 px-3 py-2.5 text-base text-white placeholder:text-slate-400 focus:border-emerald-300 focus:outline-2 focus:outline-emerald-300 aria-[invalid=true]:border-rose-400';

export function LostKeyForm({ request = requestNewKey }: { request?: typeof requestNewKey }) {
  const [email, setEmail] = useState('');
  const [honeypot, setHoneypot] = useState('');
  const [state, setState] = useState<State>({ status: 'idle' });
  const id = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.status === 'sending') return;
    const address = email.trim();
    setState({ status: 'sending' });
    try {
      await request({ email: address, ...(honeypot ? { website: honeypot } : {}) });
      setEmail('');
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
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            required
            autoComplete="email"
            maxLength={254}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              if (invalid) setState({ status: 'idle' });
            }}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-email-error` : undefined}
            className={inputClass}
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
        <HoneypotField id={id} value={honeypot} onChange={setHoneypot} />

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
