import { useEffect, useRef } from 'react';
import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import { AlertBatch } from '../lib/alert-batch.ts';
import type { HighlightBatch } from './use-new-arb-highlights.ts';

// Arb alerts (issue 14, docs/decisions/118; issue 34, decision 157). With the Alerts switch on, new arbs (the
// highlight's batches: an arb key absent from the previous fetch) among the arbs the bettor's filters keep, with a
// positive edge at or above the alerts' own threshold (1 % unless the bettor changes it), play one chime and show one
// desktop notification; arrivals within 10 s of an alert wait and go out together in the next (lib/alert-batch.ts).
// A batch is handled once, so an arb alerts once per arrival. While the page is hidden the tab title carries the tab's arb count,
// and the feed keeps being read every 2 s (the page's own polling pauses in the background). Nothing plays, asks or
// changes the title while the switch is off: this hook runs only while it is on, and it and the sound and notification
// code load on use.

const BACKGROUND_POLL_MS = 2_000;
const loadOutput = () => import('../lib/alert-output.ts');

/** Worth an alert: a guaranteed profit at or above the alerts' threshold (percent). */
export function alertWorthy(arb: Pick<Arb, 'edge_pct'>, thresholdPct: number): boolean {
  return arb.edge_pct > 0 && arb.edge_pct >= thresholdPct;
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
  thresholdPct,
  count,
  polling,
  refetch,
}: {
  /** The newest highlight batch of the stored result. */
  latest: HighlightBatch | undefined;
  /** The arbs the filters keep, both tabs. */
  eligible: readonly Arb[];
  /** The alerts' threshold in percent (the page's alert setting, not the list's minimum edge). */
  thresholdPct: number;
  /** Arbs in the current tab, for the background title. */
  count: number;
  /** Auto is on: the feed is being polled. */
  polling: boolean;
  refetch: () => Promise<void>;
}) {
  const handled = useRef<number | null>(null);
  // What the batch checks when a gathered alert goes out: the arbs still kept, and the threshold, at that moment.
  const current = useRef({ eligible, thresholdPct });
  useEffect(() => {
    current.current = { eligible, thresholdPct };
  });
  const batch = useRef<AlertBatch<Arb> | null>(null);
  useEffect(() => {
    const alerts = new AlertBatch<Arb>({
      key: arbKey,
      stillWorthy: (arb) => {
        const key = arbKey(arb);
        const now = current.current.eligible.find((kept) => arbKey(kept) === key);
        return now !== undefined && alertWorthy(now, current.current.thresholdPct);
      },
      fire: (arbs) => {
        const { title, body } = alertText(arbs);
        void loadOutput().then((output) => {
          output.chime();
          output.notify(title, body);
        });
      },
    });
    batch.current = alerts;
    return () => {
      alerts.dispose();
      batch.current = null;
    };
  }, []);

  useEffect(() => {
    const id = latest?.id ?? 0;
    // The first look (the switch just turned on, or the page just opened with it on): what is there is not news.
    if (handled.current === null || !latest) {
      handled.current = id;
      return;
    }
    if (id === handled.current) return;
    handled.current = id;
    const fresh = eligible.filter((arb) => alertWorthy(arb, thresholdPct) && latest.keys.has(arbKey(arb)));
    if (fresh.length > 0) batch.current?.add(fresh);
  }, [latest, eligible, thresholdPct]);

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
