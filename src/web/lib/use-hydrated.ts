import { useEffect, useRef, useSyncExternalStore } from 'react';
import { noticeOf, type SiteNotice } from '#domain/site-notices.ts';

// A prerendered page works before its script has run (decision 208): its forms post as plain HTML forms and the
// server's answer names a notice in the URL. These hooks are how a component tells the two moments apart.

const noSubscription = () => () => undefined;

/**
 * False in the prerendered HTML and in the render that hydrates it (React reads the server snapshot then); true from
 * the next render on, and from the first in a page that was not prerendered.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * The notice of `notices` that the server's answer to a plain form post named in this page's URL, read once after
 * hydration; the flag and fragment are then taken out of the address (`keepHash` stays), so that a reload or a
 * bookmark does not say it again.
 */
export function useFormAnswer<N extends string>(
  notices: Record<N, SiteNotice>,
  onAnswer: (notice: N) => void,
  keepHash = '',
): void {
  // Read once, on mount: the answer is in the URL the page was loaded with.
  const first = useRef({ notices, onAnswer, keepHash });
  useEffect(() => {
    const { notices, onAnswer, keepHash } = first.current;
    const notice = noticeOf(notices, window.location.search, window.location.hash);
    if (!notice) return;
    onAnswer(notice);
    const url = new URL(window.location.href);
    url.searchParams.delete(notices[notice].flag.split('=')[0]!);
    url.hash = keepHash;
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }, []);
}
