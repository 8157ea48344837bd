import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { parseSecretsKey } from './lib/secret-box';

const dir = mkdtempSync(join(tmpdir(), 'config-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SECRETS_KEY', () => {
  it('is required in production, named with the session secret', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'SESSION_SECRET: required in production',
      'SECRETS_KEY: required in production',
    ]);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => loadConfig({ SECRETS_KEY: 'abc', DATA_DIR: dir })).toThrow(/SECRETS_KEY: must be 64 hex/);
  });

  it('is generated once into DATA_DIR outside production and read back the same', () => {
    const first = loadConfig({ DATA_DIR: dir }).SECRETS_KEY;
    expect(parseSecretsKey(first)).not.toBeNull();
    expect(readFileSync(join(dir, 'secrets-key'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dir }).SECRETS_KEY).toBe(first);
  });

  it('takes the platform partner id only in PayPal merchant id form', () => {
    expect(() => loadConfig({ PAYPAL_PARTNER_ID: 'not an id', DATA_DIR: dir })).toThrow(/PAYPAL_PARTNER_ID/);
    expect(loadConfig({ PAYPAL_PARTNER_ID: 'PARTNER123', DATA_DIR: dir }).PAYPAL_PARTNER_ID).toBe('PARTNER123');
  });
});
