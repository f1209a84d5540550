import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { loadSecrets } from './secrets.ts';

const dirs = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sharpline-secrets-'));
  return { dataDir: path.join(root, 'data'), secretsDir: path.join(root, 'data-secrets') };
};

describe('loadSecrets', () => {
  it('creates the server secret in SECRETS_DIR (0700) as a 0600 file, never in DATA_DIR', () => {
    const { dataDir, secretsDir } = dirs();
    const secrets = loadSecrets({ dataDir, secretsDir });
    expect(existsSync(path.join(dataDir, 'server-secret'))).toBe(false);
    expect(statSync(secretsDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(secretsDir, 'server-secret')).mode & 0o777).toBe(0o600);
    // The same secret on the next start: what it sealed can still be unsealed.
    const sealed = secrets.seal('sl_trial_x', '<id@example.test>');
    expect(loadSecrets({ dataDir, secretsDir }).unseal(sealed, '<id@example.test>')).toBe('sl_trial_x');
  });

  it('moves a server secret left in DATA_DIR by an older version to SECRETS_DIR, keeping what it sealed readable', () => {
    const { dataDir, secretsDir } = dirs();
    mkdirSync(dataDir, { recursive: true });
    const legacy = 'L'.repeat(43);
    writeFileSync(path.join(dataDir, 'server-secret'), `${legacy}\n`, { mode: 0o600 });
    const notices: string[] = [];
    loadSecrets({ dataDir, secretsDir }, (message) => notices.push(message));
    expect(existsSync(path.join(dataDir, 'server-secret'))).toBe(false);
    expect(readFileSync(path.join(secretsDir, 'server-secret'), 'utf8').trim()).toBe(legacy);
    expect(statSync(path.join(secretsDir, 'server-secret')).mode & 0o777).toBe(0o600);
    expect(notices).toEqual([expect.stringMatching(/^moved .*server-secret to /)]);
  });

  it('deletes a server secret left in DATA_DIR when SERVER_SECRET is set', () => {
    const { dataDir, secretsDir } = dirs();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'server-secret'), `${'L'.repeat(43)}\n`, { mode: 0o600 });
    loadSecrets({ dataDir, secretsDir, SERVER_SECRET: 'S'.repeat(40) });
    expect(existsSync(path.join(dataDir, 'server-secret'))).toBe(false);
    expect(existsSync(secretsDir)).toBe(false);
  });
});

describe('SECRETS_DIR', () => {
  it('defaults to the sibling <DATA_DIR>-secrets and refuses a directory inside DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/srv/sharpline/data' }).secretsDir).toBe('/srv/sharpline/data-secrets');
    expect(loadConfig({ DATA_DIR: '/srv/d', SECRETS_DIR: '/etc/sharpline' }).secretsDir).toBe(
      '/etc/sharpline',
    );
    for (const inside of ['/srv/d', '/srv/d/secrets']) {
      expect(() => loadConfig({ DATA_DIR: '/srv/d', SECRETS_DIR: inside })).toThrow(
        /SECRETS_DIR: must be outside DATA_DIR/,
      );
    }
  });
});
