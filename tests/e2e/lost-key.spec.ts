import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../support/e2e.ts';
import { emailsTo } from '../support/outbox-files.ts';

// The pricing page's "Lost your key?" form against the real endpoint (no mocks, issue 18). A paid key is made through
// the operators' loopback route (`npm run keys` does the same), since the e2e server runs without Stripe; the new key
// arrives in the server's file outbox (DATA_DIR/outbox/*.eml). DATA_DIR persists between runs: addresses are unique.

const KEY = /sl_live_[0-9A-Za-z]{32}/;

function dataDirOf(baseURL: string): string {
  return path.resolve(`data/e2e-${new URL(baseURL).port}`);
}

function uniqueAddress(label: string): string {
  return `e2e.${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

const successText = (address: string) =>
  `If ${address} has a Sharpline subscription or an active trial, a new key is on its way. Your previous key keeps working until you use the new one.`;

/** A Pro key for `address`, made the way the operators' CLI does: loopback, Bearer DATA_DIR/admin-token. */
async function createPaidKey(baseURL: string, address: string): Promise<string> {
  const token = readFileSync(path.join(dataDirOf(baseURL), 'admin-token'), 'utf8').trim();
  const response = await fetch(new URL('/admin/keys', baseURL), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'pro', email: address }),
  });
  expect(response.status).toBe(200);
  const { key } = (await response.json()) as { key: string };
  expect(key).toMatch(KEY);
  return key;
}

async function meStatus(baseURL: string, key: string): Promise<number> {
  const response = await fetch(new URL('/v1/me', baseURL), { headers: { 'X-Api-Key': key } });
  await response.arrayBuffer();
  return response.status;
}

async function askForNewKey(page: Page, address: string) {
  await page.getByLabel('Subscription email').fill(address);
  await page.getByRole('button', { name: 'Email me a new key' }).click();
}

test('a subscriber who lost their key gets a new one by email; the old one works until the new one is used', async ({
  page,
  baseURL,
}) => {
  const address = uniqueAddress('lost');
  const oldKey = await createPaidKey(baseURL!, address);
  expect(await meStatus(baseURL!, oldKey)).toBe(200);

  await page.goto('/sports-betting-api');
  await askForNewKey(page, address);
  await expect(page.getByRole('status')).toHaveText(successText(address));
  await expect(page.getByLabel('Subscription email')).toHaveValue('');

  const dataDir = dataDirOf(baseURL!);
  await expect.poll(() => emailsTo(dataDir, address).length, { timeout: 15_000 }).toBe(1);
  const eml = emailsTo(dataDir, address)[0]!;
  expect(eml).toMatch(/Subject: Your new Sharpline API key/);
  const newKey = KEY.exec(eml)?.[0];
  expect(newKey).toBeDefined();
  expect(newKey).not.toBe(oldKey);

  expect(await meStatus(baseURL!, oldKey)).toBe(200);
  expect(await meStatus(baseURL!, newKey!)).toBe(200);
  expect(await meStatus(baseURL!, oldKey)).toBe(401);
});

test('an address without a subscription gets the same answer, and no email', async ({ page, baseURL }) => {
  const stranger = uniqueAddress('stranger');
  await page.goto('/sports-betting-api');
  await askForNewKey(page, stranger);
  // The answer comes from the server: on a machine busy with both suites it took over the default 5 s once.
  await expect(page.getByRole('status')).toHaveText(successText(stranger), { timeout: 15_000 });

  // A subscriber's request sent after it: once their email is in the outbox, the stranger's would be too.
  const subscriber = uniqueAddress('subscriber');
  await createPaidKey(baseURL!, subscriber);
  await askForNewKey(page, subscriber);
  await expect(page.getByRole('status')).toHaveText(successText(subscriber), { timeout: 15_000 });
  const dataDir = dataDirOf(baseURL!);
  await expect.poll(() => emailsTo(dataDir, subscriber).length, { timeout: 15_000 }).toBe(1);
  expect(emailsTo(dataDir, stranger)).toEqual([]);
});

test('an address the server refuses shows its error, and what was typed stays', async ({ page }) => {
  await page.goto('/sports-betting-api');
  // The browser's own check lets `ada@localhost` through (no dot needed); the server's schema does not.
  await askForNewKey(page, 'ada@localhost');
  const input = page.getByLabel('Subscription email');
  await expect(page.getByRole('alert')).toHaveText(/Enter a valid email address/);
  await expect(input).toHaveValue('ada@localhost');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Email me a new key' })).toBeEnabled();
  const results = await new AxeBuilder({ page }).include('form').analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
});

test('the button sits under the input on a phone and beside it, as tall, on a desktop', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/sports-betting-api');
  const input = page.getByLabel('Subscription email');
  const button = page.getByRole('button', { name: 'Email me a new key' });
  // Both boxes from one frame: measured one after the other, a layout change above the form in between (the page
  // still hydrating on a busy machine) once put the button 388 px above the field.
  const boxes = async () =>
    input.evaluate(
      (field, action) =>
        [field.getBoundingClientRect(), action!.getBoundingClientRect()].map((r) => r.toJSON()),
      await button.elementHandle(),
    ) as Promise<{ x: number; y: number; width: number; height: number }[]>;
  let [field, action] = (await boxes()) as [DOMRect, DOMRect];
  expect(action.y).toBeGreaterThanOrEqual(field.y + field.height);
  expect(Math.abs(action.width - field.width)).toBeLessThanOrEqual(1);

  await page.setViewportSize({ width: 1280, height: 900 });
  [field, action] = (await boxes()) as [DOMRect, DOMRect];
  expect(action.x).toBeGreaterThan(field.x + field.width);
  expect(Math.abs(action.y - field.y)).toBeLessThanOrEqual(1);
  expect(Math.abs(action.height - field.height)).toBeLessThanOrEqual(1);
});
