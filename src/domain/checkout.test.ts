import { describe, expect, it } from 'vitest';
import {
  CHECKOUT_SESSION_ID,
  emailFromFragment,
  maskEmail,
  PRICING_NOTICES,
  pricingNoticeOf,
  pricingNoticePath,
  pricingWithEmailPath,
  type PricingNotice,
} from './checkout.ts';

describe('the pricing page notices', () => {
  it('each path the server redirects to names the notice the page then shows, by its flag and by its fragment', () => {
    for (const notice of Object.keys(PRICING_NOTICES) as PricingNotice[]) {
      const url = new URL(pricingNoticePath(notice), 'https://example.test');
      expect(url.pathname).toBe('/sports-betting-api');
      expect(pricingNoticeOf(url.search, url.hash)).toBe(notice);
      expect(pricingNoticeOf('', url.hash)).toBe(notice);
      expect(pricingNoticeOf(url.search, '')).toBe(notice);
    }
    expect(pricingNoticeOf('?checkout=whatever', '#plan-pro')).toBeNull();
  });
});

describe('maskEmail', () => {
  it('keeps the first character and the domain', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
    expect(maskEmail('a@b.io')).toBe('a***@b.io');
    expect(maskEmail('"odd@local"@example.com')).toBe('"***@example.com');
    expect(maskEmail('no-at-sign')).toBe('***');
  });
});

describe('CHECKOUT_SESSION_ID', () => {
  it('accepts Stripe Checkout Session ids only, at most 255 characters', () => {
    expect(CHECKOUT_SESSION_ID.test('cs_test_a1B2c3')).toBe(true);
    expect(CHECKOUT_SESSION_ID.test(`cs_live_${'a'.repeat(246)}`)).toBe(true);
    for (const id of [
      'cs_test_',
      'sub_123',
      'cs_test_a/b',
      `cs_live_${'a'.repeat(247)}`,
      'cs_test_a b',
      'xcs_test_a',
    ])
      expect(CHECKOUT_SESSION_ID.test(id), id).toBe(false);
  });
});

describe('the address in the pricing page fragment', () => {
  it('round-trips through the link an email carries, and nothing else is taken for one', () => {
    for (const email of ['ada@example.com', 'ada+trial@example.co.uk', "o'neil@example.org"]) {
      const url = new URL(pricingWithEmailPath(email), 'https://example.test');
      expect(url.search).toBe('');
      expect(emailFromFragment(url.hash)).toBe(email);
    }
    for (const hash of [
      '',
      '#plan-pro',
      '#email=',
      '#email=not-an-address',
      '#email=%E0%A4%A',
      `#email=${'a'.repeat(250)}@example.com`,
    ])
      expect(emailFromFragment(hash), hash).toBeNull();
  });
});
