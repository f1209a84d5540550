// Arbitrage page benchmark (docs/decisions/060-063): with 500 arbs in the feed and Auto on, how long one refresh takes in Chromium
// (fetch start → parse → new-arb diff → React commit, read from the page's `arbs:*` performance measures), how
// many table rows the DOM sees change per refresh, and the page's JavaScript (gzip). The page is served by the real
// server; its `/tools/arbs.json` requests get a generated 500-arb feed (the engine caps its own feed at 300 arbs) in
// which, on every fetch, 5 arbs are repriced and one arb leaves while another comes back (a new arb). The feed is
// answered through Playwright's request interception (default, as in earlier runs) or, with BENCH_ARBS_FEED=http,
// by a loopback front server that sends bytes gzip-encoded and prepared in advance, as the real server does, and
// forwards everything else to the real server. Writes bench/results/arbitrage-page.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import type { Arb, ArbFeed, Side } from '../src/domain/schemas/feed.ts';
import { SPORTSBOOK_KEYS } from '../src/domain/sportsbooks.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/browser.ts';
import { startServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_ARBS_PORT ?? 4320);
const ARBS = 500;
const REFRESHES = Number(process.env.BENCH_ARBS_REFRESHES ?? 40);
/** A path: record a CPU profile of the page during the refresh loop (open it in Chrome DevTools). */
const PROFILE = process.env.BENCH_ARBS_PROFILE;
/** A path: record a Chrome trace (timeline with the page's marks) of the refresh loop (open it in DevTools). */
const TRACE = process.env.BENCH_ARBS_TRACE;
/** How the feed reaches the page: `route` (default, Playwright's interception) or `http` (a front server). */
const FEED = process.env.BENCH_ARBS_FEED === 'http' ? 'http' : 'route';
/**
 * BENCH_ARBS_FILTERS=all opens the page with every toolbar filter of issue 14 set through its URL query (minimum edge,
 * three of the feed's four leagues, two market types, a start window; docs/decisions/117). About 40 % of the arbs pass (a tenth of them live).
 */
const FILTERS = process.env.BENCH_ARBS_FILTERS === 'all';
const FILTER_QUERY = '?min=2&leagues=nba,nhl,nfl&markets=moneyline,total&starts=24h';
const LEAGUES = [
  ['nba', 'basketball'],
  ['nhl', 'hockey'],
  ['mlb', 'baseball'],
  ['nfl', 'football'],
] as const;

const LINKS: Partial<Record<string, (id: number) => { desktop: string; mobile?: string }>> = {
  fanduel: (id) => ({
    desktop: `https://nj.sportsbook.fanduel.com/addToBetslip?marketId=${id}&selectionId=${id}`,
    mobile: `fanduelsportsbook://addToBetslip?marketId=${id}`,
  }),
  draftkings: (id) => ({
    desktop: `https://sportsbook.draftkings.com/event/${id}?outcomes=${id}`,
    mobile: `dksb://sb/${id}`,
  }),
  betmgm: (id) => ({
    desktop: `https://sports.nj.betmgm.com/en/sports/events/${id}?options=${id}&type=Single`,
  }),
  caesars: (id) => ({ desktop: `https://sportsbook.caesars.com/us/nj/bet/betslip?selectionIds=${id}` }),
  betrivers: (id) => ({ desktop: `https://pa.betrivers.com/?page=sportsbook#event/${id}` }),
};

function makeSide(arb: number, side: 0 | 1, american: number): Side {
  const book = SPORTSBOOK_KEYS[(arb * 2 + side) % SPORTSBOOK_KEYS.length]!;
  const decimal = american > 0 ? 1 + american / 100 : 1 + 100 / -american;
  const name = `${side ? 'Home' : 'Away'} Team ${Math.floor(arb / 2)}${arb % 2 ? (side ? ' Under 210.5' : ' Over 210.5') : ''}`;
  return {
    id: `${book}-${arb}-${side}`,
    sportsbook: book,
    name,
    price: american > 0 ? `+${american}` : String(american),
    selection: { name },
    decimal_odds: Math.floor(decimal * 10_000) / 10_000,
    implied_prob: Math.round((1 / decimal) * 1e6) / 1e6,
    links: LINKS[book]?.(arb * 2 + side) ?? { desktop: `https://www.example-unknown-host.test/${arb}` },
  };
}

const STARTS_FROM = Date.now();

