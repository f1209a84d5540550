import { useId } from 'react';
import { NO_LINK_TOOLTIP } from '#domain/sportsbook-links.ts';
import { cn } from '#web/lib/cn.ts';

const base =
  'inline-flex h-8 w-full items-center justify-center whitespace-nowrap rounded-md px-3 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300';

/**
 * Opens the side's bet link in a new tab. Without a usable link it stays focusable but disabled (aria-disabled), and
 * shows docs/product.md §8's tooltip on hover and keyboard focus.
 */
export function BetButton({
  href,
  label,
  description,
}: {
  href: string | null;
  label: string;
  description: string;
}) {
  const tipId = useId();
  if (href) {
    return (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`${label}: ${description} (opens in a new tab)`}
        className={cn(base, 'bg-emerald-400 text-slate-950 hover:bg-emerald-300')}
      >
        {label}
      </a>
    );
  }
  return (
    <span className="group relative inline-flex w-full">
      <button
        type="button"
        aria-disabled="true"
        aria-describedby={tipId}
        className={cn(base, 'cursor-not-allowed border border-slate-700 bg-slate-800 text-slate-300')}
      >
        {label}
      </button>
      <span
        role="tooltip"
        id={tipId}
        className="pointer-events-none absolute bottom-full right-0 z-20 mb-2 hidden w-max max-w-[14rem] rounded-md bg-slate-100 px-2 py-1 text-xs font-medium text-slate-900 shadow-lg group-focus-within:block group-hover:block"
      >
        {NO_LINK_TOOLTIP}
      </span>
    </span>
  );
}
