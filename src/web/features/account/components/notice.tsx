import { cva } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';

// A titled message box of the account page: an error, a warning or good news, in the site's banner colours.

const noticeVariants = cva('rounded-md border px-4 py-3 text-sm', {
  variants: {
    tone: {
      good: 'border-emerald-400/60 bg-emerald-950 text-emerald-100',
      warn: 'border-amber-400/60 bg-amber-950 text-amber-100',
      bad: 'border-rose-400/60 bg-rose-950 text-rose-100',
    },
  },
});

export function Notice({
  tone,
  title,
  body,
  children,
  className,
}: {
  tone: 'good' | 'warn' | 'bad';
  title: string;
  body?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn(noticeVariants({ tone }), className)}>
      <p className="font-semibold text-white">{title}</p>
      {body ? <p className="mt-1 break-words">{body}</p> : null}
      {children}
    </div>
  );
}
