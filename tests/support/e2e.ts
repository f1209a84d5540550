// The browser tests' `test`: Playwright's, with a page whose `goto` and `reload` return once one of the site's pages
// has hydrated (`<html data-hydrated>`, src/web/root.tsx). A prerendered page is drawn from its HTML and starts its
// scripts only after its first paint (docs/decisions/186), so the load event, where Playwright's navigation ends,
// comes before React can answer a press. Pages that are not the site's React pages (the API reference, Stripe's
// stand-in, a page with JavaScript off) are not waited for.
import { test as base, type Page } from '@playwright/test';

export * from '@playwright/test';

/** Waits until the page, if it is one of the site's React pages, has hydrated. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !('__reactRouterContext' in window) || document.documentElement.dataset.hydrated === 'true',
  );
}

/** `page`, its `goto` and `reload` made to wait for hydration (for pages of a context a test opens itself). */
export function hydrating(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => {
    const response = await goto(...args);
    await waitForHydration(page);
    return response;
  };
  page.reload = async (...args: Parameters<Page['reload']>) => {
    const response = await reload(...args);
    await waitForHydration(page);
    return response;
  };
  return page;
}

export const test = base.extend({
  page: async ({ page }, use) => {
    await use(hydrating(page));
  },
});
