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

describe('TRUST_PROXY (decision 121)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cfg-proxy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes true, false, or the proxy addresses whose forwarded host and scheme are believed', () => {
    expect(loadConfig({ DATA_DIR: dir }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true', DATA_DIR: dir }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8', DATA_DIR: dir }).TRUST_PROXY).toBe('127.0.0.1,10.0.0.0/8');
    expect(() => loadConfig({ TRUST_PROXY: 'yes please', DATA_DIR: dir })).toThrow(/TRUST_PROXY/);
  });

  it('takes the DNS server domains are checked with as an address and port', () => {
    expect(loadConfig({ DNS_RESOLVER: '127.0.0.1:5353', DATA_DIR: dir }).DNS_RESOLVER).toBe('127.0.0.1:5353');
    expect(() => loadConfig({ DNS_RESOLVER: 'dns.example.com', DATA_DIR: dir })).toThrow(/DNS_RESOLVER/);
  });
});
