import type { ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';

/**
 * A notice in the prerendered page that the server's answer to a plain form post points at (decision 208): hidden
 * unless the URL's fragment names its id (CSS `:target`, so it shows before the script has run and without
 * JavaScript), or unless `shown`.
 */
export function TargetNotice({
  id,
  tone,
  shown = false,
  className,
  children,
}: {
  id: string;
  tone: 'error' | 'info';
  shown?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      id={id}
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'scroll-mt-24 rounded-md border px-4 py-3 text-sm',
        shown ? 'block' : 'hidden target:block',
        tone === 'error'
          ? 'border-rose-400/60 bg-rose-950 text-rose-100'
          : 'border-emerald-400/60 bg-emerald-950 text-emerald-100',
        className,
      )}
    >
      {children}
    </div>
  );
}
