import path from 'node:path';
import { expect, test } from '../support/e2e.ts';
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
  await expect(page.getByRole('status')).toContainText(
    'Check your email. We have sent your trial key to this address, or, if this address has already had its free trial, an email explaining why no new key was sent.',
  );

  await expect.poll(() => emailsTo(dataDir, address).length, { timeout: 15_000 }).toBe(1);
  const eml = emailsTo(dataDir, address)[0]!;
  expect(eml).toMatch(/Subject: Your Sharpline trial API key/);
  expect(eml).toMatch(/sl_trial_[0-9A-Za-z]{32}/);
});

// Issue 34: a refusal said "Failed to send trial request. Please try again." though the 429 said why and for how long.
test('a visitor who asks too often for one address is told why and when to try again', async ({ page }) => {
  const address = `e2e.limit.${Date.now().toString(36)}@example.com`;
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Get your free trial API key' });
  // TRIAL_LIMIT_PER_EMAIL is 3 a day by default: the fourth request for the address is refused.
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    await page.getByLabel('Full Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(address);
    const answer = page.waitForResponse('**/api/trial-requests');
    await page.getByRole('button', { name: 'Get Free Trial Key' }).click();
    expect((await answer).status()).toBe(attempt <= 3 ? 200 : 429);
    if (attempt <= 3) await form.getByRole('button', { name: 'Dismiss message' }).click();
  }
  await expect(form.getByRole('alert')).toHaveText(
    /^Too many trial requests for this address\. Try again in \d+ (hours?|minutes?)\.$/,
  );
  await expect(page.getByLabel('Email')).toHaveValue(address);
});