function makeArb(i: number, away: number): Arb {
  const sides = [makeSide(i, 0, away), makeSide(i, 1, 100)] as [Side, Side];
  const s = 1 / sides[0].decimal_odds + 1 / sides[1].decimal_odds;
  const event = Math.floor(i / 2);
  return {
    event: {
      id: `nba-a${event}-h${event}-2026112${event % 10}`,
      teams: {
        away: { id: `away-${event}`, name: `Away Team ${event}`, abbreviation: `A${event}` },
        home: { id: `home-${event}`, name: `Home Team ${event}`, abbreviation: `H${event}` },
      },
      live: event % 10 === 0,
      // Starts spread over the next 25 hours of the run, so a start window keeps some and leaves out others.
      date: new Date(STARTS_FROM + event * 360_000).toISOString(),
      sport: LEAGUES[event % 4]![1],
      league: LEAGUES[event % 4]![0],
    },
    market: i % 2 ? 'Total 210.5' : 'Moneyline',
    sides,
    edge_pct: Math.round((1 / s - 1) * 100 * 1000) / 1000,
  };
}

/** The feed of the n-th fetch: 5 arbs repriced per fetch, arb (n mod 500) absent, so the previous one comes back new. */
function feedAt(n: number): string {
  const arbs: Arb[] = [];
  for (let i = 0; i < ARBS + 1; i++) {
    if (i === n % (ARBS + 1)) continue;
    const repriced = i % 97 < 5 && (i + n) % 3 === 0;
    arbs.push(makeArb(i, 105 + (i % 9) + (repriced ? n % 4 : 0)));
  }
  const feed: ArbFeed = { generated_at: 1_795_300_000 + n, source: 'replay', arbs };
  return JSON.stringify(feed);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * A loopback server in front of the real one: `/tools/arbs.json` gets the next feed, gzip-encoded and prepared ahead
 * of its fetch (as the engine publishes its snapshot's bytes); every other request goes to the real server.
 */
async function startFront(upstream: string) {
  const prepared: Buffer[] = [];
  const prepare = (upTo: number) => {
    while (prepared.length <= upTo) prepared.push(gzipSync(feedAt(prepared.length), { level: 6 }));
  };
  prepare(REFRESHES + 10);
  let fetches = 0;
  const front = createServer((req, res) => {
    if (req.url?.startsWith('/tools/arbs.json')) {
      const body = prepared[fetches]!;
      fetches++;
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'cache-control': 'no-cache',
        'content-length': body.length,
      });
      res.end(body);
      setImmediate(() => prepare(fetches + 1));
      return;
    }
    const forward = httpRequest(
      `${upstream}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        front.close(() => resolve());
        front.closeAllConnections();
      }),
  };
}

const server = await startServer(PORT);
const front = FEED === 'http' ? await startFront(server.origin) : null;
const results: Record<string, unknown> = {
  feedDelivery: FEED,
  date: new Date().toISOString(),
  cpus: cpus().length,
  loadAverageAtStart: loadavg()[0],
  refreshes: REFRESHES,
  feedArbs: ARBS,
  filters: FILTERS ? FILTER_QUERY : 'none',
};
try {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  if (FEED === 'route') {
    let fetches = 0;
    await page.route('**/tools/arbs.json*', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: feedAt(fetches++) }),
    );
  }
  const scripts = new Map<string, Buffer>();
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script' || response.url().endsWith('.js')) {
      scripts.set(response.url(), await response.body().catch(() => Buffer.alloc(0)));
    }
  });
  await page.goto(`${front?.origin ?? server.origin}/betting-tools/arbitrage${FILTERS ? FILTER_QUERY : ''}`, {
    waitUntil: 'networkidle',
  });
  await page.getByRole('table').waitFor();

  // JavaScript: every script loaded by the page plus inline scripts (as bench/site.bench.ts counts it), then the
  // picker dialog's chunk, which loads when the visitor reaches for the Sportsbooks button.
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll('script:not([src]):not([type="application/ld+json"])')]
      .map((s) => s.textContent ?? '')
      .join(''),
  );
  const gz = (buffers: Buffer[]) =>
    buffers.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
  const initialBytes = gz([...scripts.values()]) + gzipSync(inline, { level: 9 }).length;
  const initialFiles = scripts.size;
  const before = new Set(scripts.keys());
  await page.getByRole('button', { name: /sportsbooks/i }).click();
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');
  await page.waitForLoadState('networkidle');
  const lazyBytes = gz([...scripts.entries()].filter(([url]) => !before.has(url)).map(([, body]) => body));
  results.javascript = {
    initialGzipKb: round(initialBytes / 1024),
    initialFiles,
    pickerDialogGzipKb: round(lazyBytes / 1024),
    totalGzipKb: round((initialBytes + lazyBytes) / 1024),
  };
  console.log('JavaScript (gzip KB):', results.javascript);

  // The first data draws 10 rows and the rest of the first 25 join as the visitor scrolls towards them (decision 168):
  // the refreshes are measured on the 25, as before.
  await page.getByText(/^Showing the best/).scrollIntoViewIfNeeded();
  await page.getByText(/^Showing the best 25 of/).waitFor();

  // Rows whose DOM changes in each commit (unchanged rows should not be touched).
  await page.evaluate(() => {
    const w = window as unknown as { __rowsTouched: number[] };
    w.__rowsTouched = [];
    const tbody = document.querySelector('tbody')!;
    new MutationObserver((records) => {
      const rows = new Set<Element>();
      for (const record of records) {
        const node = record.target instanceof Element ? record.target : record.target.parentElement;
        const row = node?.closest('tr');
        if (row) rows.add(row);
        for (const added of record.addedNodes) if (added instanceof HTMLTableRowElement) rows.add(added);
      }
      w.__rowsTouched.push(rows.size);
    }).observe(tbody, { subtree: true, childList: true, characterData: true, attributes: true });
    performance.clearMeasures();
    performance.clearResourceTimings();
  });
  const rowsShown = await page.locator('tbody tr').count();
  const profiler = PROFILE ? await page.context().newCDPSession(page) : null;
  if (profiler) {
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 100 });
    await profiler.send('Profiler.start');
  }
  const tracer = TRACE ? await page.context().newCDPSession(page) : null;
  const traceEvents: unknown[] = [];
  if (tracer) {
    tracer.on('Tracing.dataCollected', (event: { value: unknown[] }) => traceEvents.push(...event.value));
    await tracer.send('Tracing.start', {
      categories: 'devtools.timeline,blink.user_timing,v8,disabled-by-default-devtools.timeline',
      transferMode: 'ReportEvents',
    });
  }
  await page.getByRole('switch', { name: 'Auto' }).click();
  const started = Date.now();
  // Polled every 250 ms, not on every animation frame (Playwright's default), which would keep the page drawing
  // frames and add its own work to the refreshes measured.
  await page.waitForFunction((n) => performance.getEntriesByName('arbs:refresh').length >= n, REFRESHES, {
    timeout: REFRESHES * 3000,
    polling: 250,
  });
  const seconds = (Date.now() - started) / 1000;
  if (tracer) {
    const complete = new Promise((resolve) => tracer.once('Tracing.tracingComplete', resolve));
    await tracer.send('Tracing.end');
    await complete;
    writeFileSync(TRACE!, JSON.stringify({ traceEvents }));
    console.log(`Chrome trace of the refresh loop: ${TRACE}`);
  }
  if (profiler) {
    const { profile } = await profiler.send('Profiler.stop');
    writeFileSync(PROFILE!, JSON.stringify(profile));
    console.log(`CPU profile of the refresh loop: ${PROFILE}`);
  }
  await page.getByRole('switch', { name: 'Auto' }).click();
  const timing = await page.evaluate(() =>
    Object.fromEntries(
      ['arbs:refresh', 'arbs:after-response', 'arbs:render-commit'].map((name) => [
        name,
        performance.getEntriesByName(name).map((entry) => entry.duration),
      ]),
    ),
  );
  const touched = await page.evaluate(() => (window as unknown as { __rowsTouched: number[] }).__rowsTouched);
  await browser.close();

  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return {
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      max: round(sorted.at(-1)!),
    };
  };
  const touchedSorted = [...touched].sort((a, b) => a - b);
  results.refresh = {
    rowsShown,
    refreshesPerSecond: round(REFRESHES / seconds),
    totalMs: stats(timing['arbs:refresh'] ?? []),
    afterResponseMs: stats(timing['arbs:after-response'] ?? []),
    renderCommitMs: stats(timing['arbs:render-commit'] ?? []),
    rowsTouchedPerCommit: {
      p50: percentile(touchedSorted, 50),
      p95: percentile(touchedSorted, 95),
      max: touchedSorted.at(-1),
    },
  };
  console.log('Refresh with Auto on:', results.refresh);
} finally {
  await front?.close();
  await server.stop();
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/arbitrage-page.json', JSON.stringify(results, null, 2));
