import { arbLeague, MARKET_FILTERS, type FeedArb } from '../lib/arb-filters.ts';

// The panel of the "Leagues" and "Markets" menus, loaded when one first opens: the leagues present in the feed (and
// the selected ones, so they can be cleared) grouped by sport, or the four market types.

export interface LeagueOption {
  id: string;
  name: string;
  sport: string;
}

const NAMES: Record<string, string> = { epl: 'Premier League' };

/**
 * Leagues present in the feed (plus the selected ones, so they can be cleared), by the feed's sport ("other" when it
 * does not say), sorted by sport then name.
 */
export function leagueOptions(arbs: readonly FeedArb[], selected: readonly string[]): LeagueOption[] {
  const found = new Map<string, string>();
  for (const arb of arbs) {
    const league = arbLeague(arb);
    if (league && !found.has(league)) found.set(league, arb.event.sport?.toLowerCase() ?? 'other');
  }
  for (const league of selected) if (!found.has(league)) found.set(league, 'other');
  return [...found]
    .map(([id, sport]) => ({ id, sport, name: NAMES[id] ?? id.toUpperCase() }))
    .sort((a, b) => a.sport.localeCompare(b.sport) || a.name.localeCompare(b.name));
}

const sportName = (sport: string) =>
  sport === 'football' ? 'American football' : sport.charAt(0).toUpperCase() + sport.slice(1);

export default function FilterMenu({
  id,
  label,
  arbs,
  selected,
  onChange,
}: {
  id: string;
  label: 'Leagues' | 'Markets';
  arbs: readonly FeedArb[];
  selected: readonly string[];
  onChange: (values: string[]) => void;
}) {
  const options =
    label === 'Markets'
      ? MARKET_FILTERS.map(({ value, label }) => ({ value, label, group: '' }))
      : leagueOptions(arbs, selected).map((league) => ({
          value: league.id,
          label: league.name,
          group: sportName(league.sport),
        }));
  const groups = [...new Set(options.map((option) => option.group))];
  return (
    <div
      id={id}
      role="group"
      aria-label={label}
      className="absolute left-0 z-20 mt-1 max-h-72 min-w-44 overflow-auto rounded-md border border-slate-700 bg-slate-900 p-2 shadow-xl max-sm:right-0"
    >
      {options.length === 0 ? (
        <p className="p-1 text-sm text-slate-400">This feed does not name leagues.</p>
      ) : null}
      {groups.map((group) => (
        <div key={group} className="py-0.5">
          {group ? (
            <p className="px-1 pt-1 text-xs font-semibold uppercase tracking-wide text-slate-400">{group}</p>
          ) : null}
          {options
            .filter((option) => option.group === group)
            .map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer items-center gap-2 rounded p-1 text-sm text-slate-100 hover:bg-slate-800"
              >
                <input
                  type="checkbox"
                  checked={selected.includes(option.value)}
                  onChange={(event) =>
                    onChange(
                      event.target.checked
                        ? [...selected, option.value]
                        : selected.filter((value) => value !== option.value),
                    )
                  }
                  className="h-4 w-4 accent-emerald-400"
                />
                {option.label}
              </label>
            ))}
        </div>
      ))}
    </div>
  );
}
