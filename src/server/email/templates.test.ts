import { describe, expect, it } from 'vitest';
import { renderEmail } from './templates.ts';

// Every email that hands out a key tells its holder where to see the key's usage and rotate it (/account, decision
// 156); the emails that carry no key and the one-time billing link do not.

const context = { siteUrl: 'https://odds.example', key: 'sl_live_0123456789abcdef', to: 'ada@example.com' };
const payload = { plan: 'pro', expiresAt: '2026-12-04T12:00:00.000Z', previousPrefix: 'sl_trial_ab12' };
const ACCOUNT = 'https://odds.example/account';

describe('key emails and the account page', () => {
  for (const kind of ['paid-key-issued', 'paid-key-rotated', 'trial-issued', 'trial-key-again'] as const) {
    it(`${kind} links to the account page in its text and its HTML`, () => {
      const email = renderEmail(kind, payload, context);
      expect(email.text).toContain(`on your account page): ${ACCOUNT}`);
      expect(email.html).toContain(`<a href="${ACCOUNT}"`);
    });
  }

  for (const kind of ['trial-reminder', 'billing-portal-link'] as const) {
    it(`${kind}, which carries no key, does not`, () => {
      const email = renderEmail(kind, payload, context);
      expect(email.text).not.toContain(ACCOUNT);
    });
  }
});
