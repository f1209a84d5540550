// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrialRequestInput } from '#domain/schemas/trial-request.ts';
import { TRIAL_NOTICE_TEXT, TRIAL_SUCCESS_TEXT, TrialForm } from './trial-form.tsx';

// The home page is prerendered and hydrated later (decision 208): what a visitor types before the script arrives must
// survive hydration and the renders after it, and the prerendered form must post by itself.

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
  cleanup();
});

/** The prerendered HTML in the document, as a browser shows it before the script has run. */
function prerender(element: React.ReactElement): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = renderToString(element);
  document.body.append(container);
  return container;
}

const typeBeforeHydration = (label: RegExp, value: string) => {
  const input = screen.getByLabelText(label) as HTMLInputElement;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

describe('TrialForm before and after hydration', () => {
  it('prerenders a form that posts itself to the trial endpoint, never by GET', () => {
    prerender(<TrialForm />);
    const form = document.querySelector('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/api/trial-requests');
    expect([...form.querySelectorAll('input')].map((input) => input.name).sort()).toEqual([
      'company',
      'email',
      'name',
      'website',
    ]);
  });

  it('keeps what was typed before hydration through later typing, and sends it', async () => {
    const sent: TrialRequestInput[] = [];
    const element = (
      <TrialForm
        submit={async (payload) => {
          sent.push(payload);
        }}
      />
    );
    const container = prerender(element);
    typeBeforeHydration(/Full Name/, 'Ada Lovelace');
    typeBeforeHydration(/Email/, 'ada@example.com');
    await act(async () => {
      root = hydrateRoot(container, element);
    });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Company/), 'Engines');
    expect(screen.getByLabelText(/Full Name/)).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText(/Email/)).toHaveValue('ada@example.com');

    await user.click(screen.getByRole('button', { name: 'Get Free Trial Key' }));
    expect(await screen.findByRole('status')).toHaveTextContent(TRIAL_SUCCESS_TEXT);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', company: 'Engines' });
  });

  it("holds every notice of the server's answer in the prerendered page, each shown only by its fragment", () => {
    prerender(<TrialForm />);
    for (const id of ['trial-sent', 'trial-invalid', 'trial-busy', 'trial-failed']) {
      const notice = document.getElementById(id)!;
      expect(notice.className).toMatch(/\bhidden\b/);
      expect(notice.className).toMatch(/target:block/);
    }
  });

  it("says after hydration what the server's answer named, and takes the flag out of the address", async () => {
    window.history.replaceState(null, '', '/?trial=busy#trial-busy');
    const element = <TrialForm />;
    const container = prerender(element);
    await act(async () => {
      root = hydrateRoot(container, element);
    });
    expect(screen.getByRole('alert')).toHaveTextContent(TRIAL_NOTICE_TEXT.busy.text);
    // Only the page's own banner is left: the prerendered notices are gone.
    expect(document.getElementById('trial-busy')).toBeNull();
    expect(window.location.search).toBe('');
    expect(window.location.hash).toBe('#trial');
  });
});
