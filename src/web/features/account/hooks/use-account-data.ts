import { useCallback, useEffect, useRef, useState } from 'react';
import { AccountRequestError, type AccountApi } from '../api/account-api.ts';
import type { MeResponse, UsageResponse } from '#domain/schemas/api/account.ts';

// The account page's two reads for the key it holds (decision 156): GET /v1/me, then GET /v1/me/usage, once when the
// key changes and again on "Refresh" (never on a timer). They are free (decision 218): neither counted in the usage
// nor charged to the key's per-minute limit, which has an account budget of its own. A refresh keeps the last answers on screen until the new ones arrive. A 401 on /v1/me means the key no
// longer works: `onUnauthorized` is told (the page then forgets it), and usage is not asked for.

export type Read<T> =
  { status: 'loading' } | { status: 'ok'; data: T } | { status: 'error'; error: AccountRequestError };

interface Loaded {
  /** The key and refresh count these reads belong to. */
  request: string;
  account: Read<MeResponse>;
  usage: Read<UsageResponse>;
}

export interface AccountData {
  account: Read<MeResponse>;
  usage: Read<UsageResponse>;
  /** A refresh is under way (the answers shown are the previous ones). */
  refreshing: boolean;
  refresh: () => void;
}

const LOADING = { status: 'loading' } as const;

function asRead<T>(promise: Promise<T>): Promise<Read<T>> {
  return promise.then(
    (data) => ({ status: 'ok', data }),
    (error: unknown) => {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      return {
        status: 'error',
        error:
          error instanceof AccountRequestError
            ? error
            : new AccountRequestError('server', undefined, undefined, undefined, undefined),
      };
    },
  );
}

export function useAccountData(
  key: string | null,
  api: Pick<AccountApi, 'fetchAccount' | 'fetchUsage'>,
  onUnauthorized: (error: AccountRequestError) => void,
): AccountData {
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const unauthorized = useRef(onUnauthorized);
  useEffect(() => {
    unauthorized.current = onUnauthorized;
  });
  const request = key ? `${key}#${version}` : null;

  useEffect(() => {
    if (!key || !request) return;
    const abort = new AbortController();
    const options = { signal: abort.signal };
    void (async () => {
      const account = await asRead(api.fetchAccount(key, options));
      if (account.status === 'error' && account.error.kind === 'unauthorized') {
        unauthorized.current(account.error);
        return;
      }
      // An account that cannot be read shows only why; its usage is not asked for.
      const usage = account.status === 'ok' ? await asRead(api.fetchUsage(key, options)) : LOADING;
      if (!abort.signal.aborted) setLoaded({ request, account, usage });
    })().catch(() => undefined); // aborted: the key changed or the page was left
    return () => abort.abort();
  }, [key, request, api]);

  const refresh = useCallback(() => setVersion((current) => current + 1), []);
  const current = loaded && request && loaded.request === request ? loaded : null;
  // The same key's previous answers stay on screen while a refresh runs.
  const previous = loaded && key && loaded.request.startsWith(`${key}#`) ? loaded : null;
  const shown = current ?? previous;
  return {
    account: shown?.account ?? LOADING,
    usage: shown?.usage ?? LOADING,
    refreshing: !current && previous !== null,
    refresh,
  };
}
