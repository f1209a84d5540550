import { useEffect, useRef } from 'react';
import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { HighlightBatch } from './use-new-arb-highlights.ts';

// Arb alerts (issue 14, docs/decisions/118). With the Alerts switch on, each fetch that brings new arbs (the
// highlight's batches: an arb key absent from the previous fetch) among the arbs the bettor's filters keep, at or
// above the minimum edge (above 0 % when none is set), plays one chime and shows one desktop notification; a batch is
// handled once, so an arb alerts once per arrival. While the page is hidden the tab title carries the tab's arb count,
// and the feed keeps being read every 2 s (the page's own polling pauses in the background). Nothing plays, asks or
// changes the title while the switch is off: this hook runs only while it is on, and it and the sound and notification
// code load on use.

const BACKGROUND_POLL_MS = 2_000;
const loadOutput = () => import('../lib/alert-output.ts');

export function alertWorthy(arb: Pick<Arb, 'edge_pct'>, minEdgePct: number | null): boolean {
  return minEdgePct === null ? arb.edge_pct > 0 : arb.edge_pct >= minEdgePct;
}

export function alertText(arbs: readonly Arb[]): { title: string; body: string } {
  const best = arbs.reduce((a, b) => (b.edge_pct > a.edge_pct ? b : a));
  const event = `${best.event.teams.away.abbreviation} @ ${best.event.teams.home.abbreviation} · ${best.market}`;
  return arbs.length === 1
    ? { title: `New arb: ${best.edge_pct.toFixed(2)}%`, body: event }
    : { title: `${arbs.length} new arbs, best ${best.edge_pct.toFixed(2)}%`, body: event };
}

/** Mounted only while the switch is on (components/arb-alerts.tsx, loaded then). */
export function useArbAlerts({
  latest,
  eligible,
  minEdgePct,
  count,
  polling,
  refetch,
}: {
  /** The newest highlight batch of the stored result. */
  latest: HighlightBatch | undefined;
  /** The arbs the filters keep, both tabs. */
  eligible: readonly Arb[];
  minEdgePct: number | null;
  /** Arbs in the current tab, for the background title. */
  count: number;
  /** Auto is on: the feed is being polled. */
  polling: boolean;
  refetch: () => Promise<void>;
}) {
  const handled = useRef<number | null>(null);

  useEffect(() => {
    const id = latest?.id ?? 0;
    // The first look (the switch just turned on, or the page just opened with it on): what is there is not news.
    if (handled.current === null || !latest) {
      handled.current = id;
      return;
    }
    if (id === handled.current) return;
    handled.current = id;
    const fresh = eligible.filter((arb) => alertWorthy(arb, minEdgePct) && latest.keys.has(arbKey(arb)));
    if (fresh.length === 0) return;
    const { title, body } = alertText(fresh);
    void loadOutput().then((output) => {
      output.chime();
      output.notify(title, body);
    });
  }, [latest, eligible, minEdgePct]);

  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, '');
    const apply = () => {
      document.title = document.visibilityState === 'hidden' ? `(${count}) ${base}` : base;
    };
    apply();
    document.addEventListener('visibilitychange', apply);
    return () => {
      document.removeEventListener('visibilitychange', apply);
      document.title = base;
    };
  }, [count]);

  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'hidden') void refetch();
    }, BACKGROUND_POLL_MS);
    return () => clearInterval(timer);
  }, [polling, refetch]);
}
