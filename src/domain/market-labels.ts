import {
  marketLabel,
  outcomeLabel,
  outcomesOf,
  selectionName,
  type MarketSpec,
  type OddsEvent,
  type OutcomeKey,
} from './markets.ts';
import {
  PROP_CATALOGUE,
  propMarketLabel,
  propOutcomeLabel,
  propOutcomes,
  type Player,
  type PropKind,
  type PropStatKey,
} from './props.ts';

// What a bettor reads for any market, a game line or a player prop (decision 121): one place that tells the two
// kinds apart, so the scanner, the feed, the API and the history all name a market the same way.

/** A prop's player as labels need him; a market without one (a game line) passes null. */
export type LabelPlayer = Pick<Player, 'name'> | null | undefined;

// Built on first use, not at import: a top-level loop would put the whole prop catalogue in the first-load JS of any
// page importing this module (decision 126).
let kindOfStat: Map<PropStatKey, PropKind> | undefined;

/** Over/under or yes/no; undefined for a stat no league offers. */
export function propKindOf(stat: PropStatKey): PropKind | undefined {
  if (!kindOfStat) {
    kindOfStat = new Map();
    for (const defs of Object.values(PROP_CATALOGUE))
      for (const def of defs) kindOfStat.set(def.key, def.kind);
  }
  return kindOfStat.get(stat);
}

/** The outcomes that together cover every result of the market, in the order the feed lists them. */
export function specOutcomes(spec: MarketSpec): readonly OutcomeKey[] {
  if (spec.type !== 'prop') return outcomesOf(spec.type);
  return propOutcomes(propKindOf(spec.stat) ?? (spec.point === null ? 'yes_no' : 'over_under'));
}

function named(player: LabelPlayer, spec: MarketSpec & { type: 'prop' }): Pick<Player, 'name'> {
  return player ?? { name: spec.playerId };
}

/** "Moneyline", "Total 221.5", "LeBron James Points Over/Under 27.5", "Travis Kelce Anytime TD". */
export function specLabel(spec: MarketSpec, player?: LabelPlayer): string {
  return spec.type === 'prop' ? propMarketLabel(named(player, spec), spec) : marketLabel(spec);
}

/** "Boston Celtics -3.5", "Over 221.5", "LeBron James Points Over 27.5", "Travis Kelce Anytime TD — Yes". */
export function specOutcomeLabel(
  event: Pick<OddsEvent, 'home' | 'away'>,
  spec: MarketSpec,
  outcome: OutcomeKey,
  player?: LabelPlayer,
): string {
  if (spec.type !== 'prop') return outcomeLabel(event, spec, outcome);
  return propOutcomeLabel(named(player, spec), spec, outcome as 'over' | 'under' | 'yes' | 'no');
}

/** The side without its line: "Boston Celtics", "Over"; for a prop the player and side, "LeBron James Over". */
export function specSelectionName(
  event: Pick<OddsEvent, 'home' | 'away'>,
  spec: MarketSpec,
  outcome: OutcomeKey,
  player?: LabelPlayer,
): string {
  const side = selectionName(event, outcome);
  return spec.type === 'prop' ? `${named(player, spec).name} ${side}` : side;
}
