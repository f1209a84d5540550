import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import {
  parseSelectedSportsbooks,
  parseSportsbookStates,
  SELECTED_SPORTSBOOKS_KEY,
  SPORTSBOOK_STATES_KEY,
  type SportsbookStates,
} from '../lib/sportsbook-preferences.ts';
import { storedValue } from '#web/lib/stored-value.ts';

// selectedSportsbooks and sportsbookStates in localStorage (docs/product.md §9), read through the parsers of
// lib/sportsbook-preferences.ts so corrupt or foreign values fall back to the defaults, and showSuspectArbs
// (docs/decisions/065), off unless stored as true.
// Storage that throws (private modes, quotas) degrades to memory (lib/stored-value.ts).

const selectedStore = storedValue(SELECTED_SPORTSBOOKS_KEY, parseSelectedSportsbooks);
const statesStore = storedValue(SPORTSBOOK_STATES_KEY, parseSportsbookStates);
const SHOW_SUSPECT_ARBS_KEY = 'showSuspectArbs';
const showSuspectStore = storedValue(SHOW_SUSPECT_ARBS_KEY, (raw) => raw === 'true');

export function useSelectedSportsbooks() {
  const list = useSyncExternalStore(
    selectedStore.subscribe,
    selectedStore.getSnapshot,
    selectedStore.getServerSnapshot,
  );
  const selected = useMemo(() => new Set<string>(list), [list]);
  const setSelected = useCallback((keys: readonly SportsbookKey[]) => selectedStore.write([...keys]), []);
  return { selected, selectedList: list, setSelected };
}

export function useSportsbookStates() {
  const states = useSyncExternalStore(
    statesStore.subscribe,
    statesStore.getSnapshot,
    statesStore.getServerSnapshot,
  );
  const setState = useCallback((book: SportsbookKey, state: string) => {
    statesStore.write({ ...statesStore.getSnapshot(), [book]: state } satisfies SportsbookStates);
  }, []);
  return { states, setState };
}

/** Whether arbs the engine flagged as suspect are shown (hidden by default). */
export function useShowSuspectArbs() {
  const showSuspect = useSyncExternalStore(
    showSuspectStore.subscribe,
    showSuspectStore.getSnapshot,
    showSuspectStore.getServerSnapshot,
  );
  return { showSuspect, setShowSuspect: showSuspectStore.write };
}
