import { sportsbooksByLicence, type SportsbookLicence } from '#domain/sportsbooks.ts';

// Which of the books the odds come from are US state-licensed, which sweepstakes and which offshore (issue 34,
// docs/product.md §2): the licence is data in src/domain/sportsbooks.ts, so this list follows the catalogue.

const GROUPS: readonly { licence: SportsbookLicence; title: string; note: string }[] = [
  {
    licence: 'us-licensed',
    title: 'US state-licensed',
    note: 'licensed by the regulators of the states they take bets in',
  },
  {
    licence: 'sweepstakes',
    title: 'Sweepstakes',
    note: 'a social sportsbook run under sweepstakes rules, not a state sports-betting licence',
  },
  {
    licence: 'offshore',
    title: 'Offshore',
    note: 'licensed outside the US and in no US state',
  },
];

export function SportsbookCoverage({ id }: { id?: string }) {
  return (
    <dl id={id} data-testid="sportsbook-coverage" className="grid gap-4 text-sm sm:grid-cols-3">
      {GROUPS.map((group) => {
        const books = sportsbooksByLicence(group.licence);
        return (
          <div key={group.licence} className="rounded-xl border border-slate-800 bg-slate-900/60 p-4">
            <dt className="font-semibold text-white">
              {group.title} ({books.length})
            </dt>
            <dd className="mt-1 text-slate-300">{books.map((book) => book.displayName).join(', ')}</dd>
            <dd className="mt-1 text-xs text-slate-400">{group.note}</dd>
          </div>
        );
      })}
    </dl>
  );
}
