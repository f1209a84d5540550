// A value kept in localStorage or sessionStorage for useSyncExternalStore: parsed once per stored text, shared by
// every component, told to other tabs' changes (localStorage), and kept in memory when storage throws (private modes,
// quotas). The server snapshot is the parsed empty value, so hydration renders the defaults and no mismatch occurs.

export interface StoredValue<T, W = T> {
  subscribe: (onChange: () => void) => () => void;
  getSnapshot: () => T;
  getServerSnapshot: () => T;
  /** Stores `value` as JSON (what `parse` reads back). */
  write: (value: W) => void;
  /** Listeners told without writing (for state that also lives elsewhere, such as the URL). */
  notify: () => void;
}

export function storedValue<T, W = T>(
  key: string,
  parse: (raw: string | null) => T,
  area: 'localStorage' | 'sessionStorage' = 'localStorage',
): StoredValue<T, W> {
  const listeners = new Set<() => void>();
  let memory: string | null = null;
  let cached: { raw: string | null; value: T } | undefined;
  const read = (): string | null => {
    try {
      return window[area].getItem(key);
    } catch {
      return memory;
    }
  };
  const serverValue = parse(null);
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    getSnapshot() {
      const raw = read();
      if (!cached || cached.raw !== raw) cached = { raw, value: parse(raw) };
      return cached.value;
    },
    getServerSnapshot: () => serverValue,
    subscribe(onChange) {
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
    write(value) {
      const raw = JSON.stringify(value);
      memory = raw;
      try {
        window[area].setItem(key, raw);
      } catch {
        // Storage unavailable: the value lives in memory for this visit.
      }
      notify();
    },
    notify,
  };
}
