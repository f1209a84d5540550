// Usage: npx tsx scripts/screenshot.ts <url> <out.png> [width] [height] [fullPage]
// Takes a screenshot in Debian's Chromium and reports horizontal overflow (a page must not scroll sideways).
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/browser.ts';

const [url, out, width = '1280', height = '900', full = 'true'] = process.argv.slice(2);
if (!url || !out) throw new Error('usage: screenshot.ts <url> <out.png> [width] [height] [fullPage]');
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
await page.goto(url, { waitUntil: 'networkidle' });
await page.screenshot({ path: out, fullPage: full === 'true' });
const overflow = await page.evaluate(
  () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
);
console.log(JSON.stringify({ url, width: Number(width), horizontalOverflowPx: overflow }));
await browser.close();
