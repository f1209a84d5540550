import type { FastifyInstance } from 'fastify';
import { absoluteUrl, ROUTES, SITE } from '#domain/site.ts';

/** The indexed pages, and the API reference when this server serves it (`/docs`, issue 34). */
export const SITEMAP_PATHS: readonly string[] = [
  ROUTES.home,
  ROUTES.arbitrage,
  ROUTES.positiveEv,
  ROUTES.middles,
  ROUTES.betTracker,
  ROUTES.calibration,
  ROUTES.pricing,
  ...(SITE.docsUrl.startsWith('/') ? [SITE.docsUrl] : []),
];

export function sitemapXml(origin: string, lastModified: Date): string {
  const lastmod = lastModified.toISOString().slice(0, 10);
  const urls = SITEMAP_PATHS.map(
    (path) => `  <url><loc>${absoluteUrl(origin, path)}</loc><lastmod>${lastmod}</lastmod></url>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /v1/',
    '',
    `Sitemap: ${absoluteUrl(origin, '/sitemap.xml')}`,
    '',
  ].join('\n');
}

export async function seoRoutes(app: FastifyInstance, options: { origin: string; builtAt: Date }) {
  const robots = robotsTxt(options.origin);
  const sitemap = sitemapXml(options.origin, options.builtAt);
  app.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robots),
  );
  app.get('/sitemap.xml', async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(sitemap),
  );
}
