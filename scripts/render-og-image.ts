// Renders public/og-image.png (1200×630, the social card image) from scripts/og-image.html in Debian's Chromium:
// npx tsx scripts/render-og-image.ts
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/browser.ts';

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.goto(`file://${path.resolve('scripts/og-image.html')}`);
await page.screenshot({ path: 'public/og-image.png' });
await browser.close();
