import path from 'node:path';
import { expect, test } from '@playwright/test';
import { emailsTo } from '../support/outbox-files.ts';

// The home page form against the real endpoint (no mocks): the visitor sees the success banner and the key arrives
// in the server's file outbox (DATA_DIR/outbox/*.eml, the default without SMTP_URL).

test('a visitor who requests a trial gets a one-week key by email', async ({ page, baseURL }) => {
  const dataDir = path.resolve(`data/e2e-${new URL(baseURL!).port}`);
  const address = `e2e.${Date.now().toString(36)}@example.com`;
  await page.goto('/');
  await page.getByLabel('Full Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill(address);
  await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
  await expect(page.getByRole('status')).toContainText('Trial key has been sent to your email address.');

  await expect.poll(() => emailsTo(dataDir, address).length, { timeout: 15_000 }).toBe(1);
  const eml = emailsTo(dataDir, address)[0]!;
  expect(eml).toMatch(/Subject: Your Sharpline trial API key/);
  expect(eml).toMatch(/sl_trial_[0-9A-Za-z]{32}/);
});
