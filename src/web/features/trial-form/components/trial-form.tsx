import { useId, useState, type FormEvent } from 'react';
import { TRIAL, trialTerms } from '#domain/plans.ts';
import { Button } from '#web/ui/button.tsx';
import { DismissButton } from '#web/ui/dismiss-button.tsx';
import { retryText } from '#web/lib/refusal.ts';
import { buildTrialPayload, submitTrialRequest, TrialRequestError } from '../api/submit-trial-request.ts';
import { EmailInput, inputClass } from '#web/ui/email-input.tsx';
import { HoneypotField } from '#web/ui/honeypot-field.tsx';
import { FormAnswerNotices } from '#web/ui/target-notice.tsx';
import { TRIAL_NOTICES, type TrialNotice } from '#domain/site-notices.ts';
import { publicConfig } from '#web/config.ts';
import { useFormAnswer, useHydrated } from '#web/lib/use-hydrated.ts';

// The shared zod schema is loaded on first focus or submit, not with the page: it is 23 KB gzip and the home page's
// JavaScript budget is 120 KB (docs/decisions/004-home-page-javascript-budget.md).
const loadSchema = () => import('#domain/schemas/trial-request.ts').then((module) => module.TrialFormSchema);

// docs/product.md §4 "Trial form": idle → submitting (button disabled, 'Submitting Request...') → success or error banner
// (dismissible); the form is cleared on success. docs/product.md §8 texts are exact.
// Before the page's script has run (a slow phone) and without JavaScript, the same form posts itself to the same
// endpoint as a plain HTML form, and the server answers with a 303 to this page's notice (decision 208). The inputs
// are uncontrolled, so that nothing typed before the script arrived is lost or overwritten when it does.

// Issue 56: the answer is the same for every address (it must not tell who has a trial), so its text is true of every
// case: a new trial and an active one get a key by email, an ended one an email saying why not (decision 217).
export const TRIAL_SUCCESS_TEXT =
  'Check your email. We have sent your trial key to this address, or, if this address has already had its free trial, an email explaining why no new key was sent.';
export const TRIAL_FAILURE_TEXT = 'Failed to send trial request. Please try again.';

/**
 * The error banner's text: a 429 says the server's reason and when to try again (issue 34: "Failed to send…" hid
 * both); any other failure keeps docs/product.md §8's text.
 */
export function trialFailureText(error: unknown): string {
  if (error instanceof TrialRequestError && error.status === 429 && error.detail) {
    return retryText(error.detail, error.retryAfterSeconds);
  }
  if (error instanceof TrialRequestError && error.status === 429 && error.retryAfterSeconds !== undefined) {
    return retryText('Too many trial requests.', error.retryAfterSeconds);
  }
  return TRIAL_FAILURE_TEXT;
}

