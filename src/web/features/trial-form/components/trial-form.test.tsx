// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
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
});
