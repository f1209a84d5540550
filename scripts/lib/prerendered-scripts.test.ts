import { describe, expect, it } from 'vitest';
import { START_FALLBACK_MS, startScriptsAfterFirstPaint } from './prerendered-scripts.ts';

// The shape React Router 7's `<Scripts>` writes into a prerendered page (preloads in the head, one module script).
const PAGE = [
  '<html><head><title>t</title>',
  '<link rel="modulepreload" fetchpriority="low" href="/assets/manifest-1.js"/>',
  '<link rel="modulepreload" href="/assets/entry.client-2.js"/>',
  '<link rel="modulepreload" href="/assets/root-3.js"/>',
  '<link rel="modulepreload" href="/assets/page-4.js"/>',
  '<link rel="modulepreload" href="/assets/shared-5.js"/>',
  '</head><body><p>Readable without scripts</p>',
  '<script type="module" async="">import "/assets/manifest-1.js";',
  'import * as route0 from "/assets/root-3.js";',
  'import * as route1 from "/assets/page-4.js";',
  '  ',
  '  window.__reactRouterRouteModules = {"root":route0,"routes/page":route1};',
  '',
  'import("/assets/entry.client-2.js");</script><script>window.other = 1;</script></body></html>',
].join('\n');

function moduleScript(html: string): string {
  return /<script type="module" async="">([\s\S]*?)<\/script>/.exec(html)![1]!;
}

/**
 * Runs the rewritten script with a stand-in browser: frames and timers are queued, `import()` is recorded, and each
 * step is run by hand, so the test sees what the page does before and after its first frame.
 */