type Status = 'idle' | 'submitting' | 'success' | 'error';
type Fields = { name: string; email: string; company: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

/** What the home page says after the form was posted without its script (the server's 303 names the notice). */
export const TRIAL_NOTICE_TEXT: Record<TrialNotice, { tone: 'error' | 'info'; text: string }> = {
  sent: { tone: 'info', text: TRIAL_SUCCESS_TEXT },
  invalid: {
    tone: 'error',
    text: 'Your request was not sent: the name or email address was not accepted. Check both and try again.',
  },
  busy: {
    tone: 'error',
    text: 'Too many trial requests from your network or for this address. Nothing was sent; please try again later.',
  },
  failed: { tone: 'error', text: TRIAL_FAILURE_TEXT },
};

/** The text of a form field, as typed (the inputs are uncontrolled: what was typed before hydration is kept). */
const textOf = (data: FormData, name: string) => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

export function TrialForm({ submit = submitTrialRequest }: { submit?: typeof submitTrialRequest }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState<Status>('idle');
  const [failure, setFailure] = useState(TRIAL_FAILURE_TEXT);
  const id = useId();
  const hydrated = useHydrated();
  // Posted before the script ran: the server's answer is in the URL; from now on the page's own banner says it.
  useFormAnswer(
    TRIAL_NOTICES,
    (notice) => {
      const { tone, text } = TRIAL_NOTICE_TEXT[notice];
      setFailure(text);
      setStatus(tone === 'info' ? 'success' : 'error');
    },
    'trial',
  );

  const clearError = (key: keyof Fields) => () =>
    setErrors((current) => (current[key] ? { ...current, [key]: undefined } : current));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'submitting') return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const fields: Fields = {
      name: textOf(data, 'name'),
      email: textOf(data, 'email'),
      company: textOf(data, 'company'),
    };
    let schema;
    try {
      schema = await loadSchema();
    } catch {
      setFailure(TRIAL_FAILURE_TEXT);
      setStatus('error');
      return;
    }
    const parsed = schema.safeParse(fields);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Fields;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setStatus('submitting');
    try {
      await submit(
        buildTrialPayload(
          parsed.data,
          {
            userAgent: navigator.userAgent,
            referrer: document.referrer,
            cookie: document.cookie,
            now: new Date(),
          },
          textOf(data, 'website'),
        ),
      );
      form.reset();
      setStatus('success');
    } catch (error) {
      setFailure(trialFailureText(error));
      setStatus('error');
    }
  }

  const submitting = status === 'submitting';
  return (
    <form
      method="post"
      action={publicConfig.trialEndpoint}
      onSubmit={onSubmit}
      onFocus={() => void loadSchema().catch(() => undefined)}
      aria-labelledby={`${id}-title`}
      className="rounded-2xl border border-slate-700 bg-slate-900/80 p-5 shadow-2xl shadow-emerald-950/40 sm:p-6"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Get your free trial API key
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        {TRIAL.days} days with {trialTerms()}. No card required.
      </p>

      {/* Before the script has run, the server's answer to a plain form post shows by the URL's fragment. */}
      <FormAnswerNotices
        hydrated={hydrated}
        notices={TRIAL_NOTICES}
        texts={TRIAL_NOTICE_TEXT}
        className="mt-4"
      />
      {status === 'success' || status === 'error' ? (
        <div
          role={status === 'error' ? 'alert' : 'status'}
          className={
            status === 'success'
              ? 'mt-4 flex items-start justify-between gap-3 rounded-md border border-emerald-400/60 bg-emerald-950 px-3 py-2 text-sm text-emerald-100'
              : 'mt-4 flex items-start justify-between gap-3 rounded-md border border-rose-400/60 bg-rose-950 px-3 py-2 text-sm text-rose-100'
          }
        >
          <span>{status === 'success' ? TRIAL_SUCCESS_TEXT : failure}</span>
          <DismissButton onClick={() => setStatus('idle')} />
        </div>
      ) : null}

      <div className="mt-4 space-y-3">
        <div>
          <label htmlFor={`${id}-name`} className="text-sm font-medium text-slate-200">
            Full Name{' '}
            <span aria-hidden="true" className="text-rose-300">
              *
            </span>
          </label>
          <input
            id={`${id}-name`}
            name="name"
            required
            autoComplete="name"
            maxLength={120}
            onInput={clearError('name')}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? `${id}-name-error` : undefined}
            className={inputClass}
          />
          {errors.name ? (
            <p id={`${id}-name-error`} className="mt-1 text-sm text-rose-300">
              {errors.name}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={`${id}-email`} className="text-sm font-medium text-slate-200">
            Email{' '}
            <span aria-hidden="true" className="text-rose-300">
              *
            </span>
          </label>
          <EmailInput id={id} onInput={clearError('email')} invalid={Boolean(errors.email)} />
          {errors.email ? (
            <p id={`${id}-email-error`} className="mt-1 text-sm text-rose-300">
              {errors.email}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={`${id}-company`} className="text-sm font-medium text-slate-200">
            Company <span className="font-normal text-slate-400">(optional)</span>
          </label>
          <input
            id={`${id}-company`}
            name="company"
            autoComplete="organization"
            maxLength={160}
            onInput={clearError('company')}
            aria-invalid={errors.company ? true : undefined}
            aria-describedby={errors.company ? `${id}-company-error` : undefined}
            className={inputClass}
          />
          {errors.company ? (
            <p id={`${id}-company-error`} className="mt-1 text-sm text-rose-300">
              {errors.company}
            </p>
          ) : null}
        </div>
        <HoneypotField id={id} />
      </div>
      <Button type="submit" size="lg" className="mt-5 w-full" disabled={submitting}>
        {submitting ? 'Submitting Request...' : 'Get Free Trial Key'}
      </Button>
      <p className="mt-3 text-xs text-slate-400">We email the key to you. One trial per email address.</p>
    </form>
  );
}
