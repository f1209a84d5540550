import { cva } from 'class-variance-authority';
import { edgeTone, formatEdge, type EdgeTone } from '../lib/edge-badge.ts';

// docs/product.md §9 edge badge colours; every pair passes WCAG AA text contrast (checked by axe in tests/e2e).
export const edgeBadgeVariants = cva(
  'inline-flex min-w-[4.5rem] items-center justify-center rounded-md px-2 py-1 font-mono text-sm font-bold tabular-nums',
  {
    variants: {
      tone: {
        positive: 'bg-emerald-500 text-slate-950',
        zero: 'bg-emerald-100 text-emerald-900',
        'negative-1': 'bg-red-100 text-red-900',
        'negative-2': 'bg-red-200 text-red-900',
        'negative-3': 'bg-red-400 text-red-950',
        'negative-4': 'bg-red-800 text-white',
      } satisfies Record<EdgeTone, string>,
    },
  },
);

export function EdgeBadge({ edge }: { edge: number }) {
  const tone = edgeTone(edge);
  return (
    <span className={edgeBadgeVariants({ tone })} data-tone={tone}>
      <span className="sr-only">Edge </span>
      {formatEdge(edge)}
    </span>
  );
}
