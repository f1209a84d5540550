import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import {
  parseSelectedSportsbooks,
  parseSportsbookStates,
  SELECTED_SPORTSBOOKS_KEY,
  SPORTSBOOK_STATES_KEY,
  type SportsbookStates,
} from '../lib/sportsbook-preferences.ts';

// selectedSportsbooks and sportsbookStates in localStorage (SPEC §9), read through the parsers of
// lib/sportsbook-preferences.ts so corrupt or foreign values fall back to the defaults, and showSuspectArbs
// (docs/decisions/065), off unless stored as true.
// Storage that throws (private modes, quotas) degrades to memory.

function createStoredValue<T>(key: string, parse: (raw: string | null) => T) {
  const listeners = new Set<() => void>();
  let memory: string | null = null;
  let cached: { raw: string | null; value: T } | undefined;

  const read = (): string | null => {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return memory;
    }
  };
  const getSnapshot = (): T => {
    const raw = read();
    if (!cached || cached.raw !== raw) cached = { raw, value: parse(raw) };
    return cached.value;
  };
  const serverValue = parse(null);
  return {
    getSnapshot,
    getServerSnapshot: () => serverValue,
    subscribe(onChange: () => void) {
      listeners.add(onChange);
      const onStorage = (event: StorageEvent) => {
        if (event.key === key || event.key === null) onChange();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(onChange);
        window.removeEventListener('storage', onStorage);
      };
    },
    write(value: T) {
      const raw = JSON.stringify(value);
      memory = raw;
      try {
        window.localStorage.setItem(key, raw);
      } catch {
        // Storage unavailable: the choice lives in memory for this visit.
      }
      for (const listener of listeners) listener();
    },
  };
}

const selectedStore = createStoredValue(SELECTED_SPORTSBOOKS_KEY, parseSelectedSportsbooks);
const statesStore = createStoredValue(SPORTSBOOK_STATES_KEY, parseSportsbookStates);
const SHOW_SUSPECT_ARBS_KEY = 'showSuspectArbs';
const showSuspectStore = createStoredValue(SHOW_SUSPECT_ARBS_KEY, (raw) => raw === 'true');

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
