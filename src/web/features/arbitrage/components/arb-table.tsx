import type { Arb } from '#domain/schemas/feed.ts';
import type { DeviceKind } from '#domain/sportsbook-links.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import type { SportsbookStates } from '../lib/sportsbook-preferences.ts';
import { ArbRow } from './arb-row.tsx';

export interface TableRow {
  key: string;
  arb: Arb;
  highlighted: boolean;
  stars: number;
  starsKey: number;
}

export interface ArbTableProps {
  caption: string;
  rows: readonly TableRow[];
  device: DeviceKind;
  states: SportsbookStates;
  onStateChange: (book: SportsbookKey, state: string) => void;
}

const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-400';

export function ArbTable({ caption, rows, device, states, onStateChange }: ArbTableProps) {
  if (rows.length === 0) {
    return (
      <p
        role="status"
        className="rounded-lg border border-dashed border-slate-700 px-4 py-12 text-center text-slate-300"
      >
        No arbs found
      </p>
    );
  }
  return (
    <table className="w-full border-collapse max-xl:block">
      <caption className="sr-only">{caption}</caption>
      <thead className="border-b border-slate-700 max-xl:sr-only">
        <tr>
          <th scope="col" className={th}>
            Edge
          </th>
          <th scope="col" className={th}>
            Event
          </th>
          <th scope="col" className={th}>
            Bets
          </th>
          <th scope="col" className={`${th} text-right`}>
            Return
          </th>
        </tr>
      </thead>
      <tbody className="max-xl:block">
        {rows.map((row) => (
          <ArbRow
            key={row.key}
            arb={row.arb}
            highlighted={row.highlighted}
            stars={row.stars}
            starsKey={row.starsKey}
            device={device}
            states={states}
            onStateChange={onStateChange}
          />
        ))}
      </tbody>
    </table>
  );
}
