import { useNow } from '../hooks/use-now.ts';
import { formatRelativeStart } from '../lib/relative-time.ts';

export function RelativeStart({ date }: { date: string | undefined }) {
  const now = useNow();
  const text = formatRelativeStart(date, now);
  if (!text || !date) return null;
  return (
    <time dateTime={date} title={new Date(date).toLocaleString()} className="text-xs text-slate-400">
      {text}
    </time>
  );
}
