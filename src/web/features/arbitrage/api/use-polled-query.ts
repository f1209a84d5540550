import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

// A small polling query: one request at a time, an optional repeating timer (paused while the tab is hidden), the
// last good data kept through a failed refresh, and a hook to merge each result with the previous one. It does what this page
// needs from TanStack Query at a tenth of the bytes (docs/decisions/060-arbitrage-page-javascript-budget.md).

export interface PolledQueryOptions<T> {
  queryKey: readonly unknown[];
  queryFn: (context: { signal: AbortSignal }) => Promise<T>;
  /** Milliseconds between refreshes, or false for none. */
  refetchInterval: number | false;
  /**
   * Combines the stored data with a new result when it is stored (once per fetch, not per render); the default keeps
   * the new result.
   */
  merge?: (previous: T | undefined, next: T) => T;
}

export interface PolledQueryResult<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  /** Fetches now (or joins the request in flight); resolves when it settles. */
  refetch: () => Promise<void>;
}

interface State<T> {
  data?: T;
  error?: unknown;
  status: 'pending' | 'success' | 'error';
  fetching: boolean;
}

export function usePolledQuery<T>({
  queryKey,
  queryFn,
  refetchInterval,
  merge,
}: PolledQueryOptions<T>): PolledQueryResult<T> {
  const [state, setState] = useState<State<T>>({ status: 'pending', fetching: true });
  const queryFnRef = useRef(queryFn);
  const mergeRef = useRef(merge);
  const inFlight = useRef<Promise<void> | null>(null);
  const controller = useRef<AbortController | null>(null);
  const firstData = useRef(true);
  const key = JSON.stringify(queryKey);

  useEffect(() => {
    queryFnRef.current = queryFn;
    mergeRef.current = merge;
  });

  const refetch = useCallback((): Promise<void> => {
    if (inFlight.current) return inFlight.current;
    const abort = new AbortController();
    controller.current = abort;
    setState((current) => (current.fetching ? current : { ...current, fetching: true }));
    const request = queryFnRef
      .current({ signal: abort.signal })
      .then(
        (data) => {
          // Rendered and committed in the task that read the answer, so no frame is drawn in between with the
          // old data (a frame while rows animate costs several milliseconds here); the new data is on the next one.
          // The first data replaces a loading note, not rows: it renders in a transition, which React splits into
          // short tasks, so the page's first rows hold the main thread in no long task (docs/decisions/168).
          if (abort.signal.aborted) return;
          const store = () =>
            setState((current) => ({
              data: mergeRef.current ? mergeRef.current(current.data, data) : data,
              status: 'success',
              fetching: false,
            }));
          if (firstData.current) {
            firstData.current = false;
            startTransition(store);
          } else flushSync(store);
        },
        (error: unknown) => {
          if (!abort.signal.aborted)
            setState((current) => ({ ...current, error, status: 'error', fetching: false }));
        },
      )
      .finally(() => {
        if (inFlight.current === request) inFlight.current = null;
      });
    inFlight.current = request;
    return request;
  }, []);

  useEffect(() => {
    void refetch();
    return () => {
      controller.current?.abort();
      inFlight.current = null;
    };
  }, [refetch, key]);

  useEffect(() => {
    if (!refetchInterval) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') void refetch();
    }, refetchInterval);
    return () => clearInterval(timer);
  }, [refetch, refetchInterval]);

  return {
    data: state.data,
    error: state.error,
    isPending: state.status === 'pending',
    isError: state.status === 'error',
    isFetching: state.fetching,
    refetch,
  };
}
