// The prerendered pages' scripts start after the page's first paint (docs/decisions/186).
//
// React Router's `<Scripts>` writes, for a prerendered page, one `<link rel="modulepreload">` per chunk in the head and
// one inline module script at the end of the body that imports the manifest and the route modules statically, then
// `entry.client` dynamically. The browser fetches all of it while it reads the head, before it paints. The page is
// readable without any of it (prerendered HTML, inline stylesheet), so `startScriptsAfterFirstPaint` rewrites the page
// at build time: the preload links leave the head, and the module script asks for the same chunks (preloads added
// then, so that they still come in one parallel wave, not import level by import level) once the first frame has been
// painted, imports them in the original order and runs the original script's own statements unchanged.
//
// A page whose first rows need a request names it in `<meta name="sharpline:first-fetch" content="URL">`: the loader
// sends it as it starts (`URL?t=<ms>`, as JSON), beside the chunks, and leaves it in `window.sharplineFirstFetch`
// (`{ url, askedAt, response }`) for the page to take (src/web/lib/first-fetch.ts) instead of asking again once it has
// hydrated.

import { FIRST_FETCH_META } from '../../src/domain/site.ts';

const PRELOAD = /<link rel="modulepreload"(?: fetchpriority="low")? href="([^"]+)"\/>/g;
const MODULE_SCRIPT = /<script type="module" async="">([\s\S]*?)<\/script>/g;
const SIDE_EFFECT_IMPORT = /^import "([^"]+)";$/;
const NAMESPACE_IMPORT = /^import \* as ([A-Za-z_$][\w$]*) from "([^"]+)";$/;

/** How long a page in a hidden tab (no frame is painted there) waits before it starts its scripts anyway. */
export const START_FALLBACK_MS = 1000;

/**
 * The page's HTML with its module preloads removed and its module script started after the first paint. Throws when
 * the page does not have the shape React Router writes (no module script, more than one, a static import of another
 * form, or no preloads), so that an upgrade that changes it fails the build instead of shipping an unhydrated page.
 */
export function startScriptsAfterFirstPaint(html: string, page = 'page'): string {
  const preloads = [...html.matchAll(PRELOAD)].map((match) => match[1]!);
  if (preloads.length === 0)
    throw new Error(`${page}: no <link rel="modulepreload"> to move after the first paint`);
  const scripts = [...html.matchAll(MODULE_SCRIPT)];
  if (scripts.length !== 1)
    throw new Error(`${page}: expected one inline module script, found ${scripts.length}`);
  const original = scripts[0]![1]!;

  const sideEffects: string[] = [];
  const namespaces: Array<{ name: string; url: string }> = [];
  const rest: string[] = [];
  for (const line of original.split('\n')) {
    const statement = line.trim();
    if (statement === '') continue;
    const sideEffect = SIDE_EFFECT_IMPORT.exec(statement);
    const namespace = NAMESPACE_IMPORT.exec(statement);
    if (sideEffect) sideEffects.push(sideEffect[1]!);
    else if (namespace) namespaces.push({ name: namespace[1]!, url: namespace[2]! });
    else if (/^import[\s{*"']/.test(statement))
      throw new Error(`${page}: a static import of an unknown form in the module script: ${statement}`);
    else rest.push(statement);
  }
  if (namespaces.length === 0) throw new Error(`${page}: the module script imports no route module`);

  const script = [
    'let started = false;',
    'const start = async () => {',
    '  if (started) return;',
    '  started = true;',
    `  const first = document.querySelector('meta[name="${FIRST_FETCH_META}"]');`,
    '  if (first) {',
    '    const askedAt = Date.now();',
    "    const response = fetch(`${first.content}?t=${askedAt}`, { headers: { Accept: 'application/json' } });",
    '    response.catch(() => undefined);',
    '    window.sharplineFirstFetch = { url: first.content, askedAt, response };',
    '  }',
    `  for (const href of ${JSON.stringify(preloads)}) {`,
    "    const link = document.createElement('link');",
    "    link.rel = 'modulepreload';",
    '    link.href = href;',
    '    document.head.append(link);',
    '  }',
    ...sideEffects.map((url) => `  await import(${JSON.stringify(url)});`),
    `  const [${namespaces.map((n) => n.name).join(', ')}] = await Promise.all([${namespaces
      .map((n) => `import(${JSON.stringify(n.url)})`)
      .join(', ')}]);`,
    ...rest.map((statement) => `  ${statement}`),
    '};',
    // The callback of the first frame runs before that frame is painted; a task queued from it runs after.
    'requestAnimationFrame(() => setTimeout(start, 0));',
    // A tab opened in the background paints no frame until it is shown; a shown tab's first frame may come late on a
    // busy machine, and its scripts wait for it.
    `setTimeout(() => document.visibilityState === 'hidden' && start(), ${START_FALLBACK_MS});`,
  ].join('\n');

  return html
    .replace(PRELOAD, '')
    .replace(MODULE_SCRIPT, () => `<script type="module" async="">${script}</script>`);
}
