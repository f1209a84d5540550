import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SiteConfigResponse } from '#domain/schemas/billing.ts';
import { MANAGE_SUBSCRIPTION_META, ROUTES, SITE, WHEN_SUBSCRIPTIONS_MANAGED } from '#domain/site.ts';
import { sendNotFound } from '../http/not-found.ts';
import { sendEntry } from '../http/send-entry.ts';
import { listFiles, loadEntry, makeEntry, type StaticEntry } from '../http/static-files.ts';

// Serves the prerendered site from memory: the pages with their own CSP (hashes of their inline scripts and styles), hashed
// assets as immutable, and the site's 404 page with status 404 for every unknown path.

export const PAGE_PATHS = [
  ROUTES.home,
  ROUTES.arbitrage,
  ROUTES.positiveEv,
  ROUTES.middles,
  ROUTES.betTracker,
  ROUTES.calibration,
  ROUTES.pricing,
  ROUTES.welcome,
  ROUTES.account,
] as const;

/**
 * Where a page's forms may lead. The pricing page's plan forms post to /api/checkout, whose 303 goes to a Stripe
 * Payment Link or Checkout Session (checkout.stripe.com, buy.stripe.com, or the Stripe account's own domain), and
 * browsers hold redirects after a form to form-action too: any https origin (decision 151). The account page offers
 * a trial key's owner the same form (decision 156).
 */
const FORM_TARGETS: Partial<Record<string, readonly string[]>> = {
  [ROUTES.pricing]: ['https:'],
  [ROUTES.account]: ['https:'],
};
const NOT_FOUND_PAGE = '/404';

export interface SiteOptions {
  buildDir: string;
  origin: string;
  /** Extra origins the pages may connect to (trial endpoint or feed host on another origin). */
  connectOrigins?: readonly string[];
  /** What "Manage Subscription" does on this server (decision 151); absent: the prerendered pages as they are. */
  manageSubscription?: SiteConfigResponse['manageSubscription'];
}

interface Page {
  entry: StaticEntry;
  csp: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=86400';

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  const pattern = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi;
  for (const match of html.matchAll(pattern)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/.test(attributes)) continue;
    const type = /\stype\s*=\s*"([^"]*)"/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript') continue;
    hashes.push(sha256Source(match[2] ?? ''));
  }
  return [...new Set(hashes)];
}

/** The SHA-256 sources of a page's `<style>` elements: the site's stylesheet is inline in every page (decision 171). */
export function inlineStyleHashes(html: string): string[] {
  const pattern = /<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi;
  return [...new Set([...html.matchAll(pattern)].map((match) => sha256Source(match[1] ?? '')))];
}

export function pageCsp(
  html: string,
  connectOrigins: readonly string[] = [],
  formTargets: readonly string[] = [],
): string {
  return [
    `default-src 'self'`,
    `script-src 'self' ${inlineScriptHashes(html).join(' ')}`.trim(),
    // <style> elements only by hash; style attributes (React `style` props in the prerendered HTML) stay allowed.
    `style-src 'self' ${inlineStyleHashes(html).join(' ')}`.trim(),
    `style-src-attr 'unsafe-inline'`,
    `img-src 'self' data:`,
    `font-src 'self'`,
    `connect-src 'self' ${connectOrigins.join(' ')}`.trim(),
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    `frame-ancestors 'none'`,
    `upgrade-insecure-requests`,
  ].join('; ');
}

function htmlFileFor(buildDir: string, pagePath: string): string {
  return pagePath === '/' ? path.join(buildDir, 'index.html') : path.join(buildDir, pagePath, 'index.html');
}

function wantsHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url;
  if (/^\/(api|v1|tools)(\/|$)/.test(url)) return false;
  const accept = request.headers.accept ?? '';
  return !accept || accept.includes('text/html') || accept.includes('*/*');
}

const MARKED_ELEMENT = new RegExp(
  `<([a-z][a-z0-9]*)\\b[^>]*\\s${WHEN_SUBSCRIPTIONS_MANAGED}=""[^>]*>[\\s\\S]*?</\\1>`,
  'g',
);

/**
 * A prerendered page as this server serves it (decision 298): a meta element saying what "Manage Subscription" does
 * here, and, where it does nothing (`none`), without the elements marked `WHEN_SUBSCRIPTIONS_MANAGED` (the footer's
 * link, the pricing page's section and sentence), so that no visitor sees them, not even before the page's script has
 * read the site configuration. The page's first render reads the meta element and leaves them out too. A marked element
 * holds no element of its own tag (checked by site.test.ts on the real build: no marker is left).
 */
