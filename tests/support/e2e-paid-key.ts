import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

// Issue 56 (decision 210): the arbitrage page without a key shows the free tier, arbs up to 1 % edge. The arbitrage
// specs read every arb of their replayed fixture (edges up to 3.44 %), so they open the page as a paid customer: an
// Enterprise key (every arb in real time) made through the operators' loopback route, as `npm run keys` does, and
// pasted into the tab's sessionStorage before the page's script runs, as the key box keeps it (decision 213).

const STORAGE_NAME = 'sharpline.accountKey';

/** A new key of the plan on the server at `baseURL` (its admin token is in its DATA_DIR, `data/e2e-<port>`). */
export async function createE2eKey(baseURL: string, plan: 'pro' | 'elite' | 'enterprise'): Promise<string> {
  const token = readFileSync(path.resolve(`data/e2e-${new URL(baseURL).port}`, 'admin-token'), 'utf8').trim();
  const response = await fetch(new URL('/admin/keys', baseURL), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      plan,
      email: `e2e.arbs.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`,
    }),
  });
  if (response.status !== 200) throw new Error(`POST /admin/keys answered ${response.status}`);
  return ((await response.json()) as { key: string }).key;
}

/** Opens the site's pages in `page` with a new key of the plan pasted in the tab. */
export async function withPastedKey(
  page: Page,
  baseURL: string,
  plan: 'pro' | 'elite' | 'enterprise' = 'enterprise',
): Promise<void> {
  const key = await createE2eKey(baseURL, plan);
  await page.addInitScript(
    ([name, value]) => window.sessionStorage.setItem(name!, value!),
    [STORAGE_NAME, key],
  );
}
