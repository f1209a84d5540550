// Renders public/og-image.png (1200×630, the social card image) from scripts/og-image.html in Debian's Chromium.
import { chromium } from '@playwright/test';
import path from 'node:path';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.goto(`file://${path.resolve('scripts/og-image.html')}`);
await page.screenshot({ path: 'public/og-image.png' });
await browser.close();
