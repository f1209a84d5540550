import { useCallback, useEffect, useRef, useState } from 'react';
import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { HighlightBatch } from './use-new-arb-highlights.ts';

// Arb alerts (issue 14, docs/decisions/118). With the Alerts switch on, each fetch that brings new arbs (the
// highlight's batches: an arb key absent from the previous fetch) among the arbs the bettor's filters keep, at or
// above the minimum edge (above 0 % when none is set), plays one chime and shows one desktop notification; a batch is
// handled once, so an arb alerts once per arrival. While the page is hidden the tab title carries the tab's arb count,
// and the feed keeps being read every 2 s (the page's own polling pauses in the background). Nothing plays, asks or
// changes the title while the switch is off. The sound and notification code loads on use.

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

export function useArbAlerts({
  enabled,
  setEnabled,
  latest,
  eligible,
  minEdgePct,
  count,
  polling,
  refetch,
}: {
  enabled: boolean;
  setEnabled: (on: boolean) => void;
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
  const [permission, setPermission] = useState<NotificationPermission | 'unsupported' | null>(null);
  const handled = useRef<number | null>(null);

  useEffect(() => {
    const id = latest?.id ?? 0;
    // Off, or the first look: what is there now is not news.
    if (!enabled || handled.current === null || !latest) {
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
  }, [enabled, latest, eligible, minEdgePct]);

  useEffect(() => {
    if (!enabled) return;
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
  }, [enabled, count]);

  useEffect(() => {
    if (!enabled || !polling) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'hidden') void refetch();
    }, BACKGROUND_POLL_MS);
    return () => clearInterval(timer);
  }, [enabled, polling, refetch]);

  const toggle = useCallback(
    (on: boolean) => {
      setEnabled(on);
      // Asked from the switch's click, the one moment browsers allow a permission prompt and an audio start.
      if (on) void loadOutput().then((output) => output.prepareAlerts().then(setPermission));
    },
    [setEnabled],
  );
  return { toggle, permission };
}
