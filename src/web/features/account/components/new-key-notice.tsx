import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '#web/ui/button.tsx';
import type { RotationResponse } from '#domain/schemas/api/account.ts';

// The new key after a rotation, shown this once (decision 156): a copy button, and the warning that it will not be
// shown again and that the old key has stopped working. Focus moves here when it appears.

export const NEW_KEY_WARNING = 'Store it now: it will not be shown again.';

export function NewKeyNotice({ rotation, onDone }: { rotation: RotationResponse; onDone: () => void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => heading.current?.focus(), []);

  async function copyKey() {
    try {
      await navigator.clipboard.writeText(rotation.key);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mt-8 rounded-2xl border border-amber-400/70 bg-amber-950/60 p-6"
    >
      <h2
        id={`${id}-title`}
        ref={heading}
        tabIndex={-1}
        className="text-lg font-semibold text-white focus:outline-none"
      >
        Your new API key
      </h2>
      <p className="mt-1 text-amber-100">
        <strong className="text-white">{NEW_KEY_WARNING}</strong> The old key (
        <code className="whitespace-nowrap font-mono">{rotation.old_prefix}</code>…) stopped working: put this
        one in your applications.
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <code
          data-testid="new-key"
          className="block min-w-0 flex-1 select-all break-all rounded-md border border-slate-600 bg-slate-950 px-3 py-2.5 font-mono text-base text-emerald-300"
        >
          {rotation.key}
        </code>
        <Button onClick={() => void copyKey()} className="sm:min-w-32">
          {copy === 'copied' ? 'Copied' : 'Copy key'}
        </Button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-amber-100">
        {copy === 'copied'
          ? 'The key is on your clipboard.'
          : copy === 'failed'
            ? 'Copying did not work here: select the key and copy it by hand.'
            : ''}
      </p>
      <Button variant="secondary" className="mt-3" onClick={onDone}>
        I have stored it
      </Button>
    </section>
  );
}
