import type { Page } from '@playwright/test';

// Layout shifts a page makes without the visitor's input (what Lighthouse's CLS sums), recorded from the first paint:
// `recordLayoutShifts` before `page.goto`, `layoutShifts` once the data is on screen (decision 175).

export interface LayoutShift {
  value: number;
  /** The class names of the elements that moved. */
  nodes: string[];
  /** Where each moved, "x,y w×h → x,y w×h" in CSS pixels, and when (ms after navigation): what a failure shows. */
  moves: string[];
}

export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; nodes: string[]; moves: string[] }[] = [];
    const box = (rect: DOMRectReadOnly) =>
      `${Math.round(rect.x)},${Math.round(rect.y)} ${Math.round(rect.width)}×${Math.round(rect.height)}`;
    (window as unknown as { shifts: typeof shifts }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      })[]) {
        if (!entry.hadRecentInput) {
          shifts.push({
            value: entry.value,
            nodes: entry.sources.map((source) => (source.node as Element | null)?.className ?? '?'),
            moves: entry.sources.map(
              (source) =>
                `${box(source.previousRect)} → ${box(source.currentRect)} at ${Math.round(entry.startTime)} ms` +
                ` (viewport ${document.documentElement.clientWidth}×${document.documentElement.clientHeight})`,
            ),
          });
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts so far, two frames after the call (so a shift of the last commit is reported). */
export async function layoutShifts(page: Page): Promise<LayoutShift[]> {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  return page.evaluate(() => (window as unknown as { shifts: LayoutShift[] }).shifts);
}