export function pageForServer(html: string, mode: SiteConfigResponse['manageSubscription']): string {
  const meta = `<meta name="${MANAGE_SUBSCRIPTION_META}" content="${mode}"/>`;
  const withMeta = html.replace('</head>', `${meta}</head>`);
  return mode === 'none' ? withMeta.replace(MARKED_ELEMENT, '') : withMeta;
}

/** The site read from the build and held in memory (compressed), ready for sitePlugin to serve. */
export interface SiteFiles {
  pages: Map<string, Page>;
  assets: { urlPath: string; entry: StaticEntry; cacheControl: string }[];
  builtAt: Date;
}

/**
 * Reads the build and compresses every file (gzip and brotli). `buildApp()` calls it before registering sitePlugin,
 * outside Fastify's per-plugin timeout: on a busy machine compressing the assets takes longer than that (issue 31).
 */
export async function loadSite(
  options: SiteOptions,
  log?: { info(fields: object, message: string): void },
): Promise<SiteFiles> {
  const started = performance.now();
  const { buildDir } = options;
  if (!existsSync(path.join(buildDir, 'index.html'))) {
    throw new Error(`The site is not built: ${buildDir}/index.html is missing. Run "npm run build".`);
  }
  // Pages are prerendered with SITE.defaultOrigin; the configured SITE_URL replaces it at load.
  const localize = (html: string) => html.split(SITE.defaultOrigin).join(options.origin);

  const pages = new Map<string, Page>();
  for (const pagePath of [...PAGE_PATHS, NOT_FOUND_PAGE]) {
    const file = htmlFileFor(buildDir, pagePath);
    const raw = await loadEntry(file);
    const localized = localize(raw.body.toString('utf8'));
    const html = options.manageSubscription
      ? pageForServer(localized, options.manageSubscription)
      : localized;
    pages.set(pagePath, {
      entry: makeEntry(Buffer.from(html), 'text/html; charset=utf-8', true),
      csp: pageCsp(html, options.connectOrigins, FORM_TARGETS[pagePath]),
    });
  }

  const htmlFiles = new Set(
    [...PAGE_PATHS, NOT_FOUND_PAGE].map((pagePath) => path.resolve(htmlFileFor(buildDir, pagePath))),
  );
  const assets: SiteFiles['assets'] = [];
  for (const file of await listFiles(buildDir)) {
    const resolved = path.resolve(file);
    if (htmlFiles.has(resolved) || resolved.endsWith('.html')) continue;
    const urlPath = `/${path.relative(buildDir, resolved).split(path.sep).map(encodeURIComponent).join('/')}`;
    const entry = await loadEntry(resolved);
    assets.push({ urlPath, entry, cacheControl: urlPath.startsWith('/assets/') ? IMMUTABLE : SHORT });
  }
  const ms = Math.round(performance.now() - started);
  log?.info({ files: pages.size + assets.length, ms }, `site loaded in ${ms} ms`);
  return { pages, assets, builtAt: (await stat(path.join(buildDir, 'index.html'))).mtime };
}

/**
 * The query string of a request's URL as it came (`?…`; '' when there is none or it is empty), for a redirect that
 * keeps it (issue 55). Node's parser answers 400 to a request line with other than printable ASCII, so it is a valid
 * Location as it is; it only ever follows a path of our own, so it cannot make the target leave the site.
 */
function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 || at === url.length - 1 ? '' : url.slice(at);
}

export const sitePlugin = fp(
  async (app: FastifyInstance, { site }: { site: SiteFiles }) => {
    const { pages } = site;
    const sendPage = (request: FastifyRequest, reply: FastifyReply, page: Page, status = 200) =>
      sendEntry(
        request,
        reply,
        page.entry,
        { 'cache-control': REVALIDATE, 'content-security-policy': page.csp },
        status,
      );

    for (const pagePath of PAGE_PATHS) {
      const page = pages.get(pagePath)!;
      app.get(pagePath, (request, reply) => sendPage(request, reply, page));
      if (pagePath !== '/') {
        // The query string comes along (Stripe returns to `/welcome/?session_id=…`); the path is the page's own.
        app.get(`${pagePath}/`, (request, reply) =>
          reply.redirect(`${pagePath}${queryOf(request.url)}`, 301),
        );
      }
    }

    for (const { urlPath, entry, cacheControl } of site.assets) {
      app.get(urlPath, (request, reply) =>
        sendEntry(request, reply, entry, { 'cache-control': cacheControl }),
      );
    }

    const notFound = pages.get(NOT_FOUND_PAGE)!;
    app.setNotFoundHandler((request, reply) => {
      if (wantsHtml(request)) return sendPage(request, reply, notFound, 404);
      return sendNotFound(request, reply);
    });

    app.decorate('siteBuiltAt', site.builtAt);
  },
  { name: 'site' },
);

declare module 'fastify' {
  interface FastifyInstance {
    siteBuiltAt: Date;
  }
}
