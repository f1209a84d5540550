import { useEffect, useState } from 'react';
import { BILLING_PATHS } from '#domain/checkout.ts';
import { MANAGE_SUBSCRIPTION_META } from '#domain/site.ts';
import { SiteConfigSchema, type SiteConfigResponse } from '#domain/schemas/billing.ts';

// The server's answer to "how is buying done here" (GET /api/site-config, decision 151): which plans can be bought and
// what "Manage Subscription" does. The pages are prerendered, so they read it after hydration; until then (and
// without JavaScript) they show the buttons and links that post to the server, which decides anyway.

/** The configuration, or null when it cannot be read (the pages then keep their server-deciding defaults). */
export async function fetchSiteConfig(fetchImpl: typeof fetch = fetch): Promise<SiteConfigResponse | null> {
  try {
    const response = await fetchImpl(BILLING_PATHS.siteConfig, { headers: { Accept: 'application/json' } });
    if (!response.ok) return null;
    const parsed = SiteConfigSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

let shared: Promise<SiteConfigResponse | null> | undefined;

/** One read per page load, shared by the header, the footer and the page. Null until it arrives, or if it fails. */
export function useSiteConfig(): SiteConfigResponse | null {
  const [config, setConfig] = useState<SiteConfigResponse | null>(null);
  useEffect(() => {
    let live = true;
    shared ??= fetchSiteConfig();
    void shared.then((value) => {
      if (live) setConfig(value);
    });
    return () => {
      live = false;
    };
  }, []);
  return config;
}

type ManageMode = SiteConfigResponse['manageSubscription'];

/**
 * `none` when the server that served this page said in it that it manages no subscriptions (decision 298): it has then
 * taken the marked elements out of the HTML, so the first render must leave them out too. Anything else: undefined, as
 * in the prerender (the page's HTML is the prerendered one until the configuration arrives).
 */
export function servedWithoutSubscriptions(
  doc: Document | undefined = globalThis.document,
): 'none' | undefined {
  const content = doc?.querySelector(`meta[name="${MANAGE_SUBSCRIPTION_META}"]`)?.getAttribute('content');
  return content === 'none' ? 'none' : undefined;
}

/** What "Manage Subscription" does here: the site configuration's answer, `none` at once where the server said so. */
export function useManageSubscription(): ManageMode | undefined {
  const config = useSiteConfig();
  const [served] = useState(servedWithoutSubscriptions);
  return config?.manageSubscription ?? served;
}
