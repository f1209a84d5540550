import { coverage } from '#domain/coverage.ts';
import type { SportsbookLicence } from '#domain/sportsbooks.ts';

// Which of the books the odds come from are US state-licensed, which sweepstakes and which offshore (issue 34,
// docs/product.md §2): the licence is data in src/domain/sportsbooks.ts, and the books are counted and named by
// src/domain/coverage.ts (issue 56: a book priced in two markets, Hard Rock, is one book), so this list follows the
// catalogue.

const GROUP_TEXT: Readonly<Record<SportsbookLicence, { title: string; note: string }>> = {
  'us-licensed': {
    title: 'US state-licensed',
    note: 'licensed by the regulators of the states they take bets in',
  },
  sweepstakes: {
    title: 'Sweepstakes',
    note: 'a social sportsbook run under sweepstakes rules, not a state sports-betting licence',
  },
  offshore: {
    title: 'Offshore',
    note: 'licensed outside the US and in no US state',
  },
};

export function SportsbookCoverage({ id }: { id?: string }) {
  return (
    <dl id={id} data-testid="sportsbook-coverage" className="grid gap-4 text-sm sm:grid-cols-3">
      {coverage().byLicence.map((group) => (
        <div key={group.licence} className="rounded-xl border border-slate-800 bg-slate-900/60 p-4">
          <dt className="font-semibold text-white">
            {GROUP_TEXT[group.licence].title} ({group.count})
          </dt>
          <dd className="mt-1 text-slate-300">{group.names.join(', ')}</dd>
          <dd className="mt-1 text-xs text-slate-400">{GROUP_TEXT[group.licence].note}</dd>
        </div>
      ))}
    </dl>
  );
}
