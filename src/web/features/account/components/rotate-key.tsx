import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import { Button } from '#web/ui/button.tsx';
import { DialogBackdrop } from '#web/ui/dialog-backdrop.tsx';
import { AccountRequestError, type AccountApi } from '../api/account-api.ts';
import type { RotationResponse } from '#domain/schemas/api/account.ts';
import { failureText, type ErrorText } from '../lib/account-text.ts';
import { Notice } from './notice.tsx';

// "Rotate key" (decision 156): a confirm dialog, then POST /v1/me/rotate with the key. The new key goes to the page
// (shown once, kept in the tab); the old one stops working on every instance. A refused key (401) leaves the page;
// any other failure is said in the dialog and the key is unchanged.

export function RotateKey({
  apiKey,
  prefix,
  api,
  onRotated,
  onUnauthorized,
}: {
  apiKey: string;
  prefix: string;
  api: Pick<AccountApi, 'rotateKey'>;
  onRotated: (rotation: RotationResponse) => void;
  onUnauthorized: (error: AccountRequestError) => void;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ErrorText | null>(null);
  const rotated = useRef(false);

  async function rotate() {
    setPending(true);
    setError(null);
    try {
      const rotation = await api.rotateKey(apiKey);
      rotated.current = true;
      setOpen(false);
      onRotated(rotation);
    } catch (caught) {
      if (caught instanceof AccountRequestError && caught.kind === 'unauthorized') {
        setOpen(false);
        onUnauthorized(caught);
        return;
      }
      setError(
        caught instanceof AccountRequestError
          ? failureText(caught, 'rotation')
          : failureText({ kind: 'server' }, 'rotation'),
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        setOpen(next);
        if (next) {
          rotated.current = false;
          setError(null);
        }
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant="secondary">Rotate key</Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <DialogBackdrop />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            // After a rotation the page moves focus to the new key instead.
            if (rotated.current) event.preventDefault();
          }}
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-700 bg-slate-900 p-6 shadow-2xl focus:outline-none"
        >
          <Dialog.Title className="text-lg font-semibold text-white">Rotate your API key?</Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-slate-300">
              <p>
                You get a new key, shown once on this page. The key starting with{' '}
                <code className="whitespace-nowrap font-mono text-white">{prefix}</code> stops working at
                once, on every server, and streams open with it are closed.
              </p>
              <p>Put the new key in every application that uses the old one.</p>
            </div>
          </Dialog.Description>
          <div role="alert" className="empty:hidden">
            {error ? <Notice tone="bad" title={error.title} body={error.body} className="mt-4" /> : null}
          </div>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary" disabled={pending}>
                Cancel
              </Button>
            </Dialog.Close>
            <Button onClick={() => void rotate()} disabled={pending}>
              {pending ? 'Rotating…' : 'Rotate the key now'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
