import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, ConfigSchema, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.ODDS_SOURCE).toBe('simulator');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.SITE_URL).toBe('https://sharpline.io');
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('HISTORY_MAX_GB is 2 on the embedded database and 20 on PostgreSQL when unset; a value set is kept on either', () => {
    expect(loadConfig({}).HISTORY_MAX_GB).toBe(2);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/sharpline' }).HISTORY_MAX_GB).toBe(20);
    expect(loadConfig({ HISTORY_MAX_GB: '5' }).HISTORY_MAX_GB).toBe(5);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db.example/sharpline', HISTORY_MAX_GB: '0.5' }).HISTORY_MAX_GB,
    ).toBe(0.5);
    expect(() => loadConfig({ HISTORY_MAX_GB: '0' })).toThrow(/HISTORY_MAX_GB/);
  });

  it('HISTORY_FORMAT is blocks on the embedded database and rows on PostgreSQL when unset; a value set is kept on either', () => {
    expect(loadConfig({}).HISTORY_FORMAT).toBe('blocks');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/sharpline' }).HISTORY_FORMAT).toBe('rows');
    expect(loadConfig({ HISTORY_FORMAT: 'rows' }).HISTORY_FORMAT).toBe('rows');
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db.example/sharpline', HISTORY_FORMAT: 'blocks' })
        .HISTORY_FORMAT,
    ).toBe('blocks');
    expect(() => loadConfig({ HISTORY_FORMAT: 'columns' })).toThrow(/HISTORY_FORMAT: must be rows or blocks/);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['REDIS_URL', 'not a url'],
    ['SMTP_URL', 'http://mail'],
    ['SITE_URL', 'ftp://sharpline.io'],
    ['ODDS_SOURCE', 'magic'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['STREAM_WRITES_PER_TURN', '0'],
  ])('stops with a message naming %s when it is %j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      expect((error as Error).message).toContain(name);
    }
  });

  it('billing: the webhook secret comes with the secret key; STRIPE_API_URL is https (http on loopback) without a path; STRIPE_PRICE_PLANS names plans', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_0123456789', STRIPE_WEBHOOK_SECRET: 'whsec_0123456789' };
    expect(() => loadConfig({ STRIPE_SECRET_KEY: stripe.STRIPE_SECRET_KEY })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    expect(loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111' }).STRIPE_API_URL).toBe(
      'http://127.0.0.1:12111',
    );
    expect(
      loadConfig({ ...stripe, STRIPE_API_URL: 'https://stripe-proxy.internal:8443' }).STRIPE_API_URL,
    ).toBe('https://stripe-proxy.internal:8443');
    for (const bad of ['http://stripe-proxy.internal', 'https://proxy.internal/stripe', 'ftp://127.0.0.1']) {
      expect(() => loadConfig({ ...stripe, STRIPE_API_URL: bad })).toThrow(/STRIPE_API_URL/);
    }
    expect(loadConfig({ STRIPE_PRICE_PLANS: 'price_1A:pro, price_2B:elite' }).STRIPE_PRICE_PLANS).toEqual({
      price_1A: 'pro',
      price_2B: 'elite',
    });
    expect(() => loadConfig({ STRIPE_PRICE_PLANS: 'price_1A:gold' })).toThrow(/STRIPE_PRICE_PLANS/);
    expect(loadConfig({}).BILLING_GRACE_HOURS).toBe(72);
  });

  it('ROLE is all by default; ingest and api stop at start without REDIS_URL or DATABASE_URL, naming each missing one', () => {
    expect(loadConfig({}).ROLE).toBe('all');
    expect(() => loadConfig({ ROLE: 'leader' })).toThrow(/ROLE/);
    for (const role of ['ingest', 'api']) {
      expect(() => loadConfig({ ROLE: role })).toThrow(
        new RegExp(`REDIS_URL: required when ROLE is ${role}[^]*DATABASE_URL: required when ROLE is ${role}`),
      );
      expect(() => loadConfig({ ROLE: role, REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/DATABASE_URL/);
      expect(() => loadConfig({ ROLE: role, DATABASE_URL: 'postgres://127.0.0.1/x' })).toThrow(/REDIS_URL/);
      expect(
        loadConfig({
          ROLE: role,
          REDIS_URL: 'redis://127.0.0.1:6379',
          DATABASE_URL: 'postgres://127.0.0.1/x',
        }).ROLE,
      ).toBe(role);
    }
  });

  it('LEADER_LEASE_MS is 5 s by default and refused outside 1–60 s', () => {
    expect(loadConfig({}).LEADER_LEASE_MS).toBe(5_000);
    expect(loadConfig({ LEADER_LEASE_MS: '2000' }).LEADER_LEASE_MS).toBe(2_000);
    for (const bad of ['999', '60001', 'soon'])
      expect(() => loadConfig({ LEADER_LEASE_MS: bad })).toThrow(/LEADER_LEASE_MS/);
  });

  it('SIM_START: unset by default (the clock), an ISO 8601 instant as unix ms, anything else refused', () => {
    expect(loadConfig({}).SIM_START).toBeUndefined();
    expect(loadConfig({ SIM_START: '2026-11-22T18:30:00Z' }).SIM_START).toBe(Date.UTC(2026, 10, 22, 18, 30));
    expect(loadConfig({ SIM_START: '2026-11-22T13:30:00-05:00' }).SIM_START).toBe(
      Date.UTC(2026, 10, 22, 18, 30),
    );
    for (const bad of ['sunday', '1795000000000', '2026-11-22'])
      expect(() => loadConfig({ SIM_START: bad })).toThrow(/SIM_START/);
  });

  it('ODDS_API_URL, where The Odds API key travels, is https (http on loopback) without a path', () => {
    expect(loadConfig({}).ODDS_API_URL).toBeUndefined();
    expect(loadConfig({ ODDS_API_URL: 'http://127.0.0.1:4250' }).ODDS_API_URL).toBe('http://127.0.0.1:4250');
    expect(loadConfig({ ODDS_API_URL: 'https://odds-proxy.internal' }).ODDS_API_URL).toBe(
      'https://odds-proxy.internal',
    );
    for (const bad of ['http://odds-proxy.internal', 'https://odds-proxy.internal/v4', 'ftp://127.0.0.1']) {
      expect(() => loadConfig({ ODDS_API_URL: bad }), bad).toThrow(/ODDS_API_URL/);
    }
  });

  it('requires ODDS_API_KEY when the source is the-odds-api', () => {
    expect(() => loadConfig({ ODDS_SOURCE: 'the-odds-api' })).toThrow(/ODDS_API_KEY/);
    expect(loadConfig({ ODDS_SOURCE: 'the-odds-api', ODDS_API_KEY: 'k' }).ODDS_SOURCE).toBe('the-odds-api');
  });

  it('keeps only the origin of SITE_URL and accepts replay sources', () => {
    expect(loadConfig({ SITE_URL: 'https://odds.example.com/some/path/' }).SITE_URL).toBe(
      'https://odds.example.com',
    );
    expect(loadConfig({ ODDS_SOURCE: 'replay:fixtures/a.jsonl' }).ODDS_SOURCE).toBe(
      'replay:fixtures/a.jsonl',
    );
  });
});

describe('docs/configuration.md', () => {
  // Every variable loadConfig accepts is documented, and the table documents nothing it does not accept.
  const documented = readFileSync(path.resolve('docs/configuration.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) =>
      [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]),
    );

  it('lists exactly the variables ConfigSchema accepts, each once', () => {
    expect([...documented].sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
  });
});