async function runScript(script: string, firstFetch?: string, visibilityState = 'visible') {
  const frames: Array<() => void> = [];
  const timers: Array<{ run: () => void; ms: number }> = [];
  // Everything the page asks for, in order: `import:` modules, `preload:` links, `fetch:` requests.
  const asked: string[] = [];
  const imports: string[] = [];
  const head: Array<{ rel: string; href: string }> = [];
  const window: Record<string, unknown> = {};
  const body = script.replaceAll('import(', '__import(');
  const run = new Function(
    'requestAnimationFrame',
    'setTimeout',
    'document',
    'window',
    'fetch',
    '__import',
    `return (async () => {${body}})();`,
  ) as (...args: unknown[]) => Promise<void>;
  await run(
    (callback: () => void) => frames.push(callback),
    (callback: () => void, ms: number) => timers.push({ run: callback, ms }),
    {
      createElement: () => ({ rel: '', href: '' }),
      head: {
        append: (link: { rel: string; href: string }) => {
          head.push({ ...link });
          asked.push(`preload:${link.href}`);
        },
      },
      visibilityState,
      querySelector: (selector: string) =>
        firstFetch && selector === 'meta[name="sharpline:first-fetch"]' ? { content: firstFetch } : null,
    },
    window,
    async (url: string, init: { headers: Record<string, string> }) => {
      asked.push(`fetch:${url} ${init.headers.Accept}`);
      return { url };
    },
    async (url: string) => {
      imports.push(url);
      asked.push(`import:${url}`);
      return { url };
    },
  );
  return { frames, timers, asked, imports, head, window };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('startScriptsAfterFirstPaint', () => {
  it('takes every module preload out of the page and leaves the rest of it as it was', () => {
    const html = startScriptsAfterFirstPaint(PAGE);
    expect(html).not.toContain('modulepreload"');
    expect(html).toContain('<p>Readable without scripts</p>');
    expect(html).toContain('<script>window.other = 1;</script>');
    expect(html.replace(/<script type="module" async="">[\s\S]*?<\/script>/, '')).toBe(
      PAGE.replace(/<link rel="modulepreload"[^>]*\/>/g, '').replace(
        /<script type="module" async="">[\s\S]*?<\/script>/,
        '',
      ),
    );
  });

  it('leaves no static import in the module script: nothing is fetched while the page is read', () => {
    const script = moduleScript(startScriptsAfterFirstPaint(PAGE));
    expect(script).not.toMatch(/^\s*import\s*["*{]/m);
  });

  it('asks for nothing before the first frame, then for every preload at once and the modules in their order', async () => {
    const page = await runScript(moduleScript(startScriptsAfterFirstPaint(PAGE)));
    expect(page.imports).toEqual([]);
    expect(page.head).toEqual([]);
    // The first frame's callback only queues the start: the frame is painted before it runs.
    expect(page.frames).toHaveLength(1);
    page.frames[0]!();
    expect(page.imports).toEqual([]);
    const afterFrame = page.timers.find((timer) => timer.ms === 0)!;
    afterFrame.run();
    await settle();
    expect(page.head).toEqual(
      ['manifest-1', 'entry.client-2', 'root-3', 'page-4', 'shared-5'].map((name) => ({
        rel: 'modulepreload',
        href: `/assets/${name}.js`,
      })),
    );
    expect(page.imports).toEqual([
      '/assets/manifest-1.js',
      '/assets/root-3.js',
      '/assets/page-4.js',
      '/assets/entry.client-2.js',
    ]);
    // The original statements ran with the route modules bound to their names.
    expect(page.window.__reactRouterRouteModules).toEqual({
      root: { url: '/assets/root-3.js' },
      'routes/page': { url: '/assets/page-4.js' },
    });
  });

  it('sends the request the page names as its first, before the chunks, and leaves its answer for the page', async () => {
    const now = Date.now();
    const page = await runScript(
      moduleScript(startScriptsAfterFirstPaint(PAGE)),
      'https://api.example/tools/arbs.json',
    );
    expect(page.asked).toEqual([]);
    page.frames[0]!();
    page.timers.find((timer) => timer.ms === 0)!.run();
    await settle();
    expect(page.asked[0]).toMatch(
      /^fetch:https:\/\/api\.example\/tools\/arbs\.json\?t=\d+ application\/json$/,
    );
    expect(page.asked[1]).toBe('preload:/assets/manifest-1.js');
    const first = page.window.sharplineFirstFetch as {
      url: string;
      askedAt: number;
      response: Promise<{ url: string }>;
    };
    expect(first.url).toBe('https://api.example/tools/arbs.json');
    expect(first.askedAt).toBeGreaterThanOrEqual(now);
    expect((await first.response).url).toBe(`https://api.example/tools/arbs.json?t=${first.askedAt}`);
  });

  it('asks for nothing but its chunks on a page that names no first request', async () => {
    const page = await runScript(moduleScript(startScriptsAfterFirstPaint(PAGE)));
    page.frames[0]!();
    page.timers.find((timer) => timer.ms === 0)!.run();
    await settle();
    expect(page.asked.filter((entry) => entry.startsWith('fetch:'))).toEqual([]);
    expect(page.window.sharplineFirstFetch).toBeUndefined();
  });

  it('waits for the first frame of a shown tab however late it comes: the fallback timer does not start it', async () => {
    const page = await runScript(moduleScript(startScriptsAfterFirstPaint(PAGE)));
    page.timers.find((timer) => timer.ms === START_FALLBACK_MS)!.run();
    await settle();
    expect(page.asked).toEqual([]);
    page.frames[0]!();
    page.timers.find((timer) => timer.ms === 0)!.run();
    await settle();
    expect(page.imports).toHaveLength(4);
  });

  it('starts once, on its fallback timer in a hidden tab (opened in the background: no frame comes)', async () => {
    const page = await runScript(moduleScript(startScriptsAfterFirstPaint(PAGE)), undefined, 'hidden');
    const fallback = page.timers.find((timer) => timer.ms === START_FALLBACK_MS)!;
    fallback.run();
    await settle();
    expect(page.imports).toHaveLength(4);
    page.frames[0]!();
    page.timers.find((timer) => timer.ms === 0)!.run();
    await settle();
    expect(page.imports).toHaveLength(4);
    expect(page.head).toHaveLength(5);
  });

  it('refuses a page of another shape, naming it, rather than ship a page that never hydrates', () => {
    expect(() => startScriptsAfterFirstPaint('<p>no scripts</p>', '/x')).toThrow(/\/x: no <link/);
    const twoScripts = PAGE.replace(
      '</body>',
      '<script type="module" async="">import("/a.js");</script></body>',
    );
    expect(() => startScriptsAfterFirstPaint(twoScripts, '/y')).toThrow(
      '/y: expected one inline module script, found 2',
    );
    const named = PAGE.replace('import * as route1 from', 'import { x } from');
    expect(() => startScriptsAfterFirstPaint(named)).toThrow(/static import of an unknown form/);
  });
});
