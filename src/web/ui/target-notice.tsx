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

/**
 * Every notice a form's plain post can be answered with, for the page before its script has run (each shown only by
 * the URL's fragment); nothing once the page has hydrated, when the form shows the answer as its own banner.
 */
export function FormAnswerNotices<N extends string>({
  hydrated,
  notices,
  texts,
  className,
}: {
  hydrated: boolean;
  notices: Record<N, { id: string }>;
  texts: Record<N, { tone: 'error' | 'info'; text: ReactNode }>;
  className?: string;
}) {
  if (hydrated) return null;
  return (Object.keys(notices) as N[]).map((notice) => (
    <TargetNotice key={notice} id={notices[notice].id} tone={texts[notice].tone} className={className}>
      {texts[notice].text}
    </TargetNotice>
  ));
}
