import { useSearchParams } from 'react-router';

// A finder page's view kept in the URL's query (positive EV, middles): the filters and stakes a shared link shows.

/**
 * The view read from the query, and `update`, which merges a change into the URL as it is now, not into this
 * render's view: two changes made before React draws again (a select, then a number typed at once) would otherwise
 * lose the first. The URL is replaced, not pushed, and the page does not scroll.
 */
export function useUrlView<V>(read: (params: URLSearchParams) => V, write: (view: V) => URLSearchParams) {
  const [params, setParams] = useSearchParams();
  const update = (change: Partial<V>) =>
    setParams(write({ ...read(new URLSearchParams(window.location.search)), ...change }), {
      replace: true,
      preventScrollReset: true,
    });
  return [read(params), update] as const;
}
