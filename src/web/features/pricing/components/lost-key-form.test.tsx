// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { NewKeyRequestError, type NewKeyRequest } from '../api/request-new-key.ts';
import { formatWait, LOST_KEY_NETWORK_TEXT, LostKeyForm, lostKeySuccessText } from './lost-key-form.tsx';

afterEach(cleanup);

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

async function fillAndSend(email: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Subscription email'), email);
  await user.click(screen.getByRole('button', { name: 'Email me a new key' }));
  return user;
}

const failingWith = (error: unknown) => async () => {
  throw error;
};

describe('LostKeyForm', () => {
  it('disables the button while sending, then says a key is on its way for that address and clears the input', async () => {
    const pending = deferred();
    const sent: NewKeyRequest[] = [];
    render(
      <LostKeyForm
        request={async (request) => {
          sent.push(request);
          await pending.promise;
        }}
      />,
    );
    await fillAndSend('ada@example.com');
    const busy = await screen.findByRole('button', { name: 'Sending...' });
    expect(busy).toBeDisabled();
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    pending.resolve();
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'If ada@example.com has a Sharpline subscription or an active trial, a new key is on its way. Your previous key keeps working until you use the new one.',
      ),
    );
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('button', { name: 'Email me a new key' })).toBeEnabled();
    expect(screen.getByLabelText('Subscription email')).toHaveValue('');
    expect(sent).toEqual([{ email: 'ada@example.com' }]);
  });

  it('sends the address without surrounding spaces and without the empty honeypot', async () => {
    const sent: NewKeyRequest[] = [];
    render(<LostKeyForm request={async (request) => void sent.push(request)} />);
    await fillAndSend('  grace@example.com ');
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(lostKeySuccessText('grace@example.com')),
    );
    expect(sent).toEqual([{ email: 'grace@example.com' }]);
  });

  it("shows the server's field error next to the input, keeps the text, and clears the error on edit", async () => {
    render(
      <LostKeyForm
        request={failingWith(
          new NewKeyRequestError('Server error: 400', 400, 'One or more fields are invalid.', {
            email: ['Enter a valid email address'],
          }),
        )}
      />,
    );
    const user = await fillAndSend('ada@localhost');
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a valid email address');
    const input = screen.getByLabelText('Subscription email');
    expect(input).toHaveValue('ada@localhost');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Enter a valid email address');
    await user.type(input, 'x');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it("shows a rate limit's detail and wait in a dismissible alert, and keeps the text", async () => {
    render(
      <LostKeyForm
        request={failingWith(
          new NewKeyRequestError(
            'Server error: 429',
            429,
            'Too many requests for this address. Try again later.',
            {},
            2 * 3600 + 5,
          ),
        )}
      />,
    );
    const user = await fillAndSend('ada@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Too many requests for this address\. Try again in 3 hours\.$/,
    );
    expect(screen.getByLabelText('Subscription email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Subscription email')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('button', { name: 'Email me a new key' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('says the server could not be reached on a network failure, and the visitor can send again', async () => {
    let calls = 0;
    render(
      <LostKeyForm
        request={async () => {
          calls += 1;
          if (calls === 1) throw new NewKeyRequestError('Network error: TypeError', undefined);
        }}
      />,
    );
    const user = await fillAndSend('ada@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(LOST_KEY_NETWORK_TEXT);
    expect(screen.getByLabelText('Subscription email')).toHaveValue('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me a new key' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(lostKeySuccessText('ada@example.com')),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls).toBe(2);
  });

  it('rounds waits up to whole seconds, minutes or hours', () => {
    expect([0, 1, 45, 60, 61, 3540, 3541, 3600, 3601, 8 * 3600].map(formatWait)).toEqual([
      '1 second',
      '1 second',
      '45 seconds',
      '1 minute',
      '2 minutes',
      '59 minutes',
      '1 hour',
      '1 hour',
      '2 hours',
      '8 hours',
    ]);
  });

  it('falls back to a generic line when a refusal has no detail', async () => {
    render(<LostKeyForm request={failingWith(new NewKeyRequestError('Server error: 502', 502))} />);
    await fillAndSend('ada@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Something went wrong (error 502). Please try again.',
    );
  });

  it('sends once however often the button is pressed while sending', async () => {
    const pending = deferred();
    let calls = 0;
    render(
      <LostKeyForm
        request={async () => {
          calls += 1;
          await pending.promise;
        }}
      />,
    );
    const user = await fillAndSend('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Sending...' }));
    pending.resolve();
    await waitFor(() => expect(screen.getByRole('status')).not.toBeEmptyDOMElement());
    expect(calls).toBe(1);
  });

  it('labels a required email input that browsers autofill, under a "Lost your key?" heading', () => {
    render(<LostKeyForm />);
    expect(screen.getByRole('form', { name: 'Lost your key?' })).toBeInTheDocument();
    const input = screen.getByLabelText('Subscription email');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toHaveAttribute('autocomplete', 'email');
  });
});
