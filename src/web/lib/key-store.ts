import { useSyncExternalStore } from 'react';

// Where the account page and the finder pages' key box keep the pasted key (decisions 156, 213): this tab's sessionStorage and nowhere else (never
// localStorage, never a cookie), so it is gone when the tab closes and no other tab or visit sees it. When storage
// is unavailable (some private modes) the key lives in memory until the page is left.

export const KEY_STORAGE_NAME = 'sharpline.accountKey';

/** What the customer pasted, cleaned of the spaces and line breaks a copy from an email brings along. */
export function cleanKey(pasted: string): string {
  return pasted.replace(/\s+/g, '');
}

const listeners = new Set<() => void>();
let memory: string | null = null;

function read(): string | null {
  try {
    return window.sessionStorage.getItem(KEY_STORAGE_NAME);
  } catch {
    return memory;
  }
}

function notify() {
  for (const listener of listeners) listener();
}

export const keyStore = {
  get: (): string | null => (typeof window === 'undefined' ? null : read()),
  set(key: string) {
    memory = key;
    try {
      window.sessionStorage.setItem(KEY_STORAGE_NAME, key);
    } catch {
      // Storage unavailable: the key lives in memory for this page.
    }
    notify();
  },
  /** "Forget this key": gone from the tab. */
  clear() {
    memory = null;
    try {
      window.sessionStorage.removeItem(KEY_STORAGE_NAME);
    } catch {
      // Nothing stored.
    }
    notify();
  },
  subscribe(onChange: () => void) {
    listeners.add(onChange);
    return () => listeners.delete(onChange);
  },
};

/** The stored key; null before hydration (the prerendered page shows the key form) and when none is stored. */
export function useStoredKey(): string | null {
  return useSyncExternalStore(keyStore.subscribe, keyStore.get, () => null);
}
