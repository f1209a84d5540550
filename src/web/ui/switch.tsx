import type { ButtonHTMLAttributes } from 'react';
import { cn } from '#web/lib/cn.ts';

// An on/off switch (role="switch", aria-checked): the page's Auto and Alerts toggles. Label it with a <label htmlFor>
// pointing at its `id`.

export interface SwitchProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'type' | 'role' | 'children'
> {
  id: string;
  checked: boolean;
}

export function Switch({ checked, className, ...props }: SwitchProps) {
  return (
    <button
      {...props}
      type="button"
      role="switch"
      aria-checked={checked}
      className={cn(
        'relative h-5 w-9 shrink-0 rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300',
        checked ? 'bg-emerald-500' : 'bg-slate-600',
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'block h-4 w-4 rounded-full bg-white shadow motion-safe:transition-transform',
          checked ? 'translate-x-[18px]' : 'translate-x-0.5',
        )}
      />
    </button>
  );
}
