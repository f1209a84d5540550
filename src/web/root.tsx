import { useEffect, type ReactNode } from 'react';
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router';
import type { Route } from './+types/root';
import stylesheet from './app.css?inline';

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'manifest', href: '/site.webmanifest' },
];

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b1220" />
        <SiteStylesheet />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <HydratedMark />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/**
 * `<html data-hydrated="true">` once React has hydrated the page (effects run after the whole root's first commit).
 * A prerendered page is readable at once, but its scripts start only after its first paint (decision 186): the
 * browser tests, and anyone measuring the page, wait for this before they press what needs React.
 */
function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

/**
 * The site's whole stylesheet, inline in each prerendered page: the first paint waits for no request (decision 171).
 * Only the prerender (the server build) holds the text; the browser's bundle renders the element empty, and hydration
 * keeps the prerendered text (React neither compares nor patches `dangerouslySetInnerHTML` when hydrating), so the
 * stylesheet is not in the JavaScript too. The page's CSP allows this element by the SHA-256 of its text
 * (src/server/site/plugin.ts).
 */
function SiteStylesheet() {
  return (
    <style
      data-site-stylesheet=""
      dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? stylesheet : '' }}
      suppressHydrationWarning
    />
  );
}

export default function App() {
  return <Outlet />;
}

export function HydrateFallback() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const title = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'Something went wrong';
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-4 text-slate-300">
        Please reload the page.{' '}
        <a className="underline" href="/">
          Go to the home page
        </a>
      </p>
    </main>
  );
}
