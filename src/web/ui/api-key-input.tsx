import type { InputHTMLAttributes } from 'react';

/**
 * A field for pasting an API key (the account page, the tool pages' key box): `<id>-key`, named `api-key`, masked,
 * never autofilled, capitalised or spell-checked, at most 200 characters. Uncontrolled: the form reads it when sent.
 */
export function ApiKeyInput({
  id,
  ...rest
}: { id: string } & Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'className' | 'onInput' | 'aria-invalid' | 'aria-describedby'
>) {
  return (
    <input
      id={`${id}-key`}
      name="api-key"
      type="password"
      autoComplete="off"
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      maxLength={200}
      placeholder="sl_live_…"
      {...rest}
    />
  );
}
