// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { submitTrialRequest } from '../api/submit-trial-request.ts';
import { TRIAL_FAILURE_TEXT, TRIAL_SUCCESS_TEXT, TrialForm } from './trial-form.tsx';

afterEach(cleanup);

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function fill() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/Full Name/), 'Ada Lovelace');
  await user.type(screen.getByLabelText(/Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/Company/), 'Engines');
  return user;
}

describe('TrialForm', () => {
  it('disables the button while submitting, then shows success and clears the form', async () => {
    const pending = deferred();
    const sent: unknown[] = [];
    render(
      <TrialForm
        submit={async (payload) => {
          sent.push(payload);
          await pending.promise;
        }}
      />,
    );
    const user = await fill();
    await user.click(screen.getByRole('button', { name: 'Get Free Trial Key' }));
    const busy = await screen.findByRole('button', { name: 'Submitting Request...' });
    expect(busy).toBeDisabled();
    pending.resolve();
    expect(await screen.findByRole('status')).toHaveTextContent(TRIAL_SUCCESS_TEXT);
    expect(screen.getByLabelText(/Full Name/)).toHaveValue('');
    expect(screen.getByLabelText(/Email/)).toHaveValue('');
    expect(screen.getByLabelText(/Company/)).toHaveValue('');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', company: 'Engines' });
  });

  it('shows the failure banner, keeps the input, and lets the visitor dismiss it', async () => {
    render(
      <TrialForm
        submit={async () => {
          throw new Error('Server error: 500');
        }}
      />,
    );
    const user = await fill();
    await user.click(screen.getByRole('button', { name: 'Get Free Trial Key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(TRIAL_FAILURE_TEXT);
    expect(screen.getByLabelText(/Email/)).toHaveValue('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('refuses an address the shared schema rejects without sending anything', async () => {
    let calls = 0;
    render(
      <TrialForm
        submit={async () => {
          calls += 1;
        }}
      />,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Full Name/), 'Ada');
    await user.type(screen.getByLabelText(/Email/), 'ada@localhost');
    await user.click(screen.getByRole('button', { name: 'Get Free Trial Key' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toBe(0);
  });

  it('marks Full Name and Email required and Email of type email; Company optional', () => {
    render(<TrialForm />);
    expect(screen.getByLabelText(/Full Name/)).toBeRequired();
    expect(screen.getByLabelText(/Email/)).toBeRequired();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/Company/)).not.toBeRequired();
  });

  it('says what a trial key gets: the Pro plan limits with their delay, never "real-time odds"', () => {
    render(<TrialForm />);
    const form = screen.getByRole('form', { name: 'Get your free trial API key' });
    expect(form).toHaveTextContent(
      '7 days with Pro plan limits: odds delayed up to 15 seconds, 100 requests per minute. No card required.',
    );
    expect(form).not.toHaveTextContent(/real-time/i);
  });

  // Issue 34: a 429 whose problem said when to retry showed only "Failed to send trial request".
  const refusals: [string, ResponseInit & { body: unknown }, string][] = [
    [
      'the Retry-After header',
      {
        status: 429,
        headers: { 'content-type': 'application/problem+json', 'retry-after': '3540' },
        body: { status: 429, detail: 'Too many trial requests from this network. Try again later.' },
      },
      'Too many trial requests from this network. Try again in 59 minutes.',
    ],
    [
      "the problem's retryAfter when the header is missing",
      {
        status: 429,
        headers: { 'content-type': 'application/problem+json' },
        body: { status: 429, detail: 'Too many trial requests for this address.', retryAfter: 7200 },
      },
      'Too many trial requests for this address. Try again in 2 hours.',
    ],
  ];
  for (const [name, answer, text] of refusals) {
    it(`shows a 429's reason and its wait, from ${name}`, async () => {
      const fetchImpl = (async () =>
        new Response(JSON.stringify(answer.body), {
          status: answer.status,
          headers: answer.headers,
        })) as typeof fetch;
      render(
        <TrialForm submit={(payload) => submitTrialRequest(payload, fetchImpl, '/api/trial-requests')} />,
      );
      const user = await fill();
      await user.click(screen.getByRole('button', { name: 'Get Free Trial Key' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        new RegExp(`^${text.replace(/[.]/g, '\\.')}$`),
      );
      expect(screen.getByLabelText(/Email/)).toHaveValue('ada@example.com');
    });
  }

  it('keeps the generic failure text for a 5xx problem', async () => {
    const fetchImpl = (async () =>
      new Response('{"status":500,"detail":"Internal"}', {
        status: 500,
        headers: { 'content-type': 'application/problem+json' },
      })) as typeof fetch;
    render(<TrialForm submit={(payload) => submitTrialRequest(payload, fetchImpl, '/api/trial-requests')} />);
    const user = await fill();
    await user.click(screen.getByRole('button', { name: 'Get Free Trial Key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(TRIAL_FAILURE_TEXT);
  });
});
